// SPDX-License-Identifier: MIT
/*
 * debug_ww_inject_ignored - with KMUTEX_DEBUG_WW_INJECT=1 a fake
 * -EDEADLK is checked as a real one: a caller that ignores it and locks
 * on, still holding its locks, is reported ("DEBUG_LOCKS_WARN_ON(
 * ctx->contending_lock)"), with no other thread involved at all.
 */
#include <linux/ww_mutex.h>

#include <stdlib.h>

#include "debug_harness.h"

static DEFINE_WW_CLASS(rows);
static struct ww_mutex a, b, c;

DEBUG_FN void ignore_fake_deadlk(void)
{
	struct ww_acquire_ctx ctx;

	ww_acquire_init(&ctx, &rows);
	CHECK_EQ(ww_mutex_lock(&a, &ctx), 0);
	/* KMUTEX_DEBUG_WW_INJECT=1: the second lock of a context dies. */
	CHECK_EQ(ww_mutex_lock(&b, &ctx), -EDEADLK);
	CHECK(!ww_mutex_is_locked(&b));		/* as a real one: not held */
	CHECK_EQ(ww_mutex_lock(&c, &ctx), 0);	/* the bug: a still held */
	ww_mutex_unlock(&c);
	ww_mutex_unlock(&a);
	ww_acquire_fini(&ctx);
}

static void bug(void)
{
	setenv("KMUTEX_DEBUG_WW_INJECT", "1", 1);
	ww_mutex_init(&a, &rows);
	ww_mutex_init(&b, &rows);
	ww_mutex_init(&c, &rows);
	ignore_fake_deadlk();
	ignore_fake_deadlk();		/* reported once */
}

DEBUG_EXPECT_REPORT(bug, "WARNING: DEBUG_LOCKS_WARN_ON(ctx->contending_lock)",
		    "-EDEADLK ignored", "ignore_fake_deadlk+")
