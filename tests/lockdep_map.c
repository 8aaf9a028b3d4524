// SPDX-License-Identifier: MIT
/*
 * lockdep_map - the production build: the lockdep_map interface and the
 * asserts compile for a program's own lock type and for objects of any
 * type, cost nothing and say nothing, even where the debugging build
 * reports (the same sequences as tests/debug_lockdep_map_*.c).
 */
#include <linux/rwsem.h>

#include "harness.h"
#include "lockdep_map_lock.h"

static DEFINE_MUTEX(big);
static struct my_spinlock spin;
static struct lock_class_key work_key;
static struct lockdep_map work_map =
	STATIC_LOCKDEP_MAP_INIT("work_map", &work_key);

struct plain {
	int x;
};

int main(void)
{
	struct plain p = { 0 };

	my_spin_lock_init(&spin);
	lockdep_set_class(&spin, &work_key);
	lockdep_set_novalidate_class(&p);
	my_spin_lock(&spin);		/* ABBA with big */
	mutex_lock(&big);
	mutex_unlock(&big);
	my_spin_unlock(&spin);
	mutex_lock(&big);
	my_spin_lock(&spin);
	lockdep_assert_not_held(&spin);	/* wrong, and silent */
	my_spin_unlock(&spin);
	mutex_unlock(&big);
	lockdep_assert_held(&spin);	/* wrong, and silent */
	lockdep_assert_held_write(&p);
	lockdep_assert_held_read(&p);
	lockdep_assert_held_once(&big);
	CHECK(lockdep_is_held(&spin));	/* production: always "yes" */
	lock_map_acquire(&work_map);
	lock_map_acquire_read(&work_map);
	lock_contended(&work_map, TEST_RET_IP);
	lock_acquired(&work_map, TEST_RET_IP);
	lock_map_release(&work_map);
	lock_release(&work_map, TEST_RET_IP);	/* unbalanced, and silent */
	CHECK(sizeof(struct lockdep_map) <= sizeof(long));
	return 0;
}
