// SPDX-License-Identifier: MIT
/*
 * debug_lockdep_map_fake - a "fake" lock, as the kernel's workqueue
 * maps: lock_map_acquire() around running work, and the work takes a
 * mutex that the flusher holds while it waits for the work.  The cycle
 * work_map -> m -> work_map is reported, naming the function that
 * lock_map_acquire() is written in (it named that function's caller).
 */
#include "debug_harness.h"
#include "lockdep_map_lock.h"

static struct lock_class_key work_key;
static struct lockdep_map work_map =
	STATIC_LOCKDEP_MAP_INIT("work_map", &work_key);
static DEFINE_MUTEX(m);

DEBUG_FN void run_work(void)
{
	lock_map_acquire(&work_map);
	mutex_lock(&m);			/* the work takes m */
	mutex_unlock(&m);
	lock_map_release(&work_map);
}

DEBUG_FN void flush_work_holding_m(void)
{
	mutex_lock(&m);
	lock_map_acquire(&work_map);	/* waits for the work: the bug */
	lock_map_release(&work_map);
	mutex_unlock(&m);
}

static void bug(void)
{
	run_work();
	flush_work_holding_m();
	flush_work_holding_m();		/* reported once */
}

DEBUG_EXPECT_REPORT(bug,
		    "WARNING: possible circular locking dependency detected",
		    "\"work_map\"", "\"m\"", "run_work+",
		    "flush_work_holding_m+",
		    "lock_map_acquire(&work_map) at "
		    "tests/debug_lockdep_map_fake.c:28,\n"
		    "  in flush_work_holding_m+")
