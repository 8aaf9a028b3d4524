// SPDX-License-Identifier: MIT
/*
 * debug_ww_fini_held - ww_acquire_fini() with a ww_mutex still held in
 * the context: "DEBUG_LOCKS_WARN_ON(ctx->acquired)".
 */
#include <linux/ww_mutex.h>

#include "debug_harness.h"

static DEFINE_WD_CLASS(rows);

DEBUG_FN void fini_held(void)
{
	struct ww_mutex a;
	struct ww_acquire_ctx ctx;

	ww_mutex_init(&a, &rows);
	ww_acquire_init(&ctx, &rows);
	CHECK_EQ(ww_mutex_lock(&a, &ctx), 0);
	ww_acquire_fini(&ctx);		/* the bug */
	ww_mutex_unlock(&a);
}

static void bug(void)
{
	fini_held();
	fini_held();			/* reported once */
}

DEBUG_EXPECT_REPORT(bug, "WARNING: DEBUG_LOCKS_WARN_ON(ctx->acquired)",
		    "ww_acquire_fini", "1 ww_mutexes still held",
		    "fini_held+")
