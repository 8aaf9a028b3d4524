// SPDX-License-Identifier: MIT
/*
 * debug_rwsem_unlock_other - a thread releases a rwsem that another
 * thread holds: for the kernel's lockdep only the holder may release a
 * rwsem (its _non_owner calls are not in kmutex's API), so "bad unlock
 * balance detected", naming the holder.  As in the kernel the release
 * is done; the holder's own release later is quiet.  Both forms: the
 * write lock, then (another class) a read lock.
 */
#include <linux/rwsem.h>

#include "debug_harness.h"

static DECLARE_RWSEM(owned);
static volatile int taken, released;

DEBUG_FN void *holder_thread(void *arg)
{
	down_write(&owned);
	__atomic_store_n(&taken, 1, __ATOMIC_RELEASE);
	WAIT_UNTIL(__atomic_load_n(&released, __ATOMIC_ACQUIRE), 10000);
	up_write(&owned);	/* already released by main: quiet */
	return arg;
}

DEBUG_FN __no_context_analysis void release_for_it(void)
{
	up_write(&owned);
}

static void bug(void)
{
	pthread_t t;

	CHECK(pthread_create(&t, NULL, holder_thread, NULL) == 0);
	pthread_setname_np(t, "holder");
	WAIT_UNTIL(__atomic_load_n(&taken, __ATOMIC_ACQUIRE), 10000);
	release_for_it();
	CHECK(!rwsem_is_locked(&owned));
	__atomic_store_n(&released, 1, __ATOMIC_RELEASE);
	pthread_join(t, NULL);
	CHECK(!rwsem_is_locked(&owned));
	down_write(&owned);		/* usable, and by this thread */
	up_write(&owned);
}

DEBUG_EXPECT_REPORT(bug, "WARNING: bad unlock balance detected!",
		    "\"owned\"",
		    "but the thread does not hold it, held by holder/",
		    "holder_thread+", "release_for_it+")
