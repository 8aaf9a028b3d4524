// SPDX-License-Identifier: MIT
/*
 * debug_ww_clean - correct ww_mutex programs produce no report: four
 * threads lock overlapping sets of ww_mutexes in clashing orders with
 * the backoff loop, in both classes; a NULL context; trylock; AA.
 */
#include <linux/ww_mutex.h>

#include "debug_harness.h"

#define NLOCKS		4
#define NTHREADS	4

static DEFINE_WW_CLASS(ww_class);
static DEFINE_WD_CLASS(wd_class);
static struct ww_mutex locks[NLOCKS];
static struct ww_class *cls;

static void transaction(int first)
{
	struct ww_acquire_ctx ctx;
	int order[3], held = 0, i, ret, slow = -1;

	for (i = 0; i < 3; i++)
		order[i] = (first + (first & 1 ? -i : i) + NLOCKS) % NLOCKS;
	ww_acquire_init(&ctx, cls);
retry:
	for (i = 0; i < 3; i++) {
		if (order[i] == slow)
			continue;
		ret = ww_mutex_lock(&locks[order[i]], &ctx);
		if (ret == -EDEADLK) {
			int j;

			for (j = 0; j < 3; j++)
				if (locks[order[j]].ctx == &ctx)
					ww_mutex_unlock(&locks[order[j]]);
			held = 0;
			slow = order[i];
			ww_mutex_lock_slow(&locks[slow], &ctx);
			held = 1;
			goto retry;
		}
		CHECK_EQ(ret, 0);
		held++;
	}
	CHECK_EQ(held, 3);
	CHECK_EQ(ww_mutex_lock(&locks[order[0]], &ctx), -EALREADY);
	ww_acquire_done(&ctx);
	for (i = 0; i < 3; i++)
		ww_mutex_unlock(&locks[order[i]]);
	ww_acquire_fini(&ctx);
}

static void *worker(void *arg)
{
	int me = (int)(intptr_t)arg, n;

	for (n = 0; n < 2000; n++)
		transaction(me + n);
	return NULL;
}

static void good(void)
{
	struct ww_class *classes[] = { &wd_class, &ww_class };
	int c, i;

	for (c = 0; c < 2; c++) {
		cls = classes[c];
		for (i = 0; i < NLOCKS; i++)
			ww_mutex_init(&locks[i], cls);
		test_run_threads(NTHREADS, worker, NULL, 1);
		CHECK_EQ(ww_mutex_lock(&locks[0], NULL), 0);
		CHECK_EQ(ww_mutex_trylock(&locks[1], NULL), 1);
		ww_mutex_unlock(&locks[1]);
		ww_mutex_unlock(&locks[0]);
		for (i = 0; i < NLOCKS; i++)
			ww_mutex_destroy(&locks[i]);
	}
}

DEBUG_EXPECT_CLEAN(good)
