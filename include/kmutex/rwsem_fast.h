/* SPDX-License-Identifier: MIT */
/*
 * kmutex/rwsem_fast.h - the rwsem's count encoding and fast paths, the
 * same in both builds: <linux/rwsem.h> wraps them in the TSan
 * annotations, the debugging build (src/debug/rwsem.c) in its checks.
 * One copy, so the protocol modelled in model/rwsem.pml lives in one
 * place (with src/rwsem.c, the slow paths).
 *
 * Included by <linux/rwsem.h> after its struct rw_semaphore, which
 * starts with the same fields in both builds; never include it
 * directly.
 */
#ifndef _KMUTEX_RWSEM_FAST_H
#define _KMUTEX_RWSEM_FAST_H

#ifndef _LINUX_RWSEM_H
#error "include <linux/rwsem.h>, not <kmutex/rwsem_fast.h>"
#endif

#include <limits.h>
#include <stdbool.h>
#include <kmutex/compiler.h>
#include <kmutex/atomic_fast.h>

__KMUTEX_BEGIN_DECLS

/*
 * The sign bit of count is not part of the readers' field (bits 8..30):
 * a reader whose bias sets it, one more than RWSEM_READERS_MAX readers
 * holding the rwsem or passing through its slow path, fails its fast
 * path, and the slow path aborts saying so rather than go on with a
 * count that reads as "not held" (the kernel's count is 64-bit; its
 * 32-bit one keeps the same sign bit, RWSEM_FLAG_READFAIL, for the same
 * reason: kernel/locking/rwsem.c).  down_read_trylock() fails instead.
 */
#define RWSEM_FLAG_READFAIL	INT_MIN
#define RWSEM_READERS_MAX	(INT_MAX >> RWSEM_READER_SHIFT)	/* 8388607 */
#define __KMUTEX_RWSEM_READ_FAILED_MASK \
	(RWSEM_WRITER_LOCKED | RWSEM_FLAG_WAITERS | RWSEM_FLAG_READFAIL)

/* The library's slow paths (src/rwsem.c). */
int kmutex_down_read_slowpath(struct rw_semaphore *sem, int intr);
int kmutex_down_write_slowpath(struct rw_semaphore *sem, int intr);
/* What brought a release to kmutex_rwsem_wake(). */
#define __KMUTEX_RWSEM_UP_READ		0
#define __KMUTEX_RWSEM_UP_WRITE		1
#define __KMUTEX_RWSEM_DOWNGRADE	2
void kmutex_rwsem_wake(struct rw_semaphore *sem, int op);

/*
 * Take @sem for reading (@read) or writing; @intr: a signal handler
 * makes the wait return -EINTR.  A reader is one fetch-and-add that
 * fails on a writer, on waiters or on too many readers (it then carries
 * its bias into the slow path); a writer is CAS 0 -> WRITER_LOCKED.
 */
static __kmutex_inline int __kmutex_rwsem_down(struct rw_semaphore *sem, int read,
				      int intr)
{
	int c = 0;

	if (read) {
		/* ACQUIRE pairs with the writer's RELEASE in
		 * __kmutex_rwsem_up() or kmutex_rwsem_wake(). */
		c = __kmutex_add_acquire(&sem->count, RWSEM_READER_BIAS);
		if (__kmutex_likely(!(c & __KMUTEX_RWSEM_READ_FAILED_MASK)))
			return 0;
		return kmutex_down_read_slowpath(sem, intr);
	}
	/* ACQUIRE pairs with the RELEASE of the last reader or writer out. */
	if (__kmutex_likely(__kmutex_cas_acquire(&sem->count, &c,
						 RWSEM_WRITER_LOCKED)))
		return 0;
	return kmutex_down_write_slowpath(sem, intr);
}

/*
 * Take @sem for reading or writing only if that needs no wait.  A read
 * fails also when RWSEM_READERS_MAX readers hold it already.
 */
static __kmutex_inline bool __kmutex_rwsem_trylock(struct rw_semaphore *sem,
					  int read)
{
	/* RELAXED: only the CAS's first guess; the CAS acquires. */
	int c = read ? __atomic_load_n(&sem->count, __ATOMIC_RELAXED) : 0;

	if (!read)
		return __kmutex_cas_acquire(&sem->count, &c,
					    RWSEM_WRITER_LOCKED);
	while (!(c & __KMUTEX_RWSEM_READ_FAILED_MASK)) {
		if ((c >> RWSEM_READER_SHIFT) == RWSEM_READERS_MAX)
			return false;	/* one more would set READFAIL */
		if (__kmutex_cas_acquire(&sem->count, &c,
					 c + RWSEM_READER_BIAS))
			return true;
	}
	return false;
}

/*
 * Release a read or the write lock.  The last reader out with flags
 * left (waiters), a writer whose CAS back to 0 fails, or misuse, go to
 * kmutex_rwsem_wake().
 */
static __kmutex_inline void __kmutex_rwsem_up(struct rw_semaphore *sem, int read)
{
	int c = RWSEM_WRITER_LOCKED;

	/*
	 * RELEASE pairs with the ACQUIRE of the writer (or reader) that
	 * next reads count: the fast paths above, the slow paths' RMWs.
	 */
	if (read) {
		c = __kmutex_add_release(&sem->count, -RWSEM_READER_BIAS);
		if (__kmutex_unlikely(c < RWSEM_READER_BIAS && c != 0))
			kmutex_rwsem_wake(sem, __KMUTEX_RWSEM_UP_READ);
	} else if (__kmutex_unlikely(!__kmutex_cas_release(&sem->count,
							   &c, 0))) {
		kmutex_rwsem_wake(sem, __KMUTEX_RWSEM_UP_WRITE);
	}
}

/* The write lock becomes a read lock; waiting readers may join. */
static __kmutex_inline void __kmutex_rwsem_downgrade(struct rw_semaphore *sem)
{
	/* RELEASE: readers let in now see the writer's critical section. */
	int c = __kmutex_add_release(&sem->count,
			RWSEM_READER_BIAS - RWSEM_WRITER_LOCKED);

	if (__kmutex_unlikely(c & (RWSEM_FLAG_WAITERS | RWSEM_WRITER_LOCKED)))
		kmutex_rwsem_wake(sem, __KMUTEX_RWSEM_DOWNGRADE);
}

__KMUTEX_END_DECLS

#endif /* _KMUTEX_RWSEM_FAST_H */
