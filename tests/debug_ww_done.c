// SPDX-License-Identifier: MIT
/*
 * debug_ww_done - a ww_mutex locked in a context after
 * ww_acquire_done(): "DEBUG_LOCKS_WARN_ON(ctx->done_acquire)".
 */
#include <linux/ww_mutex.h>

#include "debug_harness.h"

static DEFINE_WW_CLASS(bufs);

DEBUG_FN void lock_after_done(void)
{
	struct ww_mutex a, b;
	struct ww_acquire_ctx ctx;

	ww_mutex_init(&a, &bufs);
	ww_mutex_init(&b, &bufs);
	ww_acquire_init(&ctx, &bufs);
	CHECK_EQ(ww_mutex_lock(&a, &ctx), 0);
	ww_acquire_done(&ctx);
	CHECK_EQ(ww_mutex_lock(&b, &ctx), 0);	/* the bug; it still works */
	ww_mutex_unlock(&b);
	ww_mutex_unlock(&a);
	ww_acquire_fini(&ctx);
}

static void bug(void)
{
	lock_after_done();
	lock_after_done();		/* reported once */
}

DEBUG_EXPECT_REPORT(bug, "WARNING: DEBUG_LOCKS_WARN_ON(ctx->done_acquire)",
		    "ww_mutex_lock", "after ww_acquire_done()",
		    "lock_after_done+")
