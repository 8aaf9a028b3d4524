// SPDX-License-Identifier: MIT
/*
 * debug_ww_order_clean - ww_mutexes of one class taken in any order
 * inside one acquire context, as lockdep allows (the kernel's
 * ww_mutex_lock() passes the context as nest lock), with a mutex always
 * taken inside the context and another always around it: silent.
 */
#include <linux/ww_mutex.h>

#include "debug_harness.h"

static DEFINE_WW_CLASS(bufs);
static DEFINE_MUTEX(inner);
static DEFINE_MUTEX(outer);

static struct ww_mutex a, b, c;

static void lock_all(struct ww_mutex *x, struct ww_mutex *y,
		     struct ww_mutex *z)
{
	struct ww_acquire_ctx ctx;

	mutex_lock(&outer);
	ww_acquire_init(&ctx, &bufs);
	CHECK_EQ(ww_mutex_lock(x, &ctx), 0);
	CHECK_EQ(ww_mutex_lock(y, &ctx), 0);
	CHECK_EQ(ww_mutex_lock(x, &ctx), -EALREADY);
	mutex_lock(&inner);
	CHECK_EQ(ww_mutex_lock(z, &ctx), 0);
	mutex_unlock(&inner);
	ww_acquire_done(&ctx);
	ww_mutex_unlock(y);		/* out of order */
	ww_mutex_unlock(x);
	ww_mutex_unlock(z);
	ww_acquire_fini(&ctx);
	mutex_unlock(&outer);
}

static void clean(void)
{
	ww_mutex_init(&a, &bufs);
	ww_mutex_init(&b, &bufs);
	ww_mutex_init(&c, &bufs);
	lock_all(&a, &b, &c);
	lock_all(&c, &b, &a);
	lock_all(&b, &a, &c);
	CHECK_EQ(ww_mutex_trylock(&a, NULL), 1);	/* a plain mutex */
	ww_mutex_unlock(&a);
}

DEBUG_EXPECT_CLEAN(clean)
