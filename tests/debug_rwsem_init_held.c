// SPDX-License-Identifier: MIT
/*
 * debug_rwsem_init_held - init_rwsem() of a rwsem that is held for
 * writing: "DEBUG_LOCKS_WARN_ON", naming the holder.
 */
#include <linux/rwsem.h>

#include "debug_harness.h"

static struct rw_semaphore reset_sem;

DEBUG_FN void reset_init(void)
{
	init_rwsem(&reset_sem);
}

DEBUG_FN __no_context_analysis void hold_it(void)
{
	down_write(&reset_sem);
}

static void bug(void)
{
	reset_init();
	hold_it();
	reset_init();		/* held: reported; now unlocked */
	hold_it();
	reset_init();		/* reported once */
	CHECK(!rwsem_is_locked(&reset_sem));
}

DEBUG_EXPECT_REPORT(bug,
		    "WARNING: DEBUG_LOCKS_WARN_ON(rwsem_is_locked(sem))",
		    "\"&reset_sem\"", "reset_init+", "hold_it+",
		    "init_rwsem(&reset_sem) at tests/debug_rwsem_init_held.c:14")
