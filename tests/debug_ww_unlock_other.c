// SPDX-License-Identifier: MIT
/*
 * debug_ww_unlock_other - a ww_mutex held in one thread's context,
 * unlocked by another thread: "DEBUG_LOCKS_WARN_ON(lock->ctx->task !=
 * current)".  The unlock still happens.
 */
#include <linux/ww_mutex.h>

#include "debug_harness.h"

static DEFINE_WW_CLASS(bufs);
static struct ww_mutex a;

DEBUG_FN void *unlock_other(void *arg)
{
	(void)arg;
	ww_mutex_unlock(&a);		/* the bug: held by main's context */
	return NULL;
}

static void bug(void)
{
	struct ww_acquire_ctx ctx;
	int i;

	ww_mutex_init(&a, &bufs);
	for (i = 0; i < 2; i++) {	/* reported once */
		pthread_t t;

		ww_acquire_init(&ctx, &bufs);
		CHECK_EQ(ww_mutex_lock(&a, &ctx), 0);
		CHECK(pthread_create(&t, NULL, unlock_other, NULL) == 0);
		pthread_join(t, NULL);
		CHECK(!ww_mutex_is_locked(&a));
		ww_acquire_fini(&ctx);
	}
}

DEBUG_EXPECT_REPORT(bug, "WARNING: DEBUG_LOCKS_WARN_ON(lock->ctx->task != "
		    "current)", "ww_mutex_unlock", "unlocked by another thread",
		    "unlock_other+")
