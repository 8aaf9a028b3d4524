/* SPDX-License-Identifier: MIT */
/*
 * lockdep_map_lock.h - a program's own lock type, a spin lock, annotated
 * for lockdep as the kernel's are: a struct lockdep_map dep_map member,
 * lockdep_init_map() at init, lock_acquire()/lock_release() around the
 * lock.  For the tests of the lockdep_map interface (both builds).
 */
#ifndef _KMUTEX_TESTS_LOCKDEP_MAP_LOCK_H
#define _KMUTEX_TESTS_LOCKDEP_MAP_LOCK_H

#include <linux/mutex.h>

#define TEST_RET_IP	((unsigned long)__builtin_return_address(0))

struct my_spinlock {
	int locked;
	struct lockdep_map dep_map;
};

/* One class per init site, as the kernel's spin_lock_init(). */
#define my_spin_lock_init(l)						\
	do {								\
		static struct lock_class_key __key;			\
									\
		(l)->locked = 0;					\
		lockdep_init_map(&(l)->dep_map, #l, &__key, 0);	\
	} while (0)

static __attribute__((noinline, unused)) void
my_spin_lock(struct my_spinlock *l)
{
	lock_acquire(&l->dep_map, 0, 0, 0, 1, NULL, TEST_RET_IP);
	while (__atomic_exchange_n(&l->locked, 1, __ATOMIC_ACQUIRE))
		;
	lock_acquired(&l->dep_map, TEST_RET_IP);
}

static __attribute__((noinline, unused)) void
my_spin_unlock(struct my_spinlock *l)
{
	lock_release(&l->dep_map, TEST_RET_IP);
	__atomic_store_n(&l->locked, 0, __ATOMIC_RELEASE);
}

#endif
