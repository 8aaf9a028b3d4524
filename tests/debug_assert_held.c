// SPDX-License-Identifier: MIT
/*
 * debug_assert_held - lockdep_assert_held() on a mutex the thread does
 * not hold (here: another thread holds it) fails.
 */
#include <linux/mutex.h>

#include "debug_harness.h"

static DEFINE_MUTEX(table_lock);
static int table[4];
static volatile int taken, done;

DEBUG_FN void table_set(int i, int v)
{
	lockdep_assert_held(&table_lock);
	table[i] = v;
}

static void *other(void *arg)
{
	mutex_lock(&table_lock);
	__atomic_store_n(&taken, 1, __ATOMIC_RELEASE);
	WAIT_UNTIL(__atomic_load_n(&done, __ATOMIC_ACQUIRE), 10000);
	mutex_unlock(&table_lock);
	return arg;
}

static void bug(void)
{
	pthread_t t;

	mutex_lock(&table_lock);
	table_set(0, 1);		/* held: fine */
	mutex_unlock(&table_lock);
	CHECK(pthread_create(&t, NULL, other, NULL) == 0);
	WAIT_UNTIL(__atomic_load_n(&taken, __ATOMIC_ACQUIRE), 10000);
	table_set(1, 2);		/* held by the other thread */
	table_set(2, 3);		/* reported once */
	__atomic_store_n(&done, 1, __ATOMIC_RELEASE);
	pthread_join(t, NULL);
}

DEBUG_EXPECT_REPORT(bug, "WARNING: lockdep_assert_held(&table_lock) failed",
		    "\"table_lock\"", "table_set+",
		    "at tests/debug_assert_held.c:16 does not hold lock")
