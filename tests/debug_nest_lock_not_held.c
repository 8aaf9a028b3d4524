// SPDX-License-Identifier: MIT
/*
 * debug_nest_lock_not_held - mutex_lock_nest_lock(&a, &outer) with outer
 * not held: lockdep's "Nested lock was not taken".
 */
#include <linux/mutex.h>

#include "debug_harness.h"

static DEFINE_MUTEX(outer);
static DEFINE_MUTEX(a);

DEBUG_FN void lock_without_outer(void)
{
	mutex_lock_nest_lock(&a, &outer);	/* the bug */
	mutex_unlock(&a);
}

static void bug(void)
{
	lock_without_outer();
	lock_without_outer();		/* reported once */
}

DEBUG_EXPECT_REPORT(bug, "WARNING: Nested lock was not taken", "\"a\"",
		    "\"outer\"", "lock_without_outer+",
		    "mutex_lock_nest_lock(&a) at tests/debug_nest_lock_not_held.c:")
