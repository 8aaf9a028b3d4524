// SPDX-License-Identifier: MIT
/*
 * debug_rwsem_assert_held - lockdep_assert_held() on a rwsem: held for
 * reading or for writing passes; not held by the caller (another thread
 * holds it) fails.
 */
#include <linux/rwsem.h>

#include "debug_harness.h"

static DECLARE_RWSEM(conf_sem);
static int conf;
static volatile int taken, done;

DEBUG_FN int conf_get(void)
{
	lockdep_assert_held(&conf_sem);
	return conf;
}

static void *other(void *arg)
{
	down_write(&conf_sem);
	__atomic_store_n(&taken, 1, __ATOMIC_RELEASE);
	WAIT_UNTIL(__atomic_load_n(&done, __ATOMIC_ACQUIRE), 10000);
	up_write(&conf_sem);
	return arg;
}

static void bug(void)
{
	pthread_t t;

	down_read(&conf_sem);
	conf_get();			/* held for reading: fine */
	up_read(&conf_sem);
	down_write(&conf_sem);
	conf_get();			/* held for writing: fine */
	downgrade_write(&conf_sem);
	conf_get();			/* still held, for reading */
	up_read(&conf_sem);
	CHECK(pthread_create(&t, NULL, other, NULL) == 0);
	WAIT_UNTIL(__atomic_load_n(&taken, __ATOMIC_ACQUIRE), 10000);
	conf_get();			/* held by the other thread */
	conf_get();			/* reported once */
	__atomic_store_n(&done, 1, __ATOMIC_RELEASE);
	pthread_join(t, NULL);
}

DEBUG_EXPECT_REPORT(bug, "WARNING: lockdep_assert_held(&conf_sem) failed",
		    "\"conf_sem\"", "conf_get+",
		    "at tests/debug_rwsem_assert_held.c:17 does not hold lock")
