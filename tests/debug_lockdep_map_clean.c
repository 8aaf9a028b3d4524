// SPDX-License-Identifier: MIT
/*
 * debug_lockdep_map_clean - the lockdep_map interface used correctly is
 * silent: a program's own lock nested in one order with a mutex, the
 * asserts holding, lockdep_is_held() right, a fake lock taken for
 * recursive reading twice, lockdep_set_class() and lockdep_assert_held()
 * on objects of any type (one without a dep_map is not checked).
 */
#include "debug_harness.h"
#include "lockdep_map_lock.h"
#include <linux/rwsem.h>

static DEFINE_MUTEX(big);
static DECLARE_RWSEM(sem);
static struct my_spinlock spin, other;
static struct lock_class_key other_key;
static struct lock_class_key read_key;
static struct lockdep_map read_map =
	STATIC_LOCKDEP_MAP_INIT("read_map", &read_key);

struct plain {
	int x;
};

static void clean(void)
{
	struct plain p = { 0 };
	int i;

	my_spin_lock_init(&spin);
	my_spin_lock_init(&other);
	lockdep_set_class(&other, &other_key);
	lockdep_set_class(&p, &other_key);	/* no map: nothing */
	lockdep_set_novalidate_class(&p);
	for (i = 0; i < 2; i++) {
		CHECK(!lockdep_is_held(&spin));
		mutex_lock(&big);
		my_spin_lock(&spin);
		my_spin_lock(&other);	/* another class: no recursion */
		lockdep_assert_held(&spin);
		lockdep_assert_held_once(&spin);
		lockdep_assert_held_write(&spin);
		lockdep_assert_held(&big);
		lockdep_assert_held(&p);	/* no map: not checked */
		CHECK(lockdep_is_held(&spin));
		CHECK(lockdep_is_held(&spin.dep_map));
		my_spin_unlock(&other);
		my_spin_unlock(&spin);
		mutex_unlock(&big);
		lockdep_assert_not_held(&spin);
		lockdep_assert_not_held(&big);
		down_read(&sem);
		lockdep_assert_held_read(&sem);
		up_read(&sem);
		down_write(&sem);
		lockdep_assert_held_write(&sem);
		up_write(&sem);
		lock_map_acquire_read(&read_map);
		lock_map_acquire_read(&read_map);
		lock_contended(&read_map, TEST_RET_IP);
		lock_map_release(&read_map);
		lock_map_release(&read_map);
	}
}

DEBUG_EXPECT_CLEAN(clean)
