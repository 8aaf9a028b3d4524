// SPDX-License-Identifier: MIT
/*
 * rwsem_readers_max.c - the rwsem's reader count fills up cleanly: at
 * RWSEM_READERS_MAX (2^23 - 1) readers, down_read_trylock() fails and
 * leaves the count alone, and the blocking forms abort saying why.
 *
 * White-box: 2^23 threads cannot be run, so the test writes the count
 * word through the struct, as if RWSEM_READERS_MAX - 1 or
 * RWSEM_READERS_MAX readers held the rwsem (<linux/rwsem.h> documents
 * the encoding), then makes the next read lock.
 *
 * Failed while a reader's bias could carry into the sign bit: the
 * trylock succeeded with a count that reads as negative, and the
 * blocking forms went on until up_read() aborted claiming "without a
 * read lock held".
 */
#include <linux/rwsem.h>

#include "child.h"

#define FULL	(RWSEM_READERS_MAX << RWSEM_READER_SHIFT)

static struct rw_semaphore sem;

/* As if @readers readers held it. */
static void fill(int readers)
{
	init_rwsem(&sem);
	sem.count = readers << RWSEM_READER_SHIFT;
}

static __no_context_analysis void test_trylock(void)
{
	CHECK_EQ(RWSEM_READERS_MAX, 8388607);
	fill(RWSEM_READERS_MAX - 1);
	CHECK(down_read_trylock(&sem));		/* the last one that fits */
	CHECK_EQ(sem.count, FULL);
	CHECK(!down_read_trylock(&sem));	/* full: fails, count intact */
	CHECK_EQ(sem.count, FULL);
	CHECK(!down_write_trylock(&sem));
	CHECK_EQ(sem.count, FULL);
	up_read(&sem);
	CHECK_EQ(sem.count, FULL - RWSEM_READER_BIAS);
	down_read(&sem);			/* fits again */
	CHECK_EQ(sem.count, FULL);
	up_read(&sem);
	up_read(&sem);
	CHECK_EQ(sem.count, (RWSEM_READERS_MAX - 2) << RWSEM_READER_SHIFT);
	printf("down_read_trylock: fails at %d readers, count intact\n",
	       RWSEM_READERS_MAX);
}

static __no_context_analysis void child_down_read(void)
{
	fill(RWSEM_READERS_MAX);
	down_read(&sem);
	fprintf(stderr, "down_read returned, count %#x\n", sem.count);
}

static __no_context_analysis void child_down_read_interruptible(void)
{
	fill(RWSEM_READERS_MAX);
	fprintf(stderr, "down_read_interruptible returned %d, count %#x\n",
		down_read_interruptible(&sem), sem.count);
}

static __no_context_analysis void child_down_read_killable(void)
{
	fill(RWSEM_READERS_MAX);
	fprintf(stderr, "down_read_killable returned %d, count %#x\n",
		down_read_killable(&sem), sem.count);
}

static void expect_limit(const char *what, void (*fn)(void))
{
	struct outcome o;

	run_child(fn, &o);
	expect_abort(what, &o, "more than 8388607 concurrent readers", NULL);
}

int main(void)
{
	test_watchdog(60);
	test_trylock();
	expect_limit("down_read at the limit", child_down_read);
	expect_limit("down_read_interruptible at the limit",
		     child_down_read_interruptible);
	expect_limit("down_read_killable at the limit",
		     child_down_read_killable);
	printf("rwsem_readers_max: all passed\n");
	return 0;
}
