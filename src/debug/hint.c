// SPDX-License-Identifier: MIT
/*
 * hint.c - the "transition" hint: a semaphore used as a mutex.
 *
 * The kernel turned most of its semaphores into mutexes once struct
 * mutex existed, and its documentation tells how to spot one: a
 * semaphore initialised to 1, each down() released by an up() of the
 * same task.  A mutex does that faster, and the debugging build checks
 * it (lock order, owner, recursion), which it cannot for a semaphore,
 * since any thread may up() one.
 *
 * Per semaphore: the count it was set up with, the thread holding the
 * unit taken by down(), and the pairs seen.  A semaphore set up with a
 * count other than 1, a second down() before the up(), or an up() by a
 * thread that did not take the unit, shows a real semaphore: it is
 * watched no longer.  After HINT_PAIRS clean pairs the hint is printed,
 * once, on stderr: it is not a report (KMUTEX_DEBUG=abort does not
 * abort on it).
 */
#include "../api.h"

#include <linux/semaphore.h>
#include <stdio.h>
#include <unistd.h>

#include "debug.h"

#define HINT_PAIRS	64

enum { WATCHING, NOT_A_MUTEX, HINTED };

static void not_a_mutex(struct semaphore *sem)
{
	__atomic_store_n(&sem->hint_state, NOT_A_MUTEX, __ATOMIC_RELAXED);
}

static bool watching(const struct semaphore *sem)
{
	return !lockdep_recursion && __atomic_load_n(&sem->hint_state,
				__ATOMIC_RELAXED) == WATCHING;
}

static void hint_print(const struct semaphore *sem)
{
	char buf[768];
	int n;

	n = snprintf(buf, sizeof(buf),
		"kmutex-debug: hint: semaphore \"%s\" (init at %s) is used "
		"as a mutex:\n"
		"  set up with count 1, and each of its first %d down()s was "
		"released by an up()\n"
		"  of the same thread.  A struct mutex (DEFINE_MUTEX or "
		"mutex_init, mutex_lock,\n"
		"  mutex_unlock) does this faster, and the debugging build "
		"checks it (lock\n"
		"  order, owner, recursion), which it cannot do for a "
		"semaphore.\n\n",
		sem->map.name ? sem->map.name : "?",
		sem->map.site ? sem->map.site : "?", HINT_PAIRS);
	if (n > 0 && write(2, buf, (size_t)n < sizeof(buf) ? (size_t)n
							   : sizeof(buf) - 1) < 0)
		return;		/* nothing better to do: it is a hint */
}

/**
 * hint_sem_init - a semaphore is set up with @count
 * @sem: the semaphore
 * @count: its count
 */
void hint_sem_init(struct semaphore *sem, int count)
{
	sem->hint_count = count;
	sem->hint_holder = 0;
	sem->hint_pairs = 0;
	sem->hint_state = count == 1 ? WATCHING : NOT_A_MUTEX;
}

/**
 * hint_sem_down - the calling thread took a unit of @sem
 * @sem: the semaphore
 */
void hint_sem_down(struct semaphore *sem)
{
	int none = 0;

	if (__kmutex_likely(!watching(sem)))
		return;
	if (sem->hint_count != 1 ||
	    !__atomic_compare_exchange_n(&sem->hint_holder, &none,
					 lockdep_thread()->tid, false,
					 __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		not_a_mutex(sem);
}

/**
 * hint_sem_up - the calling thread is about to give a unit back
 * @sem: the semaphore
 *
 * Before the up itself: the next down() may come right after it.
 */
void hint_sem_up(struct semaphore *sem)
{
	unsigned int state = WATCHING;
	int self;

	if (__kmutex_likely(!watching(sem)))
		return;
	self = lockdep_thread()->tid;
	if (!__atomic_compare_exchange_n(&sem->hint_holder, &self, 0, false,
					 __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
		not_a_mutex(sem);
		return;
	}
	if (__atomic_add_fetch(&sem->hint_pairs, 1, __ATOMIC_RELAXED) !=
	    HINT_PAIRS)
		return;
	if (__atomic_compare_exchange_n(&sem->hint_state, &state, HINTED,
					false, __ATOMIC_RELAXED,
					__ATOMIC_RELAXED))
		hint_print(sem);
}
