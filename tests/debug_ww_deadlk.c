// SPDX-License-Identifier: MIT
/*
 * debug_ww_deadlk - -EDEADLK ignored: a context told to back off locks
 * on while it still holds its locks ("DEBUG_LOCKS_WARN_ON(
 * ctx->contending_lock)"), and ww_mutex_lock_slow() with locks held
 * ("DEBUG_LOCKS_WARN_ON(ctx->acquired > 0)") is the same bug reported
 * under its own name (tests/debug_ww_slow.c).
 */
#include <linux/ww_mutex.h>

#include "debug_harness.h"

static DEFINE_WD_CLASS(rows);
static struct ww_mutex a, b, c;
static int stage;

/* The older context: holds a until the younger one is done. */
static void *older(void *arg)
{
	struct ww_acquire_ctx ctx;

	(void)arg;
	ww_acquire_init(&ctx, &rows);
	CHECK_EQ(ww_mutex_lock(&a, &ctx), 0);
	__atomic_store_n(&stage, 1, __ATOMIC_RELEASE);
	WAIT_UNTIL(__atomic_load_n(&stage, __ATOMIC_ACQUIRE) == 2, 10000);
	ww_mutex_unlock(&a);
	ww_acquire_fini(&ctx);
	return NULL;
}

DEBUG_FN void ignore_deadlk(void)
{
	struct ww_acquire_ctx ctx;
	pthread_t t;

	stage = 0;
	CHECK(pthread_create(&t, NULL, older, NULL) == 0);
	WAIT_UNTIL(__atomic_load_n(&stage, __ATOMIC_ACQUIRE) == 1, 10000);
	ww_acquire_init(&ctx, &rows);		/* younger */
	CHECK_EQ(ww_mutex_lock(&b, &ctx), 0);
	CHECK_EQ(ww_mutex_lock(&a, &ctx), -EDEADLK);	/* wait-die: dies */
	CHECK_EQ(ww_mutex_lock(&c, &ctx), 0);	/* the bug: b still held */
	ww_mutex_unlock(&c);
	ww_mutex_unlock(&b);
	__atomic_store_n(&stage, 2, __ATOMIC_RELEASE);
	pthread_join(t, NULL);
	ww_acquire_fini(&ctx);
}

static void bug(void)
{
	ww_mutex_init(&a, &rows);
	ww_mutex_init(&b, &rows);
	ww_mutex_init(&c, &rows);
	ignore_deadlk();
	ignore_deadlk();		/* reported once */
}

DEBUG_EXPECT_REPORT(bug, "WARNING: DEBUG_LOCKS_WARN_ON(ctx->contending_lock)",
		    "-EDEADLK ignored", "ignore_deadlk+")
