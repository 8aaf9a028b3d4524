// SPDX-License-Identifier: MIT
/*
 * debug_lockdep_map_unbalanced - lock_map_release() of a map the thread
 * does not hold (a program's own lock type that releases twice) is
 * reported as a bad unlock, with the map's name, the call and the
 * function, as the kernel's lockdep reports it; twice, reported once.
 */
#include "debug_harness.h"
#include "lockdep_map_lock.h"

static struct lock_class_key pool_key;
static struct lockdep_map pool_map =
	STATIC_LOCKDEP_MAP_INIT("pool_map", &pool_key);

DEBUG_FN void put_pool_twice(void)
{
	lock_map_acquire(&pool_map);
	lock_map_release(&pool_map);
	lock_map_release(&pool_map);	/* the bug: not held */
}

static void bug(void)
{
	put_pool_twice();
	put_pool_twice();		/* reported once */
}

DEBUG_EXPECT_REPORT(bug, "WARNING: bad unlock balance detected!",
		    "is trying to release lock:\n  \"pool_map\"",
		    "by lock_map_release(&pool_map) at "
		    "tests/debug_lockdep_map_unbalanced.c:19",
		    "put_pool_twice+",
		    "but there are no more locks to release!")
