// SPDX-License-Identifier: MIT
/*
 * debug_rwsem_cycle - readers count in the graph: one thread takes a
 * read lock of "index_sem" inside the write lock of "table", a later
 * thread a read lock of "table" inside the write lock of "index_sem".
 * With writers waiting on both that deadlocks, so it is a cycle
 * although each order has a reader in it.
 */
#include <linux/rwsem.h>

#include "debug_harness.h"

static DECLARE_RWSEM(table);
static DECLARE_RWSEM(index_sem);

DEBUG_FN void *write_table_read_index(void *arg)
{
	pthread_setname_np(pthread_self(), "first");
	down_write(&table);
	down_read(&index_sem);
	up_read(&index_sem);
	up_write(&table);
	return arg;
}

DEBUG_FN void *write_index_read_table(void *arg)
{
	int i;

	pthread_setname_np(pthread_self(), "second");
	for (i = 0; i < 2; i++) {	/* reported once */
		down_write(&index_sem);
		down_read(&table);
		up_read(&table);
		up_write(&index_sem);
	}
	return arg;
}

static void bug(void)
{
	pthread_t t;

	CHECK(pthread_create(&t, NULL, write_table_read_index, NULL) == 0);
	pthread_join(t, NULL);
	CHECK(pthread_create(&t, NULL, write_index_read_table, NULL) == 0);
	pthread_join(t, NULL);
}

DEBUG_EXPECT_REPORT(bug,
		    "WARNING: possible circular locking dependency detected",
		    "\"table\"", "\"index_sem\"", "write_table_read_index+",
		    "write_index_read_table+", "first made by first/",
		    "down_read(&table) at tests/debug_rwsem_cycle.c:33",
		    "*** DEADLOCK ***", "init at tests/debug_rwsem_cycle.c:13",
		    "  lock(index_sem);\n", "  rlock(table);\n")
