// SPDX-License-Identifier: MIT
/*
 * debug_init_recycled - mutex_init() and init_rwsem() on memory that
 * still holds the bytes of an earlier lock at the same address are
 * quiet.  That is what malloc() hands back after free(): the old magic
 * intact, and the allocator's free-list links written over the first
 * words (glibc's tcache: the next pointer, often NULL, where the count
 * is).  The checker once read those bytes as "held" and reported a
 * correct program (found by memcheck in debug_free_clean).
 */
#include <linux/mutex.h>
#include <linux/rwsem.h>

#include "debug_harness.h"

struct obj {
	struct mutex lock;
	struct rw_semaphore sem;
};

/* An object whose locks were used, then its count words clobbered. */
static void recycle(struct obj *o, int count)
{
	mutex_init(&o->lock);
	init_rwsem(&o->sem);
	mutex_lock(&o->lock);
	down_write(&o->sem);
	up_write(&o->sem);
	mutex_unlock(&o->lock);
	/* As an allocator would: magic kept, count overwritten. */
	__atomic_store_n(&o->lock.count, count, __ATOMIC_RELAXED);
	__atomic_store_n(&o->sem.count, count, __ATOMIC_RELAXED);
	mutex_init(&o->lock);
	init_rwsem(&o->sem);
	CHECK(!mutex_is_locked(&o->lock));
	CHECK(!rwsem_is_locked(&o->sem));
}

static void clean(void)
{
	static struct obj fixed;
	struct obj *last = NULL;
	int i, reused = 0;

	recycle(&fixed, 0);
	recycle(&fixed, -1);
	recycle(&fixed, 0x12345);
	/*
	 * The real thing: malloc() after free() of the same size.  glibc
	 * hands the block back at once; ASan and Valgrind hold freed
	 * memory back, so only the plain builds must see it reused.
	 */
	for (i = 0; i < 1000; i++) {
		struct obj *o = malloc(sizeof(*o));

		CHECK(o);
		reused += o == last;
		last = o;
		mutex_init(&o->lock);
		init_rwsem(&o->sem);
		mutex_lock(&o->lock);
		down_read(&o->sem);
		up_read(&o->sem);
		mutex_unlock(&o->lock);
		free(o);
	}
	if (!getenv("KMUTEX_SANITIZER") || !*getenv("KMUTEX_SANITIZER"))
		CHECK(reused > 0);
}

DEBUG_EXPECT_CLEAN(clean)
