// SPDX-License-Identifier: MIT
/*
 * debug_free_held_rwsem - free() of an array of objects, one of whose
 * rwsems the calling thread holds for reading: "held lock freed" from
 * the free() hook, wherever in the block the lock lies.
 */
#include <linux/rwsem.h>

#include "debug_harness.h"

struct bucket {
	struct rw_semaphore sem;
	long items[5];
};

DEBUG_FN __no_context_analysis void table_destroy(struct bucket *b, int n)
{
	down_read(&b[n - 1].sem);
	free(b);
}

static void bug(void)
{
	int round, i;

	for (round = 0; round < 2; round++) {	/* reported once */
		struct bucket *b = calloc(4, sizeof(*b));

		CHECK(b);
		for (i = 0; i < 4; i++)
			init_rwsem(&b[i].sem);
		table_destroy(b, 4);
	}
}

DEBUG_EXPECT_REPORT(bug, "WARNING: held lock freed!", "\"&b[i].sem\"",
		    "init at tests/debug_free_held_rwsem.c:31", "table_destroy+",
		    "down_read(&b[n - 1].sem) at "
		    "tests/debug_free_held_rwsem.c:18")
