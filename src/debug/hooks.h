/* SPDX-License-Identifier: MIT */
/*
 * hooks.h - the debugging build's hook points: what each checked entry
 * point (mutex.c, rwsem.c, ww.c, map.c) tells of a lock, one call per
 * event, as the kernel's lock types call lock_acquire(), lock_contended(),
 * lock_acquired() and lock_release() on their lockdep_map:
 *
 *	kernel			here			consumers
 *	lock_acquire()		dep_hook_acquire()	lockdep, lock_stat
 *				dep_hook_taken()	held stack, lock_stat
 *	lock_contended()	dep_hook_contended()	lock_stat
 *	lock_acquired()		dep_hook_acquired()	lock_stat
 *	lock_release()		dep_hook_release()	held stack, lock_stat
 *
 * The kernel's lock_acquire() checks and records at once, before the
 * lock is taken.  Here the record waits for the lock (dep_hook_taken()),
 * as a kmutex lock call may fail (-EINTR, a trylock); a program's own
 * lock (lock_acquire(), map.c) calls both at once.
 *
 * The kmutex locks' contention is seen by their slow paths, whose
 * HOOK_WAIT() (src/hooks.h) is lock_contended() .. lock_acquired():
 * dep_hook_acquire() names the program's call site and lock class to it
 * (hook_caller()).  A program's own lock has no slow path here, so it
 * calls lock_contended() and lock_acquired() (map.c), which time its wait
 * in its held entry, for the class's statistics (stat_class.c).
 *
 * The race checkers' hooks (include/kmutex/hooks.h: TSan, Helgrind/DRD)
 * stay in the raw operations (mutex.c raw_lock() ...), around the atomic
 * they describe, as in the production build's inline fast paths; the
 * checker's own work is outside them.  docs/design.md, "Instrumentation
 * hooks".
 */
#ifndef _KMUTEX_SRC_DEBUG_HOOKS_H
#define _KMUTEX_SRC_DEBUG_HOOKS_H

#include "debug.h"
#include "../cpu.h"
#include "../hooks.h"

/*
 * The blocking part of dep_hook_acquire(): recursion, lock order, and
 * the call site and class for the wait of @lock's slow path (NULL: no
 * slow path here, a program's own lock).  ww.c calls it alone: a
 * ww_mutex's nest lock is its context, checked there.
 */
static inline void dep_hook_order(struct kmutex_thread *t,
				  struct held_lock *next,
				  struct held_lock *prev,
				  const struct kmutex_dep_map *nest,
				  const void *lock)
{
	lock_check_order(t, prev, next, nest);
	if (lock)
		hook_caller(lock, next->ip, next->class);
}

/**
 * dep_hook_acquire - lock_acquire(): @t is about to take @lock
 * @t: the calling thread
 * @next: the held entry of @lock, filled in (held_fill() and the kind's
 *	fields)
 * @prev: this thread's live entry for @lock, or NULL
 * @nest: the nest lock the caller named, or NULL
 * @order: check recursion and lock order: a call that may block
 * @lock: the lock, for lock_stat's call site of its slow path; NULL
 *	for a program's own lock
 *
 * Reports a lock taken in a signal handler, a nest lock not held, then
 * (@order) a recursive lock or a new chain that closes a cycle, all
 * before the call may block.  A trylock does not block: no order check.
 */
static inline void dep_hook_acquire(struct kmutex_thread *t,
				    struct held_lock *next,
				    struct held_lock *prev,
				    const struct kmutex_dep_map *nest,
				    bool order, const void *lock)
{
	lock_check_handler(t, next);
	if (__kmutex_unlikely(nest != NULL))
		nest = nest_lock_check(t, next, nest);
	if (order)
		dep_hook_order(t, next, prev, nest, lock);
}

/**
 * dep_hook_taken - the lock of @next is taken: record it
 * @t: the calling thread
 * @next: its held entry, as dep_hook_acquire() saw it
 *
 * The thread is its holder (a writer's tid in its owner field), the
 * entry goes on the held stack, and lock_stat counts the acquisition
 * and starts the hold time.
 */
static inline void dep_hook_taken(struct kmutex_thread *t,
				  struct held_lock *next)
{
	lock_taken(t, next);
}

/**
 * dep_hook_contended - lock_contended(): the holder of @h waits for it
 * @h: the thread's held entry, pushed by the lock_acquire() before
 *
 * lock_stat times the wait, with statistics on; dep_hook_acquired()
 * ends it.
 */
static inline void dep_hook_contended(struct held_lock *h)
{
	if (__kmutex_unlikely(__atomic_load_n(&stat_on, __ATOMIC_RELAXED)))
		h->stat_wait_t0 = now_ns() | 1;	/* never 0: not waiting */
}

/**
 * dep_hook_acquired - lock_acquired(): the wait of @h ended, lock taken
 * @h: the thread's held entry
 *
 * A wait timed by dep_hook_contended() is one contention of the class,
 * and, as the kernel's lock_stat, the hold starts now.
 */
static inline void dep_hook_acquired(struct held_lock *h)
{
	if (__kmutex_unlikely(h->stat_wait_t0 != 0))
		class_stat_waited(h);
}

/**
 * dep_hook_release - lock_release(): the thread released @h's lock
 * @t: the calling thread
 * @h: its held entry
 *
 * Off the held stack; lock_stat adds the hold time.
 */
static inline void dep_hook_release(struct kmutex_thread *t,
				    struct held_lock *h)
{
	held_release(t, h);
}

#endif /* _KMUTEX_SRC_DEBUG_HOOKS_H */
