// SPDX-License-Identifier: MIT
/*
 * debug_lockdep_map_assert - lockdep_assert_held() on a program's own
 * lock (an object with a lockdep_map dep_map) that the thread does not
 * hold: "lockdep_assert_held(&spin) failed".
 */
#include "debug_harness.h"
#include "lockdep_map_lock.h"

static struct my_spinlock spin;

DEBUG_FN void needs_spin(void)
{
	lockdep_assert_held(&spin);
}

static void bug(void)
{
	my_spin_lock_init(&spin);
	my_spin_lock(&spin);
	needs_spin();			/* fine */
	my_spin_unlock(&spin);
	needs_spin();			/* the bug */
	needs_spin();			/* reported once */
}

DEBUG_EXPECT_REPORT(bug, "WARNING: lockdep_assert_held(&spin) failed",
		    "does not hold", "\"&spin\"", "needs_spin+")
