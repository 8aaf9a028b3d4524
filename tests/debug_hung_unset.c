// SPDX-License-Identifier: MIT
/*
 * debug_hung_unset - without KMUTEX_DEBUG_HUNG, a 1.5 s wait on a mutex
 * is not reported.
 */
#include <linux/mutex.h>

#include "debug_hung.h"

static DEFINE_MUTEX(m);
static volatile int held;

static void *holder(void *arg)
{
	mutex_lock(&m);
	__atomic_store_n(&held, 1, __ATOMIC_RELEASE);
	hung_sleep_ms(1500);
	mutex_unlock(&m);
	return arg;
}

static void correct(void)
{
	pthread_t t;

	CHECK(pthread_create(&t, NULL, holder, NULL) == 0);
	while (!__atomic_load_n(&held, __ATOMIC_ACQUIRE))
		hung_sleep_ms(1);
	mutex_lock(&m);
	mutex_unlock(&m);
	pthread_join(t, NULL);
}

HUNG_EXPECT_CLEAN(NULL, correct)
