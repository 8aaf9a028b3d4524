/* SPDX-License-Identifier: MIT */
/*
 * kmutex/hooks.h - the instrumentation hook points of the inline API.
 *
 * Every lock operation of every primitive tells these hooks what it
 * does, and only these; the hooks pass it on to the consumers that are
 * built in.  The idea is the kernel's: lockdep, lock_stat and the lock
 * tracepoints all hang off lock_acquire(), lock_contended(),
 * lock_acquired() and lock_release() on a lockdep_map
 * (include/linux/lockdep.h), so a new lock type calls those and a new
 * checker implements them.  Here the inline fast paths call:
 *
 *   __kmutex_hook_create(m)		the lock is initialised
 *   __kmutex_hook_destroy(m)		... and no longer used
 *   __kmutex_hook_acquire(m, flags)	before the attempt to take it
 *   __kmutex_hook_acquired(m, flags, ok)	after it: @ok, taken or not
 *   __kmutex_hook_release(m, flags)	before the atomic that releases
 *   __kmutex_hook_released(m, flags)	after it
 *
 * @flags: __KMUTEX_HOOK_READ (a shared hold of an rwsem) and/or
 * __KMUTEX_HOOK_TRY (a trylock: failing is not an error).
 * Semaphores and completions are not owned: what they carry is a
 * hand-over, everything before up() or complete() happens before what
 * follows the down() or wait it ends:
 *
 *   __kmutex_hook_signal(x)		up(), complete()
 *   __kmutex_hook_signalled(x)		a down() or wait that ended so
 *
 * The forms that return their last argument (__kmutex_hook_locked(),
 * _trylocked(), _downed(), _waited()) wrap a call's value: so a fast
 * path stays one expression.
 *
 * The consumers here are the dynamic race checkers, which must see every
 * operation, fast path included: ThreadSanitizer when the program is
 * built with -fsanitize=thread (kmutex/tsan.h), Valgrind's Helgrind and
 * DRD otherwise (kmutex/valgrind.h: natively one load and an untaken
 * branch per operation, nothing with -DKMUTEX_VALGRIND=0).  Contention,
 * which only the library's slow paths see, has its own hooks there
 * (src/hooks.h: lock_stat).  The debugging build's entry points call
 * the same hooks (src/debug/).  docs/design.md, "Instrumentation hooks",
 * says how to wire a new primitive or a new consumer.
 */
#ifndef _KMUTEX_HOOKS_H
#define _KMUTEX_HOOKS_H

#include <stdbool.h>
#include <kmutex/compiler.h>
#include <kmutex/tsan.h>
#include <kmutex/valgrind.h>

__KMUTEX_BEGIN_DECLS

#ifdef KMUTEX_TSAN

/* ThreadSanitizer: its own flag values, passed straight through. */
#define __KMUTEX_HOOK_READ	__KMUTEX_TSAN_READ
#define __KMUTEX_HOOK_TRY	__KMUTEX_TSAN_TRY

#define __kmutex_hook_create(m)		__kmutex_tsan_create(m)
#define __kmutex_hook_destroy(m)	__kmutex_tsan_destroy(m)
#define __kmutex_hook_acquire(m, flags) \
	__kmutex_tsan_pre_lock((m), (flags))
#define __kmutex_hook_acquired(m, flags, ok) \
	__kmutex_tsan_post_lock((m), (flags), (ok))
#define __kmutex_hook_release(m, flags) \
	__kmutex_tsan_pre_unlock((m), (flags))
#define __kmutex_hook_released(m, flags) \
	__kmutex_tsan_post_unlock((m), (flags))
#define __kmutex_hook_signal(x)		__kmutex_tsan_release(x)
#define __kmutex_hook_signalled_if(x, ok)				\
	do {								\
		if (ok)							\
			__kmutex_tsan_acquire(x);			\
	} while (0)

#else /* !KMUTEX_TSAN */

/*
 * Helgrind and DRD: they need the size of the lock object (all of it
 * is the library's own memory), so these are macros around
 * sizeof(*(m)).  Nothing is sent before a lock is taken, nor after it
 * is released: one test of a flag per operation.
 */
#define __KMUTEX_HOOK_READ	1u
#define __KMUTEX_HOOK_TRY	2u

#define __KMUTEX_HOOK_WRITE(flags)	(!((flags) & __KMUTEX_HOOK_READ))

#define __kmutex_hook_create(m) \
	__kmutex_vg_init((m), sizeof(*(m)))
#define __kmutex_hook_destroy(m)	__kmutex_vg_fini((m), sizeof(*(m)))
#define __kmutex_hook_acquire(m, flags)	((void)(m), (void)(flags))
#define __kmutex_hook_acquired(m, flags, ok)				\
	__kmutex_vg_post_lock((m), sizeof(*(m)), __KMUTEX_HOOK_WRITE(flags), \
			      (ok))
#define __kmutex_hook_release(m, flags)					\
	__kmutex_vg_pre_unlock((m), sizeof(*(m)), __KMUTEX_HOOK_WRITE(flags))
#define __kmutex_hook_released(m, flags)	((void)(m), (void)(flags))
#define __kmutex_hook_signal(x) \
	__kmutex_vg_release((x), sizeof(*(x)))
#define __kmutex_hook_signalled_if(x, ok) \
	__kmutex_vg_acquire((x), sizeof(*(x)), (ok))

#endif /* KMUTEX_TSAN */

/* The hand-over of an up() or complete() is taken. */
#define __kmutex_hook_signalled(x)	__kmutex_hook_signalled_if((x), true)

/* __kmutex_hook_acquired() for a trylock returning 1 or 0: returns it. */
#define __kmutex_hook_trylocked(m, flags, ok) __extension__ ({		\
	int __kmutex_ok = (ok);						\
	__kmutex_hook_acquired((m), (flags), __kmutex_ok);		\
	__kmutex_ok;							\
})

/* __kmutex_hook_acquired() for a lock returning 0 or -errno: returns it. */
#define __kmutex_hook_locked(m, flags, ret) __extension__ ({		\
	int __kmutex_ret = (ret);					\
	__kmutex_hook_acquired((m), (flags), __kmutex_ret == 0);	\
	__kmutex_ret;							\
})

/* @ret from a down() variant: signalled if 0; returns @ret. */
#define __kmutex_hook_downed(x, ret) __extension__ ({			\
	int __kmutex_ret = (ret);					\
	__kmutex_hook_signalled_if((x), __kmutex_ret == 0);		\
	__kmutex_ret;							\
})

/* @v from a completion wait: signalled if it completed (@v > 0). */
#define __kmutex_hook_waited(x, v) __extension__ ({			\
	long __kmutex_v = (v);						\
	__kmutex_hook_signalled_if((x), __kmutex_v > 0);		\
	__kmutex_v;							\
})

__KMUTEX_END_DECLS

#endif /* _KMUTEX_HOOKS_H */
