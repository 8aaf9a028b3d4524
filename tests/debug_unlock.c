// SPDX-License-Identifier: MIT
/*
 * debug_unlock - unlocking a mutex that is not locked: "bad unlock
 * balance detected".  The debug build does not abort (the production
 * build does): it reports and goes on, the mutex still unlocked.
 */
#include <linux/mutex.h>

#include "debug_harness.h"

static DEFINE_MUTEX(lock_c);

DEBUG_FN __no_context_analysis void release_twice(void)
{
	mutex_lock(&lock_c);
	mutex_unlock(&lock_c);
	mutex_unlock(&lock_c);
}

static void bug(void)
{
	release_twice();
	release_twice();		/* reported once */
	CHECK(!mutex_is_locked(&lock_c));
	mutex_lock(&lock_c);		/* still a working mutex */
	mutex_unlock(&lock_c);
}

DEBUG_EXPECT_REPORT(bug, "WARNING: bad unlock balance detected!",
		    "is trying to release lock:\n  \"lock_c\"",
		    "no more locks to release",
		    "release_twice+",
		    "mutex_unlock(&lock_c) at tests/debug_unlock.c:17")
