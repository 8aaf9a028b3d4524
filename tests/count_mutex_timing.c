// SPDX-License-Identifier: MIT
/*
 * count_mutex_timing.c - the mutex policy times the cycles it should.
 *
 * Against the library built with the policy fixed to "move" and counting
 * (make's count variant, src/policy_count.h).  A thread's slow-path
 * acquisitions that end in mutex_took() are all timed until its first
 * look at the W/C average; from then on (the look says "move") exactly
 * one in MUTEX_TIME_EVERY is, the first of them at once.  Getting it
 * wrong changes no lock's behaviour, only its speed: session 15's first
 * version timed every cycle, since the read that ended a timed cycle
 * also started the next; this test fails on that (timed == took) and on
 * a policy that never times (no samples, no looks).
 *
 * Not covered: the return to timing every cycle (a look above the keep
 * line, or mutex_keeping()), which the forced "move" never takes.
 *
 * Six threads on two or more CPUs take one mutex with a short critical
 * section; each checks its own counts, and the shared counter checks
 * the exclusion meanwhile.  On one CPU a cycle spans time slices, longer
 * than the policy's bound, and few are sampled: skipped.
 */
#include <pthread.h>
#include <sched.h>
#include <linux/mutex.h>

#include "../src/policy_count.h"
#include "harness.h"

#define THREADS		6
/* Enough sparse acquisitions to tell 1 in 8 from every one. */
#define WANT_SPARSE	2000

static DEFINE_MUTEX(lock);
static unsigned long shared;	/* under lock */
static unsigned long sparse_total;	/* atomic */
static uint64_t end_ns;

struct worker {
	unsigned long ops;
	struct kmutex_policy_count count;
};

static void *worker_fn(void *arg)
{
	struct worker *w = arg;
	volatile unsigned int spin;

	while (test_now_ns() < end_ns &&
	       __atomic_load_n(&sparse_total, __ATOMIC_RELAXED) <
	       WANT_SPARSE * THREADS) {
		unsigned long before = kmutex_policy_count.took[1];

		mutex_lock(&lock);
		shared++;
		for (spin = 0; spin < 20; spin++)
			;
		mutex_unlock(&lock);
		w->ops++;
		__atomic_fetch_add(&sparse_total,
				   kmutex_policy_count.took[1] - before,
				   __ATOMIC_RELAXED);
		for (spin = 0; spin < 20; spin++)
			;
	}
	w->count = kmutex_policy_count;
	return NULL;
}

/* One thread's counts: 1 in @every timed once sparse, all before. */
static bool check_thread(int i, const struct kmutex_policy_count *c)
{
	unsigned long took = c->took[1], timed = c->timed[1];
	bool ok = true;

	printf("thread %d: dense %lu of %lu timed, sparse %lu of %lu timed,"
	       " %lu samples, %lu looks\n", i, c->timed[0], c->took[0],
	       timed, took, c->samples, c->looks);
	if (c->timed[0] != c->took[0]) {
		fprintf(stderr, "thread %d: before its first look, %lu of %lu"
			" slow-path acquisitions timed: want all\n", i,
			c->timed[0], c->took[0]);
		ok = false;
	}
	/* The first sparse one is timed: ceil(took / every), +-1. */
	if (took && (timed * c->every + c->every < took ||
		     timed * c->every > took + 2 * c->every)) {
		fprintf(stderr, "thread %d: moving, %lu of %lu timed: want 1"
			" in %u\n", i, timed, took, c->every);
		ok = false;
	}
	/*
	 * Not samples <= timed: a slow path that samples and then takes
	 * the lock without mutex_took() leaves the stamp for the next.
	 */
	if (c->samples && c->looks != c->samples / c->per_look) {
		fprintf(stderr, "thread %d: %lu samples, %lu looks: want one"
			" in %u\n", i, c->samples, c->looks, c->per_look);
		ok = false;
	}
	return ok;
}

int main(void)
{
	struct worker w[THREADS] = { 0 };
	pthread_t t[THREADS];
	unsigned long ops = 0, sparse = 0, looks = 0;
	bool ok = true;
	cpu_set_t cpus;
	int i;

	CHECK(sched_getaffinity(0, sizeof(cpus), &cpus) == 0);
	if (CPU_COUNT(&cpus) < 2)
		SKIP("one CPU: a slow-path cycle spans time slices, and the"
		     " policy drops those");
	test_watchdog(120);
	end_ns = test_now_ns() + test_duration_ns(10);
	for (i = 0; i < THREADS; i++)
		CHECK(pthread_create(&t[i], NULL, worker_fn, &w[i]) == 0);
	for (i = 0; i < THREADS; i++) {
		CHECK(pthread_join(t[i], NULL) == 0);
		ok &= check_thread(i, &w[i].count);
		ops += w[i].ops;
		sparse += w[i].count.took[1];
		looks += w[i].count.looks;
	}
	CHECK_EQ(shared, ops);
	/* A policy that never times never looks, and never goes sparse. */
	if (!looks || sparse < WANT_SPARSE) {
		fprintf(stderr, "%lu looks, %lu sparse acquisitions in %lu"
			" operations: the policy did not run\n", looks, sparse,
			ops);
		ok = false;
	}
	if (!ok)
		return 1;
	printf("ok: %lu operations, %lu looks, %lu sparse acquisitions\n",
	       ops, looks, sparse);
	return 0;
}
