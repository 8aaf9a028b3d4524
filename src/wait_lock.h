/* SPDX-License-Identifier: MIT */
/*
 * wait_lock.h - the small lock that protects a kmutex wait list.
 *
 * The kernel uses a spinlock here, which is safe there because its
 * holder cannot be preempted.  In userspace it can: a pure spinlock
 * would make every other thread burn its time slice while the holder is
 * off the CPU.  So this is a three-state futex lock (0 free, 1 held,
 * 2 held with sleepers, after Drepper's "Futexes Are Tricky", mutex #3)
 * that spins briefly by reading and then sleeps.  Sections under it are
 * a few list operations long.
 */
#ifndef _KMUTEX_SRC_WAIT_LOCK_H
#define _KMUTEX_SRC_WAIT_LOCK_H

#include <stdbool.h>
#include "valgrind.h"

void wait_lock_acquire_slow(int *wl);
void wait_lock_wake(int *wl);

static inline void wait_lock_acquire(int *wl)
{
	int free = 0;

	vg_hook(vg_ignore_header(wl));
	if (!__atomic_compare_exchange_n(wl, &free, 1, false,
					 __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
		wait_lock_acquire_slow(wl);
}

static inline void wait_lock_release(int *wl)
{
	if (__atomic_exchange_n(wl, 0, __ATOMIC_RELEASE) == 2)
		wait_lock_wake(wl);
}

#endif /* _KMUTEX_SRC_WAIT_LOCK_H */
