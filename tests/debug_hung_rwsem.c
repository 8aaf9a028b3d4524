// SPDX-License-Identifier: MIT
/*
 * debug_hung_rwsem - KMUTEX_DEBUG_HUNG=1: a reader waits 4 s on a
 * rw_semaphore that a writer holds: reported, naming the rwsem and its
 * writer.
 */
#include <linux/rwsem.h>

#include "debug_hung.h"

static DECLARE_RWSEM(table_sem);
static volatile int held;

static void *writer(void *arg)
{
	pthread_setname_np(pthread_self(), "writer");
	down_write(&table_sem);
	__atomic_store_n(&held, 1, __ATOMIC_RELEASE);
	hung_sleep_ms(HUNG_HOLD_MS);
	up_write(&table_sem);
	return arg;
}

DEBUG_FN void read_table(void)
{
	down_read(&table_sem);
	up_read(&table_sem);
}

static void bug(void)
{
	pthread_t w;

	pthread_setname_np(pthread_self(), "reader");
	CHECK(pthread_create(&w, NULL, writer, NULL) == 0);
	while (!__atomic_load_n(&held, __ATOMIC_ACQUIRE))
		hung_sleep_ms(1);
	read_table();
	pthread_join(w, NULL);
}

HUNG_EXPECT_REPORT("1", bug, "INFO: task reader:",
		   "for the rwsem (read):\n  \"table_sem\" (init at ",
		   ", held by writer/", "1 lock held by writer/",
		   "by down_write(&table_sem) at tests/debug_hung_rwsem.c:",
		   "read_table+")
