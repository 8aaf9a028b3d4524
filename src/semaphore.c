// SPDX-License-Identifier: MIT
/*
 * semaphore.c - the slow paths of struct semaphore (fast paths and the
 * count encoding: <linux/semaphore.h>).
 *
 * A waiter queues at the tail with count at -1; up() dequeues the first
 * waiter and hands it the unit (WAITER_HANDOFF), so a wake-up always
 * means success.  The woken waiter takes wait_lock once before it
 * returns, so that up() is done with the semaphore before the caller
 * may free it.  A waiter that times out or is interrupted re-checks
 * its state under wait_lock before it leaves: if up() handed it the unit
 * meanwhile, it keeps it and succeeds, so no unit is ever lost.
 */
#include "api.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include <linux/semaphore.h>

#include "list.h"
#include "wait_lock.h"
#include "waiter.h"

/* Under wait_lock: take a unit (true), or make sure count is -1 (false). */
static bool sem_take_or_mark(struct semaphore *sem)
{
	int c = __atomic_load_n(&sem->count, __ATOMIC_RELAXED);

	for (;;) {
		if (c > 0) {
			if (__atomic_compare_exchange_n(&sem->count, &c, c - 1,
					false, __ATOMIC_ACQUIRE,
					__ATOMIC_RELAXED))
				return true;
		} else if (c == 0) {
			if (__atomic_compare_exchange_n(&sem->count, &c, -1,
					false, __ATOMIC_RELAXED,
					__ATOMIC_RELAXED))
				return false;
		} else {
			return false;
		}
	}
}

/* Under wait_lock: with nobody left waiting, fast paths may work again. */
static void sem_unmark_if_idle(struct semaphore *sem)
{
	if (list_empty(&sem->wait_list))
		__atomic_store_n(&sem->count, 0, __ATOMIC_RELAXED);
}

/**
 * kmutex_down_common_slowpath - wait for a unit of a semaphore
 * @sem: the semaphore
 * @intr: whether a signal handler ends the wait (-EINTR)
 * @timeout_ms: the longest wait in ms, or negative for no limit
 *
 * Return: 0 with a unit taken, -EINTR, or -ETIME.
 */
KMUTEX_API int kmutex_down_common_slowpath(struct semaphore *sem, int intr,
					   long timeout_ms)
{
	struct kmutex_waiter w = { .state = WAITER_SLEEPING };
	struct timespec deadline;
	int ret;

	wait_lock_acquire(&sem->wait_lock);
	if (sem_take_or_mark(sem)) {
		wait_lock_release(&sem->wait_lock);
		return 0;
	}
	if (timeout_ms == 0) {
		sem_unmark_if_idle(sem);
		wait_lock_release(&sem->wait_lock);
		return -ETIME;
	}
	if (timeout_ms > 0)
		deadline = deadline_after_ms(timeout_ms);
	list_add_tail(&w.node, &sem->wait_list);
	wait_lock_release(&sem->wait_lock);

	ret = waiter_sleep(&w, intr, timeout_ms > 0 ? &deadline : NULL);
	/*
	 * Even with the unit handed over (ret 0), take wait_lock once: up()
	 * holds it until after it told us, and a semaphore used as a "done"
	 * signal is often freed right after down() returns.
	 */
	wait_lock_acquire(&sem->wait_lock);
	if (waiter_state(&w) == WAITER_HANDOFF) {
		ret = 0;	/* the unit came (maybe as we gave up): keep it */
	} else {
		list_del(&w.node);
		sem_unmark_if_idle(sem);
	}
	wait_lock_release(&sem->wait_lock);
	return ret == -ETIMEDOUT ? -ETIME : ret;
}

/**
 * kmutex_down_slowpath - down() when no unit was free
 * @sem: the semaphore
 */
KMUTEX_API void kmutex_down_slowpath(struct semaphore *sem)
{
	kmutex_down_common_slowpath(sem, 0, -1);
}

/**
 * kmutex_up_slowpath - up() when threads may wait, or count is at its top
 * @sem: the semaphore
 *
 * Hands the unit to the first waiter if there is one.  A count that
 * would pass INT_MAX aborts: wrapping would silently make units vanish.
 */
KMUTEX_API void kmutex_up_slowpath(struct semaphore *sem)
{
	struct kmutex_waiter *w;
	struct wake_q q = { 0 };
	int c;

	wait_lock_acquire(&sem->wait_lock);
	c = __atomic_load_n(&sem->count, __ATOMIC_RELAXED);
	while (c >= 0) {	/* the waiters left since the fast path looked */
		if (c == INT_MAX) {
			fprintf(stderr, "kmutex: up(): semaphore %p count "
				"would pass INT_MAX; aborting\n", (void *)sem);
			abort();
		}
		if (__atomic_compare_exchange_n(&sem->count, &c, c + 1, false,
						__ATOMIC_RELEASE,
						__ATOMIC_RELAXED)) {
			wait_lock_release(&sem->wait_lock);
			return;
		}
	}
	w = list_first_entry_or_null(&sem->wait_list, struct kmutex_waiter,
				     node);
	if (!w) {	/* count -1 but they all left: free the unit */
		__atomic_store_n(&sem->count, 1, __ATOMIC_RELEASE);
		wait_lock_release(&sem->wait_lock);
		return;
	}
	list_del(&w->node);
	sem_unmark_if_idle(sem);
	wake_q_grant(&q, w);
	wait_lock_release(&sem->wait_lock);
	wake_q_wake(&q);
}
