// SPDX-License-Identifier: MIT
/*
 * debug_rwsem_unlock_mode - up_write() of a rwsem the thread holds for
 * reading: "bad unlock balance detected", naming the read lock; the
 * read lock stays held, and up_read() then releases it quietly.
 */
#include <linux/rwsem.h>

#include "debug_harness.h"

static DECLARE_RWSEM(route_sem);

DEBUG_FN __no_context_analysis void wrong_release(void)
{
	down_read(&route_sem);
	up_write(&route_sem);	/* it is a read lock */
	CHECK(rwsem_is_locked(&route_sem));
	up_read(&route_sem);
}

static void bug(void)
{
	wrong_release();
	wrong_release();	/* reported once */
	CHECK(!rwsem_is_locked(&route_sem));
}

DEBUG_EXPECT_REPORT(bug, "WARNING: bad unlock balance detected!",
		    "\"route_sem\"", "wrong_release+",
		    "up_write(&route_sem) at tests/debug_rwsem_unlock_mode.c:16",
		    "but the thread holds it for reading",
		    "down_read(&route_sem) at tests/debug_rwsem_unlock_mode.c:15")
