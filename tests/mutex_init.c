// SPDX-License-Identifier: MIT
/*
 * mutex_init.c - the states of struct mutex and the calls that only
 * annotate.
 *
 * A mutex made by DEFINE_MUTEX, __MUTEX_INITIALIZER or mutex_init starts
 * unlocked; count reads 1 free, 0 held, negative while a thread is
 * blocked in mutex_lock, and 1 again once everyone has unlocked (the
 * contract's "struct mutex" section); mutex_is_locked follows it.  The
 * lockdep annotations and the _nested variants compile and, in the
 * production build, lock plainly or do nothing.
 */
#include <linux/mutex.h>

#include "harness.h"

static DEFINE_MUTEX(defined);
static struct mutex initialised = __MUTEX_INITIALIZER(initialised);

/* Checks that a free mutex reads free, and that lock/unlock work on it. */
static void check_free_then_lock(struct mutex *m)
{
	CHECK_EQ(m->count, 1);
	CHECK(!mutex_is_locked(m));
	mutex_lock(m);
	CHECK_EQ(m->count, 0);
	CHECK(mutex_is_locked(m));
	mutex_unlock(m);
	CHECK_EQ(m->count, 1);
	CHECK(!mutex_is_locked(m));
}

static void *blocked_locker(void *arg)
{
	struct mutex *m = arg;

	mutex_lock(m);
	mutex_unlock(m);
	return NULL;
}

/* While a thread sleeps in mutex_lock, count is negative. */
static void check_contended(struct mutex *m)
{
	pthread_t t;

	mutex_lock(m);
	CHECK(pthread_create(&t, NULL, blocked_locker, m) == 0);
	WAIT_UNTIL(__atomic_load_n(&m->count, __ATOMIC_RELAXED) < 0, 5000);
	WAIT_UNTIL(test_waiters(&m->wait_list) == 1, 5000);
	CHECK(mutex_is_locked(m));
	mutex_unlock(m);
	CHECK(pthread_join(t, NULL) == 0);
	CHECK_EQ(m->count, 1);
	CHECK(!mutex_is_locked(m));
	CHECK_EQ(test_waiters(&m->wait_list), 0);
}

/* The lockdep-only calls: plain locking or nothing in production. */
/*
 * Not checked by clang -Wthread-safety: lock results checked by CHECK_EQ,
 * which the analysis cannot read.
 */
static __no_context_analysis void check_annotations(struct mutex *m)
{
	static struct lock_class_key key;

	lockdep_set_class(m, &key);
	lockdep_set_novalidate_class(m);
	debug_check_no_locks_held();

	mutex_lock_nested(m, 1);
	CHECK_EQ(m->count, 0);
	lockdep_assert_held(m);
	CHECK_EQ(mutex_trylock(m), 0);
	debug_check_no_locks_freed(m, sizeof(*m));
	mutex_unlock(m);
	CHECK_EQ(m->count, 1);

	CHECK_EQ(mutex_lock_interruptible_nested(m, 1), 0);
	CHECK_EQ(m->count, 0);
	mutex_unlock(m);
	CHECK_EQ(mutex_lock_killable_nested(m, 2), 0);
	CHECK_EQ(m->count, 0);
	mutex_unlock(m);
	mutex_lock_nest_lock(m, &defined);
	CHECK_EQ(m->count, 0);
	mutex_unlock(m);
	CHECK_EQ(m->count, 1);
}

int main(void)
{
	struct mutex *heap;
	struct mutex local;

	test_watchdog(30);
#if defined(__x86_64__)
	CHECK(sizeof(struct mutex) <= 32);
#endif
	CHECK_EQ(__builtin_offsetof(struct mutex, count), 0);
	CHECK_EQ(sizeof(((struct mutex *)0)->count), 4);

	check_free_then_lock(&defined);
	check_free_then_lock(&initialised);

	/* mutex_init overwrites whatever was there. */
	memset(&local, 0x5a, sizeof(local));
	mutex_init(&local);
	check_free_then_lock(&local);
	heap = malloc(sizeof(*heap));
	CHECK(heap);
	memset(heap, 0xff, sizeof(*heap));
	mutex_init(heap);
	check_free_then_lock(heap);

	check_contended(&defined);
	check_contended(&initialised);
	check_contended(heap);

	check_annotations(&local);
	mutex_destroy(&local);
	/* A destroyed mutex may be initialised and used again. */
	mutex_init(&local);
	check_free_then_lock(&local);
	mutex_destroy(&local);

	mutex_destroy(heap);
	debug_check_no_locks_freed(heap, sizeof(*heap));
	free(heap);
	debug_check_no_locks_held();
	return 0;
}
