// SPDX-License-Identifier: MIT
/*
 * debug_rwsem_recursive - a thread takes a read lock of a rwsem it
 * already holds for reading.  It goes through here (no writer waits),
 * but a writer queued between the two would make the second wait for
 * the first: lockdep's rwsem readers do not nest, so "possible
 * recursive locking detected".
 */
#include <linux/rwsem.h>

#include "debug_harness.h"

static DECLARE_RWSEM(map_sem);

DEBUG_FN __no_context_analysis void lookup_twice(void)
{
	down_read(&map_sem);
	down_read(&map_sem);
	up_read(&map_sem);
	up_read(&map_sem);
}

static void bug(void)
{
	lookup_twice();
	lookup_twice();		/* the same problem: not reported again */
	CHECK(!rwsem_is_locked(&map_sem));
}

DEBUG_EXPECT_REPORT(bug, "WARNING: possible recursive locking detected",
		    "\"map_sem\"", "lookup_twice+", "*** DEADLOCK ***",
		    "read locks do not nest", "  rlock(map_sem);\n  rlock(map_sem);",
		    "down_read(&map_sem) at tests/debug_rwsem_recursive.c:18")
