/* SPDX-License-Identifier: MIT */
/*
 * hooks.h - the hook points of the library's slow paths: contention,
 * which the inline fast paths cannot see.  The fast paths' own hooks
 * (acquire, acquired, release ...: the race checkers) are in
 * include/kmutex/hooks.h.
 *
 * The kernel's lock_contended() and lock_acquired() (lockdep.h), which
 * lock_stat implements: here a slow path's exported entry point does
 *
 *	return HOOK_WAIT(lock, kind, slow path call);
 *
 * which is hook_contended() at entry and hook_acquired() with the call's
 * value at its return.  @kind (enum stat_kind) says what the lock is:
 * which primitive, and for an rwsem which side; whether the wait
 * acquired is read from the value by the kind (0, or > 0 for a
 * completion).  The call site is the exported function's return
 * address, the program's line, as the public lock call is inline there,
 * unless an entry point inside the library (the debugging build's,
 * src/debug/) named it first with hook_caller().  The other points:
 *
 *	hook_caller(lock, ip, cls)	@ip (and the debugging build's
 *					lock class @cls, or NULL) is the
 *					call site of the next wait on @lock
 *	hook_handoff(lock, kind)	a releaser handed @lock to a waiter
 *	hook_clock()			policy_ticks() if a consumer wants
 *					the acquisition's time, else 0: the
 *					spinner reads it before its attempt,
 *					not in the hold; the other paths
 *					just after they took the lock
 *	hook_took(t)			the slow path acquired at @t, the
 *					hook_clock() read before it
 *	hook_sleep()			a waiter goes to sleep
 *
 * Consumer: lock_stat (src/stat.h, stat.c), each hook one predictable
 * branch with statistics off.  A new consumer adds its call to each
 * hook here and its state, if any, to struct hook_wait; the slow paths
 * do not change.  docs/design.md, "Instrumentation hooks".
 */
#ifndef _KMUTEX_SRC_HOOKS_H
#define _KMUTEX_SRC_HOOKS_H

#include <kmutex/compiler.h>

#include "stat.h"

/* One wait, on the slow path's stack: each consumer's state. */
struct hook_wait {
	struct stat_wait stat;
};

static __kmutex_inline void hook_contended(struct hook_wait *w,
					   const void *lock, const void *ip)
{
	stat_hook_contended(&w->stat, lock, ip);
}

static __kmutex_inline void hook_acquired(struct hook_wait *w,
					  const void *lock,
					  enum stat_kind kind, long ret)
{
	stat_hook_acquired(&w->stat, lock, kind, ret);
}

/* @call's value (long), as a wait on @lock of @kind. */
#define HOOK_WAIT(lock, kind, call)					\
	({								\
		struct hook_wait __hw;					\
		long __hr;						\
									\
		hook_contended(&__hw, (lock), __builtin_return_address(0)); \
		__hr = (call);						\
		hook_acquired(&__hw, (lock), (kind), __hr);		\
		__hr;							\
	})

static __kmutex_inline void hook_caller(const void *lock, const void *ip,
					void *cls)
{
	stat_hook_caller(lock, ip, cls);
}

static __kmutex_inline void hook_handoff(const void *lock,
					 enum stat_kind kind)
{
	stat_hook_handoff(lock, kind);
}

static __kmutex_inline uint64_t hook_clock(void)
{
	return stat_hook_clock();
}

static __kmutex_inline void hook_took(uint64_t t)
{
	stat_hook_took(t);
}

static __kmutex_inline void hook_sleep(void)
{
	stat_hook_sleep();
}

#endif /* _KMUTEX_SRC_HOOKS_H */
