/* SPDX-License-Identifier: MIT */
/*
 * kmutex/tsan.h - tell ThreadSanitizer about kmutex's locks.
 *
 * TSan knows pthread_mutex_t because it intercepts it; a lock built on
 * atomics and futex(2) is invisible to it: it would see the atomics'
 * happens-before edges but not that a critical section excludes
 * another, nor lock order.  So, when compiled with -fsanitize=thread,
 * the inline fast paths (which every lock and unlock passes through,
 * slow path or not) announce each operation through TSan's public mutex
 * interface.  Between pre_ and post_ TSan also ignores this thread's
 * memory accesses, so the lock's own words and wait list raise no
 * reports.
 *
 * Without TSan the helpers serve Valgrind's Helgrind and DRD instead
 * (kmutex/valgrind.h).
 */
#ifndef _KMUTEX_TSAN_H
#define _KMUTEX_TSAN_H

#include <stdbool.h>
#include <kmutex/compiler.h>

#if defined(__SANITIZE_THREAD__)
#define KMUTEX_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define KMUTEX_TSAN 1
#endif
#endif

__KMUTEX_BEGIN_DECLS

#ifdef KMUTEX_TSAN
#include <sanitizer/tsan_interface.h>

#define __KMUTEX_TSAN_READ	__tsan_mutex_read_lock
#define __KMUTEX_TSAN_TRY	__tsan_mutex_try_lock
#define __KMUTEX_TSAN_FAILED	__tsan_mutex_try_lock_failed

static inline void __kmutex_tsan_create(void *m)
{
	__tsan_mutex_create(m, 0);
}

static inline void __kmutex_tsan_destroy(void *m)
{
	__tsan_mutex_destroy(m, 0);
}

/* @flags: __KMUTEX_TSAN_READ and/or __KMUTEX_TSAN_TRY */
static inline void __kmutex_tsan_pre_lock(void *m, unsigned int flags)
{
	__tsan_mutex_pre_lock(m, flags);
}

/* @ok: false if the lock was not taken (trylock failed, -EINTR) */
static inline void __kmutex_tsan_post_lock(void *m, unsigned int flags,
					   bool ok)
{
	/* A failed blocking lock is reported as a failed trylock. */
	if (!ok)
		flags |= __KMUTEX_TSAN_TRY | __KMUTEX_TSAN_FAILED;
	__tsan_mutex_post_lock(m, flags, 0);
}

/* As __kmutex_tsan_post_lock() for a trylock returning 1 or 0. */
static inline int __kmutex_tsan_trylocked(void *m, unsigned int flags, int ok)
{
	__kmutex_tsan_post_lock(m, flags, ok);
	return ok;
}

/* As __kmutex_tsan_post_lock() for a lock that returns 0 or -errno. */
static inline int __kmutex_tsan_locked(void *m, unsigned int flags, int ret)
{
	__kmutex_tsan_post_lock(m, flags, ret == 0);
	return ret;
}

static inline void __kmutex_tsan_pre_unlock(void *m, unsigned int flags)
{
	__tsan_mutex_pre_unlock(m, flags);
}

static inline void __kmutex_tsan_post_unlock(void *m, unsigned int flags)
{
	__tsan_mutex_post_unlock(m, flags);
}

/*
 * Semaphores and completions are not owned, so they are not mutexes to
 * TSan; what matters is the hand-over: everything before up() or
 * complete() happens before what follows the down() or wait it ends.
 */
static inline void __kmutex_tsan_release(void *addr)
{
	__tsan_release(addr);
}

static inline void __kmutex_tsan_acquire(void *addr)
{
	__tsan_acquire(addr);
}

/* @ret from a down() variant: acquire on success (0), return @ret. */
static inline int __kmutex_tsan_acquired(void *addr, int ret)
{
	if (ret == 0)
		__tsan_acquire(addr);
	return ret;
}

/* @v from a completion wait: acquire if it completed (@v > 0). */
static inline long __kmutex_tsan_acquired_pos(void *addr, long v)
{
	if (v > 0)
		__tsan_acquire(addr);
	return v;
}

#else /* !KMUTEX_TSAN */

/*
 * Without TSan the same hook points serve Helgrind and DRD
 * (kmutex/valgrind.h): they need the size of the lock object, so these
 * are macros around sizeof(*(m)).  Natively they cost one load and one
 * untaken branch per operation, or nothing with -DKMUTEX_VALGRIND=0.
 */
#include <kmutex/valgrind.h>

#define __KMUTEX_TSAN_READ	1u
#define __KMUTEX_TSAN_TRY	2u
#define __KMUTEX_TSAN_FAILED	4u

#define __KMUTEX_VG_WRITE(flags)	(!((flags) & __KMUTEX_TSAN_READ))

#define __kmutex_tsan_create(m)	__kmutex_vg_init((m), sizeof(*(m)))
#define __kmutex_tsan_destroy(m)	__kmutex_vg_fini((m), sizeof(*(m)))
#define __kmutex_tsan_pre_lock(m, flags)	((void)(m), (void)(flags))
#define __kmutex_tsan_post_lock(m, flags, ok) \
	__kmutex_vg_post_lock((m), sizeof(*(m)), __KMUTEX_VG_WRITE(flags), (ok))
#define __kmutex_tsan_pre_unlock(m, flags) \
	__kmutex_vg_pre_unlock((m), sizeof(*(m)), __KMUTEX_VG_WRITE(flags))
#define __kmutex_tsan_post_unlock(m, flags)	((void)(m), (void)(flags))
#define __kmutex_tsan_release(m)	__kmutex_vg_release((m), sizeof(*(m)))
#define __kmutex_tsan_acquire(m)	__kmutex_vg_acquire((m), sizeof(*(m)), true)

/* As __kmutex_tsan_post_lock() for a trylock returning 1 or 0. */
#define __kmutex_tsan_trylocked(m, flags, ok) __extension__ ({			\
	int __ok = (ok);						\
	__kmutex_tsan_post_lock((m), (flags), __ok);			\
	__ok;								\
})

/* As __kmutex_tsan_post_lock() for a lock that returns 0 or -errno. */
#define __kmutex_tsan_locked(m, flags, ret) __extension__ ({				\
	int __ret = (ret);						\
	__kmutex_tsan_post_lock((m), (flags), __ret == 0);		\
	__ret;								\
})

/* @ret from a down() variant: acquire on success (0), return @ret. */
#define __kmutex_tsan_acquired(m, ret) __extension__ ({				\
	int __ret = (ret);						\
	__kmutex_vg_acquire((m), sizeof(*(m)), __ret == 0);		\
	__ret;								\
})

/* @v from a completion wait: acquire if it completed (@v > 0). */
#define __kmutex_tsan_acquired_pos(m, v) __extension__ ({				\
	long __v = (v);							\
	__kmutex_vg_acquire((m), sizeof(*(m)), __v > 0);		\
	__v;								\
})

#endif /* KMUTEX_TSAN */

__KMUTEX_END_DECLS

#endif /* _KMUTEX_TSAN_H */
