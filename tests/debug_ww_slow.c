// SPDX-License-Identifier: MIT
/*
 * debug_ww_slow - ww_mutex_lock_slow() while the context still holds
 * ww_mutexes (it must release them all first, or it may deadlock):
 * "DEBUG_LOCKS_WARN_ON(ctx->acquired > 0)".
 */
#include <linux/ww_mutex.h>

#include "debug_harness.h"

static DEFINE_WW_CLASS(bufs);

DEBUG_FN void slow_while_holding(void)
{
	struct ww_mutex a, b;
	struct ww_acquire_ctx ctx;

	ww_mutex_init(&a, &bufs);
	ww_mutex_init(&b, &bufs);
	ww_acquire_init(&ctx, &bufs);
	CHECK_EQ(ww_mutex_lock(&a, &ctx), 0);
	ww_mutex_lock_slow(&b, &ctx);		/* the bug: a is held */
	ww_mutex_unlock(&b);
	ww_mutex_unlock(&a);
	ww_acquire_fini(&ctx);
}

static void bug(void)
{
	slow_while_holding();
	slow_while_holding();		/* reported once */
}

DEBUG_EXPECT_REPORT(bug, "WARNING: DEBUG_LOCKS_WARN_ON(ctx->acquired > 0)",
		    "ww_mutex_lock_slow", "still held", "slow_while_holding+")
