// SPDX-License-Identifier: MIT
/*
 * debug_rwsem_downgrade - downgrade_write() of a rwsem the thread holds
 * only for reading: "bad unlock balance detected"; nothing changes.
 */
#include <linux/rwsem.h>

#include "debug_harness.h"

static DECLARE_RWSEM(list_sem);

DEBUG_FN __no_context_analysis void publish(void)
{
	down_read(&list_sem);
	downgrade_write(&list_sem);	/* there is no write lock */
	CHECK_EQ(list_sem.count, RWSEM_READER_BIAS);
	up_read(&list_sem);
}

static void bug(void)
{
	publish();
	publish();			/* reported once */
	CHECK(!rwsem_is_locked(&list_sem));
}

DEBUG_EXPECT_REPORT(bug, "WARNING: bad unlock balance detected!",
		    "\"list_sem\"", "publish+",
		    "downgrade_write(&list_sem) at "
		    "tests/debug_rwsem_downgrade.c:15",
		    "but the thread holds it for reading")
