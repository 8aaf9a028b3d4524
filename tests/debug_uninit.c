// SPDX-License-Identifier: MIT
/*
 * debug_uninit - locking a mutex that was never initialised (all zero,
 * no DEFINE_MUTEX, no mutex_init): DEBUG_LOCKS_WARN_ON.  The debug build
 * then initialises it, so the program goes on.
 */
#include <linux/mutex.h>

#include "debug_harness.h"

static struct mutex zeroed;

DEBUG_FN void use_zeroed(void)
{
	mutex_lock(&zeroed);
	mutex_unlock(&zeroed);
}

static void bug(void)
{
	use_zeroed();
	use_zeroed();		/* reported once */
}

DEBUG_EXPECT_REPORT(bug, "WARNING: DEBUG_LOCKS_WARN_ON(lock->magic != lock)",
		    "mutex_lock(&zeroed) at tests/debug_uninit.c:15",
		    "never initialised", "use_zeroed+")
