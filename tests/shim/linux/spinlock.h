/* SPDX-License-Identifier: MIT */
/* A project's <linux/spinlock.h>: raw_spinlock_t and spinlock_t. */
#ifndef __TOOLS_LINUX_SPINLOCK_H
#define __TOOLS_LINUX_SPINLOCK_H

#include <linux/compiler.h>

typedef struct {
	int locked;
} raw_spinlock_t;

#define __RAW_SPIN_LOCK_UNLOCKED(name)	(raw_spinlock_t) { .locked = 0 }

static inline void raw_spin_lock_init(raw_spinlock_t *lock)
{
	lock->locked = 0;
}

static inline void raw_spin_lock(raw_spinlock_t *lock)
{
	while (__atomic_exchange_n(&lock->locked, 1, __ATOMIC_ACQUIRE))
		;
}

static inline void raw_spin_unlock(raw_spinlock_t *lock)
{
	__atomic_store_n(&lock->locked, 0, __ATOMIC_RELEASE);
}

#define spinlock_t		raw_spinlock_t
#define DEFINE_SPINLOCK(x)	spinlock_t x = { 0 }
#define spin_lock_init(x)	raw_spin_lock_init(x)
#define spin_lock(x)		raw_spin_lock(x)
#define spin_unlock(x)		raw_spin_unlock(x)

#endif
