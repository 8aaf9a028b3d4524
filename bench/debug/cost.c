// SPDX-License-Identifier: MIT
/*
 * cost.c - what the debugging build costs: uncontended lock+unlock, one
 * thread, on a chain the checker has already seen (the common case: a
 * chain-cache lookup, no graph search).  Built twice by `make
 * bench-debug`, against libkmutex.a and against libkmutex-debug.a; not a
 * test (tests never assert on time).
 *
 * Prints "<build> <case> <ns per lock+unlock>" for:
 *   single   one mutex, nothing else held;
 *   nested   a second mutex taken while a first is held (the inner
 *            lock+unlock is timed; its chain is in the cache);
 *   deep     the same with four locks already held;
 *   rwsem_read, rwsem_write
 *            down_read+up_read, down_write+up_write of one rw_semaphore
 *            (nothing else held).
 * Each is the best of several runs, to keep scheduler noise out.
 * An argument sets the loop count (default 2000000), e.g. to run the
 * production build under valgrind --tool=helgrind for comparison.
 */
#include <linux/mutex.h>
#include <linux/rwsem.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define RUNS	7

static long loops = 2000000;

#ifdef KMUTEX_DEBUG
#define BUILD	"debug"
#else
#define BUILD	"production"
#endif

static DEFINE_MUTEX(a);
static DEFINE_MUTEX(b);
static DEFINE_MUTEX(c);
static DEFINE_MUTEX(d);
static DEFINE_MUTEX(e);
static DECLARE_RWSEM(rw);

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static double time_inner(struct mutex *m)
{
	double best = 1e30;
	long i;
	int r;

	for (r = 0; r < RUNS; r++) {
		double t0 = now(), t;

		for (i = 0; i < loops; i++) {
			mutex_lock(m);
			__asm__ __volatile__("" ::: "memory");
			mutex_unlock(m);
		}
		t = (now() - t0) / loops;
		if (t < best)
			best = t;
	}
	return best;
}

static void read_loop(void)
{
	long i;

	for (i = 0; i < loops; i++) {
		down_read(&rw);
		__asm__ __volatile__("" ::: "memory");
		up_read(&rw);
	}
}

static void write_loop(void)
{
	long i;

	for (i = 0; i < loops; i++) {
		down_write(&rw);
		__asm__ __volatile__("" ::: "memory");
		up_write(&rw);
	}
}

/* The best of RUNS timings of @loop, per iteration. */
static double time_loop(void (*loop)(void))
{
	double best = 1e30;
	int r;

	for (r = 0; r < RUNS; r++) {
		double t0 = now(), t;

		loop();
		t = (now() - t0) / loops;
		if (t < best)
			best = t;
	}
	return best;
}

int main(int argc, char **argv)
{
	if (argc > 1)
		loops = atol(argv[1]);
	printf("%s single %.1f\n", BUILD, time_inner(&a));
	mutex_lock(&a);
	printf("%s nested %.1f\n", BUILD, time_inner(&b));
	mutex_lock(&b);
	mutex_lock(&c);
	mutex_lock(&d);
	printf("%s deep %.1f\n", BUILD, time_inner(&e));
	mutex_unlock(&d);
	mutex_unlock(&c);
	mutex_unlock(&b);
	mutex_unlock(&a);
	printf("%s rwsem_read %.1f\n", BUILD, time_loop(read_loop));
	printf("%s rwsem_write %.1f\n", BUILD, time_loop(write_loop));
	return 0;
}
