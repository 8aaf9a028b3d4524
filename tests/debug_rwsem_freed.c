// SPDX-License-Identifier: MIT
/*
 * debug_rwsem_freed - debug_check_no_locks_freed() over an object whose
 * rwsem another thread holds for reading: "held lock freed".
 */
#include <linux/rwsem.h>

#include "debug_harness.h"

struct table {
	long rows;
	struct rw_semaphore sem;
};

static volatile int taken, done;

DEBUG_FN void table_init(struct table *t)
{
	init_rwsem(&t->sem);
}

DEBUG_FN void *table_reader(void *arg)
{
	struct table *t = arg;

	down_read(&t->sem);
	__atomic_store_n(&taken, 1, __ATOMIC_RELEASE);
	WAIT_UNTIL(__atomic_load_n(&done, __ATOMIC_ACQUIRE), 10000);
	up_read(&t->sem);
	return NULL;
}

DEBUG_FN void table_free(struct table *t)
{
	debug_check_no_locks_freed(t, sizeof(*t));
}

static void bug(void)
{
	struct table *t = calloc(2, sizeof(*t));
	pthread_t th;

	CHECK(t);
	table_init(&t[0]);
	table_init(&t[1]);
	CHECK(pthread_create(&th, NULL, table_reader, &t[0]) == 0);
	pthread_setname_np(th, "reader");
	WAIT_UNTIL(__atomic_load_n(&taken, __ATOMIC_ACQUIRE), 10000);
	table_free(&t[1]);		/* not held: fine */
	table_free(&t[0]);
	table_free(&t[0]);		/* reported once */
	__atomic_store_n(&done, 1, __ATOMIC_RELEASE);
	pthread_join(th, NULL);
	free(t);
}

DEBUG_EXPECT_REPORT(bug, "WARNING: held lock freed!", "\"&t->sem\"",
		    "held by reader/", "table_reader+", "table_free+",
		    "init at tests/debug_rwsem_freed.c:19")
