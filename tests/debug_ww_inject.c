// SPDX-License-Identifier: MIT
/*
 * debug_ww_inject - KMUTEX_DEBUG_WW_INJECT=1: the debugging build fakes
 * -EDEADLKs (as the kernel's CONFIG_DEBUG_WW_MUTEX_SLOWPATH), and a
 * correct backoff loop still completes every transaction without a
 * report.  Alone, where no real conflict can happen, every transaction
 * of 4 locks gets exactly one fake -EDEADLK (at its second lock; the
 * interval then grows past the rest); with 4 threads on random sets of
 * 4 of 8 locks, in both classes, every transaction completes and holds
 * its whole set.
 */
#include <linux/ww_mutex.h>

#include <stdlib.h>

#include "debug_harness.h"

#define NLOCKS		8
#define K		4
#define NTHREADS	4
#define ROUNDS		1000

static DEFINE_WW_CLASS(ww_class);
static DEFINE_WD_CLASS(wd_class);
static struct ww_mutex locks[NLOCKS];
static struct ww_class *cls;
static unsigned long deadlks, done;
static int owner[NLOCKS];		/* who holds it: exclusion check */

static void pick(unsigned int *seed, int *set)
{
	int all[NLOCKS], i;

	for (i = 0; i < NLOCKS; i++)
		all[i] = i;
	for (i = 0; i < K; i++) {	/* a partial shuffle: K of NLOCKS */
		int j = i + (int)(rand_r(seed) % (NLOCKS - i)), t = all[i];

		all[i] = all[j];
		all[j] = t;
		set[i] = all[i];
	}
}

/* The backoff loop of ww_mutex_lock(3), on locks[set[0..K-1]]. */
static void transaction(unsigned int *seed, int me)
{
	struct ww_acquire_ctx ctx;
	int set[K], i, j, ret;
	bool held[K] = { false };

	pick(seed, set);
	ww_acquire_init(&ctx, cls);
retry:
	for (i = 0; i < K; i++) {
		if (held[i])
			continue;	/* the one ww_mutex_lock_slow() took */
		ret = ww_mutex_lock(&locks[set[i]], &ctx);
		if (ret == 0) {
			held[i] = true;
			continue;
		}
		CHECK_EQ(ret, -EDEADLK);
		__atomic_add_fetch(&deadlks, 1, __ATOMIC_RELAXED);
		for (j = 0; j < K; j++) {
			if (held[j])
				ww_mutex_unlock(&locks[set[j]]);
			held[j] = false;
		}
		ww_mutex_lock_slow(&locks[set[i]], &ctx);
		held[i] = true;
		goto retry;
	}
	ww_acquire_done(&ctx);
	for (i = 0; i < K; i++) {
		CHECK(locks[set[i]].ctx == &ctx);
		CHECK_EQ(__atomic_exchange_n(&owner[set[i]], me,
					     __ATOMIC_RELAXED), 0);
	}
	for (i = 0; i < K; i++) {
		__atomic_store_n(&owner[set[i]], 0, __ATOMIC_RELAXED);
		ww_mutex_unlock(&locks[set[i]]);
	}
	ww_acquire_fini(&ctx);
	__atomic_add_fetch(&done, 1, __ATOMIC_RELAXED);
}

static void *worker(void *arg)
{
	int me = (int)(intptr_t)arg + 1, n;
	unsigned int seed = (unsigned int)me * 2654435761u;

	for (n = 0; n < ROUNDS; n++)
		transaction(&seed, me);
	return NULL;
}

static void good(void)
{
	struct ww_class *classes[] = { &wd_class, &ww_class };
	int c, i;

	/* Before the first context: the setting is read once. */
	setenv("KMUTEX_DEBUG_WW_INJECT", "1", 1);
	for (c = 0; c < 2; c++) {
		cls = classes[c];
		for (i = 0; i < NLOCKS; i++)
			ww_mutex_init(&locks[i], cls);
		deadlks = done = 0;
		worker((void *)(intptr_t)0);
		CHECK_EQ(done, ROUNDS);
		CHECK_EQ(deadlks, ROUNDS);	/* all fake, one each */
		deadlks = done = 0;
		test_run_threads(NTHREADS, worker, NULL, 1);
		CHECK_EQ(done, NTHREADS * ROUNDS);
		CHECK(deadlks >= NTHREADS * ROUNDS);
		for (i = 0; i < NLOCKS; i++)
			ww_mutex_destroy(&locks[i]);
	}
}

DEBUG_EXPECT_CLEAN(good)
