// SPDX-License-Identifier: MIT
/*
 * debug_rwsem_unlock_reader - up_read() by a thread that does not hold a
 * read lock, while two other threads do: "bad unlock balance detected".
 * The read lock is released all the same (as in the kernel); one of the
 * readers' own up_read() then only forgets its entry, so the count stays
 * right and a writer gets in afterwards.
 */
#include <linux/rwsem.h>

#include "debug_harness.h"

static DECLARE_RWSEM(shared_sem);
static volatile int taken, released;

static void *reader(void *arg)
{
	down_read(&shared_sem);
	__atomic_add_fetch(&taken, 1, __ATOMIC_RELEASE);
	WAIT_UNTIL(__atomic_load_n(&released, __ATOMIC_ACQUIRE), 10000);
	up_read(&shared_sem);
	return arg;
}

DEBUG_FN void release_a_read(void)
{
	up_read(&shared_sem);
}

static void bug(void)
{
	pthread_t t[2];
	int i;

	for (i = 0; i < 2; i++)
		CHECK(pthread_create(&t[i], NULL, reader, NULL) == 0);
	WAIT_UNTIL(__atomic_load_n(&taken, __ATOMIC_ACQUIRE) == 2, 10000);
	release_a_read();
	CHECK_EQ(shared_sem.count >> RWSEM_READER_SHIFT, 1);
	__atomic_store_n(&released, 1, __ATOMIC_RELEASE);
	for (i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	CHECK_EQ(shared_sem.count, 0);
	down_write(&shared_sem);
	up_write(&shared_sem);
}

DEBUG_EXPECT_REPORT(bug, "WARNING: bad unlock balance detected!",
		    "\"shared_sem\"", "release_a_read+",
		    "2 other reader(s) do")
