/* SPDX-License-Identifier: MIT */
/*
 * kmutex/lockdep.h - the lockdep annotations kernel code calls.
 *
 * In the production build they compile to nothing (but still evaluate
 * nothing and type-check their arguments loosely, as the kernel's do
 * without CONFIG_LOCKDEP).  The debugging build gives them meaning.
 */
#ifndef _KMUTEX_LOCKDEP_H
#define _KMUTEX_LOCKDEP_H

#include <stddef.h>

/* One per lock class; the debugging build keys classes by its address. */
struct lock_class_key {
	char __kmutex_unused;
};

/* The usual subclass for mutex_lock_nested(): one level of nesting. */
#ifndef SINGLE_DEPTH_NESTING
#define SINGLE_DEPTH_NESTING	1
#endif

#ifndef KMUTEX_DEBUG

/**
 * lockdep_assert_held - assert that the calling thread holds a lock
 * @l: pointer to a mutex or rw_semaphore
 *
 * Production build: does nothing.  The debugging build reports
 * "lockdep_assert_held" failures.
 */
#define lockdep_assert_held(l)			do { (void)(l); } while (0)

/**
 * lockdep_set_class - give a lock a lock class of its own
 * @l: pointer to a mutex or rw_semaphore
 * @key: pointer to a static struct lock_class_key naming the class
 *
 * Production build: does nothing.
 */
#define lockdep_set_class(l, key)		do { (void)(l); (void)(key); } while (0)

/**
 * lockdep_set_novalidate_class - take a lock out of the order checks
 * @l: pointer to a mutex or rw_semaphore
 *
 * Production build: does nothing.
 */
#define lockdep_set_novalidate_class(l)		do { (void)(l); } while (0)

/**
 * debug_check_no_locks_freed - check that no held lock lies in memory
 * @addr: start of the memory about to be freed
 * @len: its length in bytes
 *
 * Production build: does nothing.  The debugging build reports
 * "held lock freed" if a lock held by any thread lies in the range.
 */
static inline void debug_check_no_locks_freed(const void *addr, size_t len)
{
	(void)addr;
	(void)len;
}

/**
 * debug_check_no_locks_held - check that the calling thread holds no lock
 *
 * Production build: does nothing.  The debugging build reports
 * "still has locks held" if the calling thread holds any lock.
 */
static inline void debug_check_no_locks_held(void)
{
}

#endif /* !KMUTEX_DEBUG */

#endif /* _KMUTEX_LOCKDEP_H */
