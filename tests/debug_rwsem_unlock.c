// SPDX-License-Identifier: MIT
/*
 * debug_rwsem_unlock - up_read() of a rwsem nobody holds: "bad unlock
 * balance detected", and the rwsem is left as it was (unlocked).
 */
#include <linux/rwsem.h>

#include "debug_harness.h"

static DECLARE_RWSEM(stats_sem);

DEBUG_FN __no_context_analysis void read_stats(void)
{
	down_read(&stats_sem);
	up_read(&stats_sem);
	up_read(&stats_sem);	/* one too many */
}

static void bug(void)
{
	read_stats();
	read_stats();		/* reported once */
	CHECK(!rwsem_is_locked(&stats_sem));
	down_write(&stats_sem);	/* still usable */
	up_write(&stats_sem);
}

DEBUG_EXPECT_REPORT(bug, "WARNING: bad unlock balance detected!",
		    "is trying to release lock:\n  \"stats_sem\"",
		    "read_stats+",
		    "up_read(&stats_sem) at tests/debug_rwsem_unlock.c:16",
		    "no more locks to release")
