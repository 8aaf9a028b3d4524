// SPDX-License-Identifier: MIT
/*
 * debug_unlock_other - a thread releases a lock that another thread
 * holds: a mutex, and a rwsem's write lock (for the kernel's lockdep
 * only the holder may release a rwsem: its _non_owner calls are not in
 * kmutex's API).  "bad unlock balance detected", naming the holder.  As
 * in the kernel the release is done, so the program goes on; the
 * holder's own release later is quiet.
 */
#include <linux/mutex.h>
#include <linux/rwsem.h>

#include "debug_harness.h"

static DEFINE_MUTEX(owned);
static DECLARE_RWSEM(owned_sem);
static bool use_rwsem;		/* which of the two this child misuses */
static volatile int taken, released;

DEBUG_FN __no_context_analysis void *holder_thread(void *arg)
{
	if (use_rwsem)
		down_write(&owned_sem);
	else
		mutex_lock(&owned);
	__atomic_store_n(&taken, 1, __ATOMIC_RELEASE);
	WAIT_UNTIL(__atomic_load_n(&released, __ATOMIC_ACQUIRE), 10000);
	/* Already released by main: quiet. */
	if (use_rwsem)
		up_write(&owned_sem);
	else
		mutex_unlock(&owned);
	return arg;
}

DEBUG_FN __no_context_analysis void release_for_it(void)
{
	if (use_rwsem)
		up_write(&owned_sem);
	else
		mutex_unlock(&owned);
}

/* A thread "holder" takes the lock; this one releases it. */
static void release_others(void)
{
	pthread_t t;

	CHECK(pthread_create(&t, NULL, holder_thread, NULL) == 0);
	pthread_setname_np(t, "holder");
	WAIT_UNTIL(__atomic_load_n(&taken, __ATOMIC_ACQUIRE), 10000);
	release_for_it();
	if (use_rwsem)
		CHECK(!rwsem_is_locked(&owned_sem));
	__atomic_store_n(&released, 1, __ATOMIC_RELEASE);
	pthread_join(t, NULL);
}

static void mutex_bug(void)
{
	release_others();
	CHECK(!mutex_is_locked(&owned));
}

static void rwsem_bug(void)
{
	use_rwsem = true;
	release_others();
	CHECK(!rwsem_is_locked(&owned_sem));
	down_write(&owned_sem);		/* usable, and by this thread */
	up_write(&owned_sem);
}

#define TITLE	"WARNING: bad unlock balance detected!"
#define HOLDER	"but the thread does not hold it, held by holder/"
DEBUG_EXPECT_REPORTS(
	DEBUG_CASE(mutex_bug, TITLE, "\"owned\"", HOLDER, "holder_thread+",
		   "release_for_it+"),
	DEBUG_CASE(rwsem_bug, TITLE, "\"owned_sem\"", HOLDER,
		   "holder_thread+", "release_for_it+"))
