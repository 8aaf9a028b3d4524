// SPDX-License-Identifier: MIT
/*
 * debug_lockdep_map_not_held - lockdep_assert_not_held() while the
 * thread holds the lock: a program's own lock and a mutex; reported once
 * for each.
 */
#include "debug_harness.h"
#include "lockdep_map_lock.h"

static struct my_spinlock spin;

DEBUG_FN void must_not_hold_spin(void)
{
	lockdep_assert_not_held(&spin);
}

static void bug(void)
{
	my_spin_lock_init(&spin);
	must_not_hold_spin();		/* fine */
	my_spin_lock(&spin);
	must_not_hold_spin();		/* the bug */
	must_not_hold_spin();		/* reported once */
	my_spin_unlock(&spin);
}

DEBUG_EXPECT_REPORT(bug, "WARNING: lockdep_assert_not_held(&spin) failed",
		    "holds lock", "\"&spin\"", "must_not_hold_spin+")
