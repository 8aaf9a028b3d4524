// SPDX-License-Identifier: MIT
/*
 * debug_lockdep_map_cycle - a program's own spin lock (a lockdep_map
 * dep_map, lock_acquire/lock_release) and a struct mutex taken in both
 * orders: "possible circular locking dependency detected".
 */
#include "debug_harness.h"
#include "lockdep_map_lock.h"

static DEFINE_MUTEX(big);
static struct my_spinlock spin;

DEBUG_FN void spin_then_mutex(void)
{
	my_spin_lock(&spin);
	mutex_lock(&big);
	mutex_unlock(&big);
	my_spin_unlock(&spin);
}

DEBUG_FN void mutex_then_spin(void)
{
	mutex_lock(&big);
	my_spin_lock(&spin);		/* the bug */
	my_spin_unlock(&spin);
	mutex_unlock(&big);
}

static void bug(void)
{
	my_spin_lock_init(&spin);
	spin_then_mutex();
	mutex_then_spin();
	mutex_then_spin();		/* reported once */
}

DEBUG_EXPECT_REPORT(bug,
		    "WARNING: possible circular locking dependency detected",
		    "\"&spin\"", "\"big\"", "spin_then_mutex+",
		    "mutex_then_spin+", "lock_acquire(&l->dep_map)")
