/*
 * tsan_annotations - ThreadSanitizer understands kmutex's locks
 * (issue 6, include/kmutex/tsan.h).
 *
 * Each case runs as a child (this program again, with the case's name),
 * because a TSan report is judged from outside: its text on stderr and
 * TSan's exit code (66).
 *
 *   clean  shared data behind a mutex, a rwsem, a semaphore and a
 *          completion, contended so the slow paths run: no report;
 *   race   the same mutex program with one access moved outside the
 *          lock: a "data race" report;
 *   abba   two mutexes taken in both orders (never at once, so nothing
 *          deadlocks): TSan's lock-order-inversion report.
 *
 * Without TSan there is nothing to see: skipped.
 */
#include <linux/completion.h>
#include <linux/mutex.h>
#include <linux/rwsem.h>
#include <linux/semaphore.h>
#include <sys/wait.h>
#include "harness.h"

#define NTHREADS	4
#define NITER		20000
#define TSAN_EXITCODE	66

static DEFINE_MUTEX(lock);
static DECLARE_RWSEM(rwsem);
static long counter;		/* under lock */
static long table[8];		/* under rwsem */
static bool racy;		/* the "race" case: one increment unlocked */

static void *mutex_worker(void *arg)
{
	long id = (long)arg;

	for (int i = 0; i < NITER; i++) {
		if (racy && id == 0) {
			counter++;	/* the access moved outside the lock */
			continue;
		}
		mutex_lock(&lock);
		counter++;
		mutex_unlock(&lock);
		if (i % 16 == 0 && mutex_trylock(&lock)) {
			counter++;
			mutex_unlock(&lock);
		}
	}
	return NULL;
}

static void *rwsem_worker(void *arg)
{
	long id = (long)arg, sum = 0;

	for (int i = 0; i < NITER / 4; i++) {
		if (i % 8 == id) {
			down_write(&rwsem);
			table[i % 8]++;
			downgrade_write(&rwsem);
			sum += table[i % 8];
			up_read(&rwsem);
		} else {
			down_read(&rwsem);
			for (int j = 0; j < 8; j++)
				sum += table[j];
			up_read(&rwsem);
		}
	}
	return (void *)sum;
}

/* Hand-over: the data written before up()/complete() is read after. */
static struct semaphore sem;
static struct completion done;
static int handed_sem, handed_done;

static void *handover_worker(void *arg)
{
	(void)arg;
	handed_sem = 42;
	up(&sem);
	handed_done = 43;
	complete(&done);
	return NULL;
}

static void run_threads(void *(*fn)(void *))
{
	pthread_t t[NTHREADS];

	for (long i = 0; i < NTHREADS; i++)
		CHECK(pthread_create(&t[i], NULL, fn, (void *)i) == 0);
	for (int i = 0; i < NTHREADS; i++)
		CHECK(pthread_join(t[i], NULL) == 0);
}

static int case_clean(void)
{
	pthread_t t;

	run_threads(mutex_worker);
	CHECK(counter >= (long)NTHREADS * NITER);
	run_threads(rwsem_worker);

	sema_init(&sem, 0);
	init_completion(&done);
	CHECK(pthread_create(&t, NULL, handover_worker, NULL) == 0);
	down(&sem);
	CHECK_EQ(handed_sem, 42);
	wait_for_completion(&done);
	CHECK_EQ(handed_done, 43);
	CHECK(pthread_join(t, NULL) == 0);
	return 0;
}

static int case_race(void)
{
	racy = true;
	run_threads(mutex_worker);
	return 0;
}

static struct mutex a, b;

static void *ab(void *arg)
{
	(void)arg;
	mutex_lock(&a);
	mutex_lock(&b);
	mutex_unlock(&b);
	mutex_unlock(&a);
	return NULL;
}

static void *ba(void *arg)
{
	(void)arg;
	mutex_lock(&b);
	mutex_lock(&a);
	mutex_unlock(&a);
	mutex_unlock(&b);
	return NULL;
}

static int case_abba(void)
{
	pthread_t t;

	mutex_init(&a);
	mutex_init(&b);
	/* One after the other: the orders conflict, the threads never do. */
	CHECK(pthread_create(&t, NULL, ab, NULL) == 0);
	CHECK(pthread_join(t, NULL) == 0);
	CHECK(pthread_create(&t, NULL, ba, NULL) == 0);
	CHECK(pthread_join(t, NULL) == 0);
	mutex_destroy(&a);
	mutex_destroy(&b);
	return 0;
}

/* Run this program as @name, collecting stderr into @buf; its status. */
static int run_child(const char *self, const char *name, char *buf,
		     size_t size)
{
	int fd[2], status;
	size_t len = 0;
	ssize_t n;
	pid_t pid;

	CHECK(pipe(fd) == 0);
	pid = fork();
	CHECK(pid >= 0);
	if (pid == 0) {
		dup2(fd[1], 2);
		close(fd[0]);
		close(fd[1]);
		/* Every report, not only the first; TSan's usual exit code. */
		setenv("TSAN_OPTIONS", "halt_on_error=0 exitcode=66 "
		       "detect_deadlocks=1 report_signal_unsafe=0", 1);
		execl(self, self, name, (char *)NULL);
		_exit(127);
	}
	close(fd[1]);
	while (len + 1 < size && (n = read(fd[0], buf + len,
					   size - 1 - len)) > 0)
		len += (size_t)n;
	buf[len] = '\0';
	/* Drain the rest so the child never blocks on a full pipe. */
	while (read(fd[0], &status, sizeof(status)) > 0)
		;
	close(fd[0]);
	CHECK(waitpid(pid, &status, 0) == pid);
	CHECK(WIFEXITED(status));
	return WEXITSTATUS(status);
}

static char out[1 << 16];

int main(int argc, char **argv)
{
	int rc;

	if (argc > 1) {
		if (!strcmp(argv[1], "clean"))
			return case_clean();
		if (!strcmp(argv[1], "race"))
			return case_race();
		if (!strcmp(argv[1], "abba"))
			return case_abba();
		return 2;
	}
#ifndef KMUTEX_TSAN
	SKIP("not built with -fsanitize=thread (make test-tsan runs it)");
#endif
	rc = run_child("/proc/self/exe", "clean", out, sizeof(out));
	if (rc != 0 || strstr(out, "ThreadSanitizer")) {
		fprintf(stderr, "clean: exit %d\n%s", rc, out);
		return 1;
	}
	rc = run_child("/proc/self/exe", "race", out, sizeof(out));
	if (rc != TSAN_EXITCODE || !strstr(out, "data race")) {
		fprintf(stderr, "race: exit %d, no data race report\n%s",
			rc, out);
		return 1;
	}
	rc = run_child("/proc/self/exe", "abba", out, sizeof(out));
	if (rc != TSAN_EXITCODE || !strstr(out, "lock-order-inversion")) {
		fprintf(stderr, "abba: exit %d, no lock-order-inversion\n%s",
			rc, out);
		return 1;
	}
	printf("clean: no report; race: reported; abba: reported\n");
	return 0;
}
