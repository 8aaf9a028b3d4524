/* SPDX-License-Identifier: MIT */
/*
 * kmutex/valgrind.h - tell Valgrind's Helgrind and DRD about kmutex's
 * locks.
 *
 * Like ThreadSanitizer (kmutex/tsan.h), Helgrind and DRD know the
 * pthread locks by intercepting them and see a lock built on atomics
 * and futex(2) only as racy memory.  So the same hook points in the
 * inline fast paths report each lock operation to them as client
 * requests: a mutex or rwsem is a reader-writer lock to them
 * (ANNOTATE_RWLOCK_ACQUIRED/RELEASED, which both tools understand, and
 * which feed Helgrind's lock-order checker); up() and complete() are a
 * happens-before edge to the down() or wait they end.  The library
 * also hides its own words (the lock object, the waiters' nodes) from
 * the race checkers, and nothing else.
 *
 * The requests are issued by the library (src/valgrind.c), only when
 * the program runs under Helgrind or DRD: natively, the whole cost in
 * a fast path is one load of __kmutex_valgrind and a branch that is
 * never taken.  -DKMUTEX_VALGRIND=0 removes even that.
 */
#ifndef _KMUTEX_VALGRIND_H
#define _KMUTEX_VALGRIND_H

#include <kmutex/compiler.h>

__KMUTEX_BEGIN_DECLS

#ifndef KMUTEX_VALGRIND
#define KMUTEX_VALGRIND 1
#endif

#if KMUTEX_VALGRIND

/*
 * Nonzero while the program runs under Helgrind or DRD (or before the
 * library's constructor has looked); 0 natively and under other tools.
 */
extern int __kmutex_valgrind;

void __kmutex_vg_create(void *obj, unsigned long size);
void __kmutex_vg_destroy(void *obj, unsigned long size);
void __kmutex_vg_acquired(void *obj, unsigned long size, int write);
void __kmutex_vg_released(void *obj, unsigned long size, int write);
void __kmutex_vg_happens_before(void *obj, unsigned long size);
void __kmutex_vg_happens_after(void *obj, unsigned long size);

#define __kmutex_vg(call)						\
	do {								\
		if (__kmutex_unlikely(__kmutex_valgrind))		\
			call;						\
	} while (0)

#else /* !KMUTEX_VALGRIND */

#define __kmutex_vg(call)	do { } while (0)

#endif /* KMUTEX_VALGRIND */

/*
 * What the hooks (kmutex/hooks.h) call when TSan is off.  @size is
 * sizeof the lock object, all of which is the library's own memory.
 * @write: 0 for a reader's hold of an rwsem.  Nothing is sent before a
 * lock is taken: one test of the flag per operation, after the atomic
 * that takes the lock and before the one that releases it.
 */
static inline void __kmutex_vg_post_lock(void *m, unsigned long size,
					 int write, bool ok)
{
	(void)m; (void)size; (void)write; (void)ok;
	__kmutex_vg(if (ok) __kmutex_vg_acquired(m, size, write));
}

static inline void __kmutex_vg_pre_unlock(void *m, unsigned long size,
					  int write)
{
	(void)m; (void)size; (void)write;
	__kmutex_vg(__kmutex_vg_released(m, size, write));
}

static inline void __kmutex_vg_init(void *m, unsigned long size)
{
	(void)m; (void)size;
	__kmutex_vg(__kmutex_vg_create(m, size));
}

static inline void __kmutex_vg_fini(void *m, unsigned long size)
{
	(void)m; (void)size;
	__kmutex_vg(__kmutex_vg_destroy(m, size));
}

/* up(), complete(): what this thread did so far is handed over. */
static inline void __kmutex_vg_release(void *m, unsigned long size)
{
	(void)m; (void)size;
	__kmutex_vg(__kmutex_vg_happens_before(m, size));
}

/* A down() or wait that succeeded (@ok) takes the hand-over. */
static inline void __kmutex_vg_acquire(void *m, unsigned long size, bool ok)
{
	(void)m; (void)size; (void)ok;
	__kmutex_vg(if (ok) __kmutex_vg_happens_after(m, size));
}

__KMUTEX_END_DECLS

#endif /* _KMUTEX_VALGRIND_H */
