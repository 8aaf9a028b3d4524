// SPDX-License-Identifier: MIT
/*
 * debug_ww_class - a ww_mutex of one class locked in a context of
 * another: "DEBUG_LOCKS_WARN_ON(ww_ctx->ww_class != ww->ww_class)".
 */
#include <linux/ww_mutex.h>

#include "debug_harness.h"

static DEFINE_WW_CLASS(bufs);
static DEFINE_WD_CLASS(rows);

DEBUG_FN void mixed(void)
{
	struct ww_mutex a;
	struct ww_acquire_ctx ctx;

	ww_mutex_init(&a, &rows);
	ww_acquire_init(&ctx, &bufs);
	CHECK_EQ(ww_mutex_lock(&a, &ctx), 0);	/* the bug */
	ww_mutex_unlock(&a);
	ww_acquire_fini(&ctx);
}

static void bug(void)
{
	mixed();
	mixed();			/* reported once */
}

DEBUG_EXPECT_REPORT(bug, "WARNING: DEBUG_LOCKS_WARN_ON(ww_ctx->ww_class != "
		    "ww->ww_class)", "mixed classes", "mixed+")
