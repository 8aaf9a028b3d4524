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
 * This is one consumer of the hook points (kmutex/hooks.h), which the
 * locks call: without TSan they serve Valgrind's Helgrind and DRD
 * instead (kmutex/valgrind.h).
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

#endif /* KMUTEX_TSAN */

__KMUTEX_END_DECLS

#endif /* _KMUTEX_TSAN_H */
