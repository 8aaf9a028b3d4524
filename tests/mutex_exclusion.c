// SPDX-License-Identifier: MIT
/*
 * mutex_exclusion.c - mutual exclusion under oversubscribed stress.
 *
 * 12 threads on (typically) 2 CPUs lock and unlock one mutex for a few
 * seconds.  Inside, each checks that it is alone (an owner counter that
 * must go 0 -> 1 -> 0) and does a non-atomic read-modify-write of a
 * shared counter with a yield in the middle now and then, so that a
 * second owner would lose updates.  Catches the busted build 1.
 */
#include <linux/mutex.h>
#include <sched.h>

#include "harness.h"

#define THREADS 12

static DEFINE_MUTEX(lock);
static volatile long counter;
static int inside;
static uint64_t end_ns;

struct worker {
	long ops;
	int overlap;
};

static void *worker(void *arg)
{
	struct worker *w = arg;

	/*
	 * One acquisition at least, whatever the clock says: the window
	 * opens before the threads are created, and on one loaded CPU
	 * (TSan, qemu, Valgrind) a thread can first run after it closed.
	 */
	while (test_now_ns() < end_ns || !w->ops) {
		mutex_lock(&lock);
		if (__atomic_fetch_add(&inside, 1, __ATOMIC_RELAXED) != 0)
			w->overlap++;
		long c = counter;
		if ((w->ops & 63) == 0)
			sched_yield();
		counter = c + 1;
		__atomic_fetch_sub(&inside, 1, __ATOMIC_RELAXED);
		mutex_unlock(&lock);
		w->ops++;
	}
	return NULL;
}

int main(void)
{
	struct worker w[THREADS] = { 0 };
	long total = 0;
	int overlap = 0, i;

	test_watchdog(60);
	end_ns = test_now_ns() + test_duration_ns(3);
	test_run_threads(THREADS, worker, w, sizeof(w[0]));
	for (i = 0; i < THREADS; i++) {
		total += w[i].ops;
		overlap += w[i].overlap;
		CHECK(w[i].ops > 0);
	}
	printf("%ld acquisitions by %d threads, %d overlaps\n", total,
	       THREADS, overlap);
	CHECK_EQ(overlap, 0);
	CHECK_EQ(counter, total);
	CHECK_EQ(lock.count, 1);
	return 0;
}
