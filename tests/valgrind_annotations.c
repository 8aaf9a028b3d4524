/*
 * valgrind_annotations - Helgrind and DRD understand kmutex's locks
 * (issue 6, include/kmutex/valgrind.h, src/valgrind.c).
 *
 * Each case runs as this program again under valgrind, with the case's
 * name, and is judged from outside: valgrind's exit code (66 when it
 * reported an error) and its report on stderr.
 *
 *   clean  shared data behind a mutex, a rwsem, a semaphore and a
 *          completion, contended so the slow paths run: no report from
 *          either tool;
 *   race   the mutex program with one access moved outside the lock:
 *          each tool reports the race;
 *   abba   two mutexes taken in both orders (never at once, so nothing
 *          deadlocks): Helgrind reports the lock-order inversion.  DRD
 *          has no lock-order detector, so it is not asked.
 *
 * Under Valgrind the threads take turns on one CPU, so the critical
 * sections yield now and then: the others then find the lock held and
 * queue, and the slow paths and wake-ups run too.
 *
 * Skipped when valgrind is not installed.
 */
#include <linux/completion.h>
#include <linux/mutex.h>
#include <linux/rwsem.h>
#include <linux/semaphore.h>
#include <sys/wait.h>
#include "harness.h"

#define VG_THREADS	4
#define VG_ITER		400
#define VG_YIELD_EVERY	16

static DEFINE_MUTEX(vg_lock);
static DECLARE_RWSEM(vg_rwsem);
static long vg_counter;		/* under vg_lock */
static long vg_table[8];	/* under vg_rwsem */
static bool vg_racy;		/* the "race" case: one increment unlocked */

static void *vg_mutex_worker(void *arg)
{
	long id = (long)arg;

	for (int i = 0; i < VG_ITER; i++) {
		if (vg_racy && id == 0) {
			vg_counter++;	/* the access moved outside the lock */
			continue;
		}
		mutex_lock(&vg_lock);
		vg_counter++;
		if (i % VG_YIELD_EVERY == id)
			sched_yield();	/* held: the others queue */
		mutex_unlock(&vg_lock);
		if (i % 16 == 0 && mutex_trylock(&vg_lock)) {
			vg_counter++;
			mutex_unlock(&vg_lock);
		}
	}
	return NULL;
}

static void *vg_rwsem_worker(void *arg)
{
	long id = (long)arg, sum = 0;

	for (int i = 0; i < VG_ITER / 2; i++) {
		if (i % 8 == id) {
			down_write(&vg_rwsem);
			vg_table[i % 8]++;
			sched_yield();
			downgrade_write(&vg_rwsem);
			sum += vg_table[i % 8];
			up_read(&vg_rwsem);
		} else {
			down_read(&vg_rwsem);
			for (int j = 0; j < 8; j++)
				sum += vg_table[j];
			if (i % VG_YIELD_EVERY == 0)
				sched_yield();
			up_read(&vg_rwsem);
		}
	}
	return (void *)sum;
}

/*
 * Hand-over: data written before up()/complete() is read after the
 * down()/wait it ends.  Static objects, and two waiters each, queued
 * before the first up()/complete(): the library meets them in its
 * slow path before any annotation has.
 */
static DEFINE_SEMAPHORE(vg_sem, 0);
static DECLARE_COMPLETION(vg_done);
static int vg_handed_sem, vg_handed_done;
static int vg_queued;

static void *vg_sem_waiter(void *arg)
{
	long id = (long)arg;

	__atomic_fetch_add(&vg_queued, 1, __ATOMIC_RELAXED);
	down(&vg_sem);
	CHECK_EQ(vg_handed_sem, 42);
	wait_for_completion(&vg_done);
	CHECK_EQ(vg_handed_done, 43);
	return (void *)id;
}

static void vg_handover(void)
{
	pthread_t t[2];

	for (long i = 0; i < 2; i++)
		CHECK(pthread_create(&t[i], NULL, vg_sem_waiter,
				     (void *)i) == 0);
	WAIT_UNTIL(__atomic_load_n(&vg_queued, __ATOMIC_RELAXED) == 2, 10000);
	test_sleep_ms(50);	/* let both queue on the semaphore */
	vg_handed_sem = 42;
	up(&vg_sem);
	up(&vg_sem);
	test_sleep_ms(50);	/* and on the completion */
	vg_handed_done = 43;
	complete_all(&vg_done);
	for (int i = 0; i < 2; i++)
		CHECK(pthread_join(t[i], NULL) == 0);
}

static void vg_run_threads(void *(*fn)(void *))
{
	pthread_t t[VG_THREADS];

	for (long i = 0; i < VG_THREADS; i++)
		CHECK(pthread_create(&t[i], NULL, fn, (void *)i) == 0);
	for (int i = 0; i < VG_THREADS; i++)
		CHECK(pthread_join(t[i], NULL) == 0);
}

static int vg_case_clean(void)
{
	vg_run_threads(vg_mutex_worker);
	CHECK(vg_counter >= (long)VG_THREADS * VG_ITER);
	vg_run_threads(vg_rwsem_worker);
	vg_handover();
	return 0;
}

static int vg_case_race(void)
{
	vg_racy = true;
	vg_run_threads(vg_mutex_worker);
	return 0;
}

static struct mutex vg_a, vg_b;

static void *vg_ab(void *arg)
{
	mutex_lock(&vg_a);
	mutex_lock(&vg_b);
	mutex_unlock(&vg_b);
	mutex_unlock(&vg_a);
	return arg;
}

static void *vg_ba(void *arg)
{
	mutex_lock(&vg_b);
	mutex_lock(&vg_a);
	mutex_unlock(&vg_a);
	mutex_unlock(&vg_b);
	return arg;
}

static int vg_case_abba(void)
{
	pthread_t t;

	mutex_init(&vg_a);
	mutex_init(&vg_b);
	/* One after the other: the orders conflict, the threads never do. */
	CHECK(pthread_create(&t, NULL, vg_ab, NULL) == 0);
	CHECK(pthread_join(t, NULL) == 0);
	CHECK(pthread_create(&t, NULL, vg_ba, NULL) == 0);
	CHECK(pthread_join(t, NULL) == 0);
	mutex_destroy(&vg_a);
	mutex_destroy(&vg_b);
	return 0;
}

/* Run case @name; -1 if there is no such case. */
static int vg_run_case(const char *name)
{
	if (!strcmp(name, "clean"))
		return vg_case_clean();
	if (!strcmp(name, "race"))
		return vg_case_race();
	if (!strcmp(name, "abba"))
		return vg_case_abba();
	return -1;
}


#define VG_EXITCODE	66

/*
 * The program valgrind runs: this one without its debugging sections,
 * since Valgrind 3.19 cannot read the DWARF 5 that clang writes (and
 * the reports need only the function names).  This one as it is if
 * objcopy fails.
 */
static char vg_prog[4096];

static void vg_prepare(void)
{
	static char dir[] = "/tmp/kmutex-vg-XXXXXX";
	char self[4096], cmd[8400];
	ssize_t len = readlink("/proc/self/exe", self, sizeof(self) - 1);

	CHECK(len > 0);
	self[len] = '\0';
	snprintf(vg_prog, sizeof(vg_prog), "%s", self);
	if (!mkdtemp(dir))
		return;
	snprintf(cmd, sizeof(cmd), "objcopy --strip-debug '%s' %s/prog "
		 "2>/dev/null", self, dir);
	if (system(cmd) == 0)
		snprintf(vg_prog, sizeof(vg_prog), "%s/prog", dir);
}

static void vg_cleanup(void)
{
	char *slash = strrchr(vg_prog, '/');

	if (strncmp(vg_prog, "/tmp/kmutex-vg-", 15))
		return;
	unlink(vg_prog);
	*slash = '\0';
	rmdir(vg_prog);
}

/* Run this program's case @name under valgrind's @tool; its stderr. */
static int vg_child(const char *tool, const char *name, char *buf,
		    size_t size)
{
	char tool_opt[64], drain[4096];
	size_t len = 0;
	ssize_t n;
	int fd[2], status;
	pid_t pid;

	snprintf(tool_opt, sizeof(tool_opt), "--tool=%s", tool);
	CHECK(pipe(fd) == 0);
	pid = fork();
	CHECK(pid >= 0);
	if (pid == 0) {
		dup2(fd[1], 2);
		close(fd[0]);
		close(fd[1]);
		execlp("valgrind", "valgrind", tool_opt, "--error-exitcode=66",
		       vg_prog, name, (char *)NULL);
		_exit(127);
	}
	close(fd[1]);
	while (len + 1 < size &&
	       (n = read(fd[0], buf + len, size - 1 - len)) > 0)
		len += (size_t)n;
	buf[len] = '\0';
	/* Drain the rest so the child never blocks on a full pipe. */
	while (read(fd[0], drain, sizeof(drain)) > 0)
		;
	close(fd[0]);
	CHECK(waitpid(pid, &status, 0) == pid);
	CHECK(WIFEXITED(status));
	return WEXITSTATUS(status);
}

static char out[1 << 18];

/*
 * Case @name under @tool: want exit code @rc (0: no error of any kind),
 * and @text in the report or not.
 */
static bool vg_expect(const char *tool, const char *name, int rc,
		      const char *text, bool present)
{
	int got = vg_child(tool, name, out, sizeof(out));

	if (got == rc && !!strstr(out, text) == present) {
		printf("%s %s: %s\n", tool, name,
		       present ? "reported" : "no report");
		return true;
	}
	fprintf(stderr, "%s %s: exit %d (want %d), \"%s\" %s\n%s\n", tool,
		name, got, rc, text, present ? "missing" : "reported", out);
	return false;
}

static bool have_valgrind(void)
{
	return system("valgrind --version >/dev/null 2>&1") == 0;
}

int main(int argc, char **argv)
{
	bool ok = true;

	if (argc > 1)
		return vg_run_case(argv[1]);
#if defined(KMUTEX_TSAN) || defined(__SANITIZE_ADDRESS__)
	SKIP("built with a sanitizer: its shadow memory keeps valgrind out");
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
	SKIP("built with a sanitizer: its shadow memory keeps valgrind out");
#endif
#endif
	if (!have_valgrind())
		SKIP("valgrind not installed (Debian package valgrind)");
	test_watchdog(240);
	vg_prepare();
	ok &= vg_expect("helgrind", "clean", 0, "Possible data race", false);
	ok &= vg_expect("helgrind", "race", VG_EXITCODE,
			"Possible data race", true);
	ok &= vg_expect("helgrind", "abba", VG_EXITCODE, "lock order", true);
	ok &= vg_expect("drd", "clean", 0, "Conflicting", false);
	ok &= vg_expect("drd", "race", VG_EXITCODE, "Conflicting", true);
	printf("drd abba: not run, DRD has no lock-order detector\n");
	vg_cleanup();
	return ok ? 0 : 1;
}
