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
 *
 * up() makes a free unit visible (count c >= 0 -> c + 1) only with a
 * lock-free compare-and-swap, as the last touch of the semaphore: a
 * down() may take that unit on its fast path and free the semaphore at
 * once, so nothing may follow (issue 15; tests/race_up_free.c).
 *
 * up() may run in a signal handler that interrupted its own thread
 * inside a down() or up() of the same semaphore, holding wait_lock: it
 * then leaves the unit to that code instead of waiting for the lock
 * (wait_lock_irq_acquire(); tests/signal_release.c).  Both rules are
 * modelled in model/semaphore.pml.
 */
#include "api.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include <linux/semaphore.h>

#include "list.h"
#include "hooks.h"
#include "race.h"
#include "wait_lock.h"
#include "waiter.h"

/* Under wait_lock: take a unit (true), or make sure count is -1 (false). */
static bool sem_take_or_mark(struct semaphore *sem)
{
	/* RELAXED guess; taking a unit ACQUIREs (pairs with up()'s
	 * RELEASE); marking -1 publishes nothing. */
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
	/* RELAXED store: while count is -1 only wait_lock holders change
	 * it (down() and up() fast paths CAS only from c >= 0). */
	if (list_empty(&sem->wait_list))
		__atomic_store_n(&sem->count, 0, __ATOMIC_RELAXED);
}

static void sem_up(struct semaphore *sem);

/* Take wait_lock through @n (see wait_lock_irq_acquire()). */
static void sem_lock(struct semaphore *sem, struct wait_lock_irq *n,
		     const char *site)
{
	wait_lock_irq_acquire(&sem->wait_lock, n);
	wait_list_check(&sem->wait_list, site, "semaphore", sem,
			"DEFINE_SEMAPHORE or sema_init");
}

/*
 * Release wait_lock, wake whom @q holds, then do the up()s that a
 * handler of this thread left in @n meanwhile.  They belong to the call
 * in progress, so @sem is still ours to touch.
 */
static void sem_unlock(struct semaphore *sem, struct wait_lock_irq *n,
		       struct wake_q *q)
{
	unsigned int ups;

	if (!wait_lock_irq_release(&sem->wait_lock, n)) {
		if (q)
			wake_q_wake(q);
		return;
	}
	if (q)
		wake_q_wake(q);
	for (ups = n->deferred; ups; ups--)
		sem_up(sem);
}

/**
 * sem_down_slow - wait for a unit of a semaphore
 * @sem: the semaphore
 * @intr: whether a signal handler ends the wait (-EINTR)
 * @timeout_ms: the longest wait in ms, or negative for no limit
 *
 * Return: 0 with a unit taken, -EINTR, or -ETIME.
 */
static int sem_down_slow(struct semaphore *sem, int intr, long timeout_ms)
{
	struct kmutex_waiter w WAITER_SCOPE;
	struct wait_lock_irq n;
	struct timespec deadline;
	int ret;

	waiter_init(&w, 0);
	sem_lock(sem, &n, intr ? "down_interruptible" :
			  timeout_ms >= 0 ? "down_timeout" : "down");
	if (sem_take_or_mark(sem)) {
		sem_unlock(sem, &n, NULL);
		return 0;
	}
	if (timeout_ms == 0) {
		sem_unmark_if_idle(sem);
		sem_unlock(sem, &n, NULL);
		return -ETIME;
	}
	if (timeout_ms > 0)
		deadline = deadline_after_ms(timeout_ms);
	waiter_stamp(&w, &sem->wait_lock);
	list_add_tail(&w.node, &sem->wait_list);
	sem_unlock(sem, &n, NULL);

	ret = waiter_sleep(&w, intr, timeout_ms > 0 ? &deadline : NULL);
	/*
	 * Even with the unit handed over (ret 0), take wait_lock once: up()
	 * holds it until after it told us, and a semaphore used as a "done"
	 * signal is often freed right after down() returns.
	 */
	sem_lock(sem, &n, "down");
	if (waiter_state(&w) == WAITER_HANDOFF) {
		ret = 0;	/* the unit came (maybe as we gave up): keep it */
	} else {
		list_del(&w.node);
		sem_unmark_if_idle(sem);
	}
	sem_unlock(sem, &n, NULL);
	return ret == -ETIMEDOUT ? -ETIME : ret;
}

/**
 * kmutex_down_common_slowpath - wait for a unit of a semaphore
 * @sem: the semaphore
 * @intr: whether a signal handler ends the wait (-EINTR)
 * @timeout_ms: the longest wait in ms, or negative for no limit
 *
 * sem_down_slow(), counted by the lock statistics (stat.h).
 * Return: 0 with a unit taken, -EINTR, or -ETIME.
 */
KMUTEX_API int kmutex_down_common_slowpath(struct semaphore *sem, int intr,
					   long timeout_ms)
{
	return HOOK_WAIT(sem, STAT_SEMAPHORE,
			 sem_down_slow(sem, intr, timeout_ms));
}

/**
 * kmutex_down_slowpath - down() when no unit was free
 * @sem: the semaphore
 */
KMUTEX_API void kmutex_down_slowpath(struct semaphore *sem)
{
	HOOK_WAIT(sem, STAT_SEMAPHORE, sem_down_slow(sem, 0, -1));
}

/* count -1 under wait_lock: hand the unit to @w, the first waiter. */
static void sem_grant(struct semaphore *sem, struct wait_lock_irq *n,
		      struct kmutex_waiter *w)
{
	struct wake_q q = { 0 };

	list_del(&w->node);
	sem_unmark_if_idle(sem);
	wake_q_grant(&q, w);
	hook_handoff(sem, STAT_SEMAPHORE);
	sem_unlock(sem, n, &q);
}

/*
 * up(), all of it.  A unit is published (count c >= 0 -> c + 1) only by
 * a lock-free compare-and-swap, never under wait_lock: once it is
 * visible, a down() on the fast path may take it and free the
 * semaphore, so publishing must be the last touch of @sem.  With
 * waiters (count -1) the unit goes to the first one under wait_lock; the
 * waiter takes wait_lock once before it returns, so the release of
 * wait_lock is done before it can free the semaphore.
 */
static void sem_up(struct semaphore *sem)
{
	struct wait_lock_irq n, *held;
	struct kmutex_waiter *w;
	/* RELAXED guesses; a unit is published by the CAS's RELEASE, or
	 * handed to a waiter by its state's RELEASE (sem_grant()). */
	int c = __atomic_load_n(&sem->count, __ATOMIC_RELAXED);

	for (;;) {
		while (c >= 0) {
			if (c == INT_MAX) {
				fprintf(stderr, "kmutex: up(): semaphore %p "
					"count would pass INT_MAX; aborting\n",
					(void *)sem);
				abort();
			}
			if (__atomic_compare_exchange_n(&sem->count, &c, c + 1,
							false, __ATOMIC_RELEASE,
							__ATOMIC_RELAXED)) {
				RACE_POINT(KMUTEX_RACE_UP_PUBLISHED);
				return;
			}
		}
		held = wait_lock_irq_find(&sem->wait_lock);
		if (held) {	/* a handler interrupted its thread's holder */
			/* One atomic RMW, which a nested handler cannot split:
			 * an instruction on x86 and LSE aarch64; an LL/SC loop
			 * on ARMv7 and ARMv8.0, which a handler in between
			 * makes retry (the return from it clears the exclusive
			 * monitor).  RELAXED: this thread reads it. */
			__atomic_fetch_add(&held->deferred, 1,
					   __ATOMIC_RELAXED);
			return;
		}
		RACE_POINT(KMUTEX_RACE_UP_LOCKING);
		sem_lock(sem, &n, "up");
		c = __atomic_load_n(&sem->count, __ATOMIC_RELAXED);
		w = c < 0 ? waiter_first(&sem->wait_list) : NULL;
		if (w) {
			sem_grant(sem, &n, w);
			return;
		}
		if (c < 0)	/* only waiters a fork() left behind */
			sem_unmark_if_idle(sem);
		sem_unlock(sem, &n, NULL);
		c = __atomic_load_n(&sem->count, __ATOMIC_RELAXED);
	}
}

/**
 * kmutex_up_slowpath - up() when threads may wait, or count is at its top
 * @sem: the semaphore
 *
 * Hands the unit to the first waiter if there is one.  A count that
 * would pass INT_MAX aborts: wrapping would silently make units vanish.
 * Allowed in a signal handler, also one that interrupted a down() or
 * up() of @sem in its own thread (see wait_lock_irq_acquire()); errno
 * is kept, as a handler's caller expects.
 */
KMUTEX_API void kmutex_up_slowpath(struct semaphore *sem)
{
	int saved_errno = errno;

	sem_up(sem);
	errno = saved_errno;
}
