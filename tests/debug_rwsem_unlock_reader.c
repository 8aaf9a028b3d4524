// SPDX-License-Identifier: MIT
/*
 * debug_rwsem_unlock_reader - up_read() by a thread that does not hold a
 * read lock, while two other threads do: "bad unlock balance detected".
 * The read lock is released all the same (as in the kernel); one of the
 * readers' own up_read() then only forgets its entry, so the count stays
 * right: a reader that comes in meanwhile is still counted after the
 * other reader leaves, and a writer gets in only after it.
 */
#include <linux/rwsem.h>

#include "debug_harness.h"

static DECLARE_RWSEM(shared_sem);
static volatile int taken, go[2];

static void *reader(void *arg)
{
	int i = (int)(uintptr_t)arg;

	down_read(&shared_sem);
	__atomic_add_fetch(&taken, 1, __ATOMIC_RELEASE);
	WAIT_UNTIL(__atomic_load_n(&go[i], __ATOMIC_ACQUIRE), 10000);
	up_read(&shared_sem);
	return arg;
}

DEBUG_FN __no_context_analysis void release_a_read(void)
{
	up_read(&shared_sem);
}

static void bug(void)
{
	pthread_t t[2];
	int i;

	for (i = 0; i < 2; i++)
		CHECK(pthread_create(&t[i], NULL, reader,
				     (void *)(uintptr_t)i) == 0);
	WAIT_UNTIL(__atomic_load_n(&taken, __ATOMIC_ACQUIRE) == 2, 10000);
	release_a_read();
	CHECK_EQ(shared_sem.count >> RWSEM_READER_SHIFT, 1);
	/* The first reader's read lock was the one released for it. */
	__atomic_store_n(&go[0], 1, __ATOMIC_RELEASE);
	pthread_join(t[0], NULL);
	CHECK_EQ(shared_sem.count >> RWSEM_READER_SHIFT, 1);
	/* A new reader, then the second reader leaves: ours still counts. */
	down_read(&shared_sem);
	__atomic_store_n(&go[1], 1, __ATOMIC_RELEASE);
	pthread_join(t[1], NULL);
	CHECK_EQ(shared_sem.count, RWSEM_READER_BIAS);
	CHECK_EQ(down_write_trylock(&shared_sem), 0);
	up_read(&shared_sem);
	CHECK_EQ(shared_sem.count, 0);
	down_write(&shared_sem);
	up_write(&shared_sem);
}

DEBUG_EXPECT_REPORT(bug, "WARNING: bad unlock balance detected!",
		    "\"shared_sem\"", "release_a_read+",
		    "2 other reader(s) do")
