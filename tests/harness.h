/* SPDX-License-Identifier: MIT */
/*
 * harness.h - what every kmutex test uses: checks that fail loudly, a
 * watchdog that turns a hang (a lost wake-up, a deadlock) into a
 * failure, thread helpers and a time scale.
 *
 * A test is a program: exit 0 = pass, 1 = fail, 77 = skipped (with the
 * reason on stdout).  tests/run runs them all.
 */
#ifndef _KMUTEX_TESTS_HARNESS_H
#define _KMUTEX_TESTS_HARNESS_H

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <kmutex/list.h>

#define CHECK(cond)							\
	do {								\
		if (!(cond)) {						\
			fprintf(stderr, "FAIL %s:%d: %s\n", __FILE__,	\
				__LINE__, #cond);			\
			exit(1);					\
		}							\
	} while (0)

#define CHECK_EQ(a, b)							\
	do {								\
		long long __a = (long long)(a), __b = (long long)(b);	\
		if (__a != __b) {					\
			fprintf(stderr, "FAIL %s:%d: %s == %s: "	\
				"%lld != %lld\n", __FILE__, __LINE__,	\
				#a, #b, __a, __b);			\
			exit(1);					\
		}							\
	} while (0)

#define SKIP(...)							\
	do {								\
		printf("SKIP: " __VA_ARGS__);				\
		printf("\n");						\
		exit(77);						\
	} while (0)

static inline uint64_t test_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static inline void test_sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/*
 * Stress durations are multiplied by KMUTEX_TEST_SCALE (a float, default
 * 1) so the same test runs short in a sanitizer and long when hunting.
 */
static inline double test_scale(void)
{
	const char *s = getenv("KMUTEX_TEST_SCALE");

	return s ? atof(s) : 1.0;
}

static inline uint64_t test_duration_ns(double seconds)
{
	return (uint64_t)(seconds * test_scale() * 1e9);
}

static int __test_watchdog_ready;

static void *__test_watchdog_fn(void *arg)
{
	unsigned int seconds = (unsigned int)(uintptr_t)arg;

	__atomic_store_n(&__test_watchdog_ready, 1, __ATOMIC_RELEASE);
	sleep(seconds);
	fprintf(stderr, "FAIL: watchdog: still running after %u s "
		"(a hang: deadlock or lost wake-up)\n", seconds);
	_exit(1);
	return NULL;
}

/*
 * Fail the test if it is still running after @seconds (scaled).
 *
 * Returns once the watchdog thread is running: a test that fork()s
 * must not do so while the new thread is still starting, because
 * ASan's allocator (gcc 12) does not take its locks around fork(), and
 * a child forked while the starting thread held one deadlocks on its
 * first malloc -- seen in CI as an orphaned mutex_misuse child.
 */
static inline void test_watchdog(unsigned int seconds)
{
	pthread_t t;
	double s = seconds * (test_scale() > 1 ? test_scale() : 1);

	pthread_create(&t, NULL, __test_watchdog_fn,
		       (void *)(uintptr_t)(unsigned int)s);
	pthread_detach(t);
	while (!__atomic_load_n(&__test_watchdog_ready, __ATOMIC_ACQUIRE))
		sched_yield();
}

/*
 * In a child: run this test's own program again, as @argv0 with the one
 * argument @arg; returns only if that failed.  The path is what
 * readlink(2) of /proc/self/exe names: under Valgrind that is the test,
 * not the tool (with --trace-children=yes the child runs under the tool
 * too), where exec of "/proc/self/exe" itself would start the tool's
 * own binary.  Under qemu-user (make test-aarch64 ...: KMUTEX_ARCH),
 * execve() goes to the host kernel, which without binfmt_misc cannot
 * run a foreign binary: the child runs under the emulator the test runs
 * under (KMUTEX_TEST_WRAPPER, a host program; -0 sets argv[0]).
 */
static inline void test_exec_self(const char *argv0, const char *arg)
{
	const char *emu = getenv("KMUTEX_TEST_WRAPPER");
	char self[4096];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

	if (n <= 0)
		return;
	self[n] = 0;
	if (getenv("KMUTEX_ARCH") && emu && *emu)
		execlp(emu, emu, "-0", argv0, self, arg, (char *)NULL);
	else
		execl(self, argv0, arg, (char *)NULL);
}

struct __test_gated {
	void *(*fn)(void *);
	void *arg;
	pthread_barrier_t *gate;
};

static void *__test_gated_fn(void *p)
{
	struct __test_gated *g = p;

	pthread_barrier_wait(g->gate);
	return g->fn(g->arg);
}

/*
 * Start @n threads running fn(arg + i * size) and wait for them all.
 * They start together, once all exist: under TSan on one loaded CPU,
 * creating 16 threads took 100-150 ms, and a test that counts each
 * thread's turns in a window saw the last ones start near its end.
 */
static inline void test_run_threads(int n, void *(*fn)(void *), void *arg,
				    size_t size)
{
	struct __test_gated g[n];
	pthread_barrier_t gate;
	pthread_t t[n];
	int i;

	CHECK(pthread_barrier_init(&gate, NULL, (unsigned int)n + 1) == 0);
	for (i = 0; i < n; i++) {
		g[i] = (struct __test_gated){ fn, (char *)arg + i * size,
					      &gate };
		CHECK(pthread_create(&t[i], NULL, __test_gated_fn,
				     &g[i]) == 0);
	}
	pthread_barrier_wait(&gate);
	for (i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	pthread_barrier_destroy(&gate);
}

/*
 * Poll @cond, yielding the CPU, until it holds or @ms milliseconds have
 * passed; true if it held.  For "the other thread has got as far as X",
 * where X shows only in shared state.
 */
#define POLL_UNTIL(cond, ms)						\
	({								\
		uint64_t __end = test_now_ns() +			\
				 (uint64_t)(ms) * 1000000u;		\
		bool __ok;						\
		while (!(__ok = (cond)) && test_now_ns() < __end)	\
			sched_yield();					\
		__ok;							\
	})

/*
 * POLL_UNTIL or fail, naming what was awaited.  Bounds are generous:
 * they only turn a hang into a failure that says what did not happen.
 */
#define WAIT_UNTIL(cond, ms)						\
	do {								\
		if (!POLL_UNTIL(cond, ms)) {				\
			fprintf(stderr, "FAIL %s:%d: still not %s "	\
				"after %d ms\n", __FILE__, __LINE__,	\
				#cond, (int)(ms));			\
			exit(1);					\
		}							\
	} while (0)

#include <kmutex/tsan.h>
#ifdef KMUTEX_TSAN
/*
 * The waiters write their list nodes with plain stores, under the wait
 * lock that test_waiters()' peek at a list head does not take: under
 * TSan, ignore the peek's reads (the race is the test's, by design, not
 * kmutex's; seen reported once in stat_wait).  fam_queued() takes the
 * lock, but the mutex and rwsem slow paths run inside TSan's mutex
 * annotations, which hide their synchronisation: it ignores its reads
 * too.
 */
void AnnotateIgnoreReadsBegin(const char *file, int line);
void AnnotateIgnoreReadsEnd(const char *file, int line);
#define TEST_IGNORE_READS_BEGIN() AnnotateIgnoreReadsBegin(__FILE__, __LINE__)
#define TEST_IGNORE_READS_END()	  AnnotateIgnoreReadsEnd(__FILE__, __LINE__)
#else
#define TEST_IGNORE_READS_BEGIN() do { } while (0)
#define TEST_IGNORE_READS_END()	  do { } while (0)
#endif

/*
 * How many threads are queued on a kmutex wait list: 0, 1, or 2 meaning
 * "two or more".  A racy peek at the list head (the nodes are owned by
 * the waiters), good for polling only: "2" is never reported while the
 * first waiter is being added or the last removed, since then one of the
 * head's pointers still points at the head.
 */
static inline int test_waiters(struct kmutex_list *head)
{
	struct kmutex_list *next, *prev;

	TEST_IGNORE_READS_BEGIN();
	next = __atomic_load_n(&head->next, __ATOMIC_ACQUIRE);
	prev = __atomic_load_n(&head->prev, __ATOMIC_ACQUIRE);
	TEST_IGNORE_READS_END();

	if (next == head && prev == head)
		return 0;
	if (next == head || prev == head || next == prev)
		return 1;
	return 2;
}

static inline pid_t test_gettid(void)
{
	return (pid_t)syscall(SYS_gettid);
}

/*
 * The scheduler state letter of thread @tid of this process ('R'
 * running, 'S' sleeping, ...) from /proc, or 0 if it cannot be read.
 */
static inline char test_thread_state(pid_t tid)
{
	char path[64], buf[512], *p;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", (int)tid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	p = strrchr(buf, ')');	/* the name in (...) may hold spaces */
	return p && p[1] == ' ' ? p[2] : 0;
}

/* Voluntary context switches (sleeps) of the calling thread so far. */
static inline long test_thread_sleeps(void)
{
	struct rusage ru;
	const char *san = getenv("KMUTEX_SANITIZER");

	/*
	 * Under Valgrind (make test-memcheck) its scheduler hands its big
	 * lock between threads through futex waits, which count as every
	 * thread's voluntary switches: the count says nothing of the lock
	 * under test there, so it stays 0 (the plain passes check it).
	 */
	if (san && !strcmp(san, "memcheck"))
		return 0;
	CHECK(getrusage(RUSAGE_THREAD, &ru) == 0);
	return ru.ru_nvcsw;
}

/*
 * Install @fn for @sig with @flags (0 or SA_RESTART).  The handlers the
 * tests use only count, so that "the handler ran" can be checked.
 */
static inline void test_handle_signal(int sig, void (*fn)(int), int flags)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = fn;
	sa.sa_flags = flags;
	sigemptyset(&sa.sa_mask);
	CHECK(sigaction(sig, &sa, NULL) == 0);
}

#endif /* _KMUTEX_TESTS_HARNESS_H */
