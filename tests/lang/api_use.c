// SPDX-License-Identifier: MIT
/*
 * api_use.c - one program in the common subset of C11 and C++17 that
 * uses the mutex, the semaphore, the rw_semaphore, the percpu
 * rw_semaphore, the completion and guards (the mutex's and a program's
 * own lock guard), from two threads.  tests/headers_lang.sh compiles
 * it as C with -std=c11 -pedantic and as C++ (-x c++ -std=gnu++17),
 * both with -Wall -Wextra -Werror, links it against the library and
 * runs it: a C++ program links only if the headers give the library's
 * functions C linkage (extern "C").
 */
#include <linux/mutex.h>
#include <linux/rwsem.h>
#include <linux/percpu-rwsem.h>
#include <linux/semaphore.h>
#include <linux/completion.h>
#include <linux/cleanup.h>
#include <pthread.h>
#include <stdio.h>

static DEFINE_MUTEX(lock);
static DECLARE_RWSEM(rw);
/* Count 2: a count-1 one used as a lock gets the debug build's hint. */
static DEFINE_SEMAPHORE(sem, 2);
static DECLARE_COMPLETION(started);
DEFINE_STATIC_PERCPU_RWSEM(prw);
static long counter;
static int guards_taken;

/* A program's own lock guard, with a member kept from lock to unlock. */
DEFINE_LOCK_GUARD_1(counted, struct mutex,
		    mutex_lock(_T->lock); _T->nr = 1,
		    guards_taken += _T->nr; mutex_unlock(_T->lock), int nr)
DEFINE_LOCK_GUARD_1_COND(counted, _try, mutex_trylock(_T->lock))

/* A program's own lock type, annotated for lockdep (lockdep_map). */
struct own_lock {
	int locked;
	struct lockdep_map dep_map;
};
static struct lock_class_key own_key;
static struct lockdep_map fake_map = STATIC_LOCKDEP_MAP_INIT("fake", &own_key);

static void own_lock_use(void)
{
	struct own_lock o;
	struct {
		int x;
	} plain = { 0 };

	o.locked = 0;
	lockdep_init_map(&o.dep_map, "o", &own_key, 0);
	lock_acquire(&o.dep_map, 0, 0, 0, 1, NULL,
		     (unsigned long)__builtin_return_address(0));
	lock_contended(&o.dep_map, 0);
	lock_acquired(&o.dep_map, 0);
	lockdep_assert_held(&o);
	lockdep_assert_held_once(&o);
	lockdep_assert_held_write(&o.dep_map);
	lockdep_assert_held(&plain);
	if (!lockdep_is_held(&o))
		plain.x = 1;
	lock_release(&o.dep_map, 0);
	lockdep_assert_not_held(&o);
	lockdep_set_class(&plain, &own_key);
	lockdep_set_novalidate_class(&plain);
	lock_map_acquire_read(&fake_map);
	lock_map_release(&fake_map);
	lock_map_acquire(&fake_map);
	lock_map_release(&fake_map);
	mutex_lock(&lock);
	lockdep_assert_held(&lock);
	mutex_unlock(&lock);
	(void)plain.x;
}

/* A guard on a lock the caller names (g++ -O2 once warned here). */
static void bump(struct mutex *m, long *n)
{
	scoped_guard(mutex, m)
		(*n)++;
}

static void *worker(void *arg)
{
	int i;

	(void)arg;
	complete(&started);
	for (i = 0; i < 10000; i++) {
		if (i % 2) {
			guard(counted)(&lock);
			counter++;
		} else {
			mutex_lock(&lock);
			counter++;
			mutex_unlock(&lock);
		}
		down(&sem);
		up(&sem);
		down_read(&rw);
		up_read(&rw);
		percpu_down_read(&prw);
		percpu_up_read(&prw);
	}
	return NULL;
}

int main(void)
{
	struct mutex m;
	struct rw_semaphore r;
	struct semaphore s;
	struct completion c;
	pthread_t t;
	int i;

	mutex_init(&m);
	init_rwsem(&r);
	sema_init(&s, 2);
	init_completion(&c);
	if (pthread_create(&t, NULL, worker, NULL) != 0)
		return 1;
	wait_for_completion(&started);
	for (i = 0; i < 10000; i++) {
		bump(&lock, &counter);
		down_write(&rw);
		up_write(&rw);
		if (i % 1000 == 0) {
			percpu_down_write(&prw);
			percpu_up_write(&prw);
		}
	}
	pthread_join(t, NULL);
	if (counter != 20000 || guards_taken != 5000)
		return 2;
	scoped_guard(counted_try, &lock)
		counter++;
	if (counter != 20001 || guards_taken != 5000 || mutex_is_locked(&lock))
		return 2;
	if (!mutex_trylock(&m) || mutex_trylock(&m))
		return 3;
	mutex_unlock(&m);
	if (down_trylock(&s) || down_trylock(&s) || !down_trylock(&s))
		return 4;
	up(&s);
	up(&s);
	if (!down_write_trylock(&r))
		return 5;
	up_write(&r);
	complete(&c);
	if (wait_for_completion_timeout(&c, msecs_to_jiffies(1000)) == 0)
		return 6;
	{
		struct percpu_rw_semaphore p;

		if (percpu_init_rwsem(&p) != 0 || !percpu_down_read_trylock(&p))
			return 7;
		percpu_up_read(&p);
		percpu_free_rwsem(&p);
	}
	own_lock_use();
	mutex_destroy(&m);
	printf("ok\n");
	return 0;
}
