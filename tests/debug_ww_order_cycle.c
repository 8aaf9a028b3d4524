// SPDX-License-Identifier: MIT
/*
 * debug_ww_order_cycle - ww_mutexes are in the order checks, as lockdep
 * has them: a mutex taken inside an acquire context in one place, and
 * an acquire context begun (and a ww_mutex locked) with that mutex held
 * in another, is "possible circular locking dependency detected".
 */
#include <linux/ww_mutex.h>

#include "debug_harness.h"

static DEFINE_WW_CLASS(bufs);
static DEFINE_MUTEX(m);
static struct ww_mutex a;

DEBUG_FN void mutex_inside_ctx(void)
{
	struct ww_acquire_ctx ctx;

	ww_acquire_init(&ctx, &bufs);
	mutex_lock(&m);
	mutex_unlock(&m);
	CHECK_EQ(ww_mutex_lock(&a, &ctx), 0);
	ww_mutex_unlock(&a);
	ww_acquire_fini(&ctx);
}

DEBUG_FN void ctx_inside_mutex(void)
{
	struct ww_acquire_ctx ctx;

	mutex_lock(&m);
	ww_acquire_init(&ctx, &bufs);	/* the bug */
	CHECK_EQ(ww_mutex_lock(&a, &ctx), 0);
	ww_mutex_unlock(&a);
	ww_acquire_fini(&ctx);
	mutex_unlock(&m);
}

static void bug(void)
{
	ww_mutex_init(&a, &bufs);
	mutex_inside_ctx();
	ctx_inside_mutex();
	ctx_inside_mutex();		/* reported once */
}

DEBUG_EXPECT_REPORT(bug,
		    "WARNING: possible circular locking dependency detected",
		    "\"m\"", "bufs_acquire", "mutex_inside_ctx+",
		    "ctx_inside_mutex+")
