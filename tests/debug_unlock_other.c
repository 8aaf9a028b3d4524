// SPDX-License-Identifier: MIT
/*
 * debug_unlock_other - unlocking a mutex that another thread holds:
 * "bad unlock balance detected", naming the holder.  As in the kernel,
 * the unlock is then done, so the program goes on.
 */
#include <linux/mutex.h>

#include "debug_harness.h"

static DEFINE_MUTEX(owned);
static volatile int taken, released;

DEBUG_FN void *holder_thread(void *arg)
{
	mutex_lock(&owned);
	__atomic_store_n(&taken, 1, __ATOMIC_RELEASE);
	WAIT_UNTIL(__atomic_load_n(&released, __ATOMIC_ACQUIRE), 10000);
	mutex_unlock(&owned);	/* already released by main: quiet */
	return arg;
}

DEBUG_FN __no_context_analysis void release_for_it(void)
{
	mutex_unlock(&owned);
}

static void bug(void)
{
	pthread_t t;

	CHECK(pthread_create(&t, NULL, holder_thread, NULL) == 0);
	pthread_setname_np(t, "holder");
	WAIT_UNTIL(__atomic_load_n(&taken, __ATOMIC_ACQUIRE), 10000);
	release_for_it();
	__atomic_store_n(&released, 1, __ATOMIC_RELEASE);
	pthread_join(t, NULL);
	CHECK(!mutex_is_locked(&owned));
}

DEBUG_EXPECT_REPORT(bug, "WARNING: bad unlock balance detected!",
		    "\"owned\"",
		    "but the thread does not hold it, held by holder/",
		    "holder_thread+", "release_for_it+")
