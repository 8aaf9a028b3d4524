// SPDX-License-Identifier: MIT
/*
 * rwsem.c - the slow paths of struct rw_semaphore (count encoding and
 * fast paths: <linux/rwsem.h>).
 *
 * Rules that make it work:
 *   - RWSEM_FLAG_WAITERS is set and cleared only under wait_lock, and is
 *     set exactly while the wait list is non-empty; with it set, every
 *     fast path fails, so waiters are dealt with under wait_lock only.
 *   - A reader whose fast path failed still carries its bias: under
 *     wait_lock it keeps it (nothing conflicts any more) or sets WAITERS
 *     *before* dropping it (so a writer cannot release by its fast path
 *     in between and leave it asleep), queues, and runs rwsem_grant().
 *   - rwsem_grant() runs after every change that may let the head of the
 *     queue in (a release, a new waiter, a waiter leaving): it hands the
 *     lock to the first writer when nobody holds it, or adds the biases of
 *     the readers at the head of the queue (up to the first writer) when
 *     no writer holds it, dequeues them and wakes them (WAITER_HANDOFF).
 *   - A waiter that is interrupted re-checks its state under wait_lock: a
 *     grant that crossed the signal is kept (the call succeeds).
 */
#include "api.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include <linux/rwsem.h>

#include "list.h"
#include "wait_lock.h"
#include "waiter.h"

#define WAITER_READER	0
#define WAITER_WRITER	1

#define READERS(c)	((c) >> RWSEM_READER_SHIFT)

static void __attribute__((noreturn, cold))
rwsem_fatal(struct rw_semaphore *sem, const char *what)
{
	fprintf(stderr, "kmutex: rw_semaphore %p: %s; aborting\n",
		(void *)sem, what);
	abort();
}

static struct kmutex_waiter *rwsem_first(struct rw_semaphore *sem)
{
	return list_first_entry_or_null(&sem->wait_list,
					struct kmutex_waiter, node);
}

/* Dequeue a granted waiter; it is woken once wait_lock is released. */
static void rwsem_dequeue_granted(struct kmutex_waiter *w, struct wake_q *q)
{
	list_del(&w->node);
	wake_q_grant(q, w);
}

/* Under wait_lock: let the head of the queue in if it can go now. */
static void rwsem_grant(struct rw_semaphore *sem, struct wake_q *q)
{
	struct kmutex_waiter *w = rwsem_first(sem);
	int c = __atomic_load_n(&sem->count, __ATOMIC_RELAXED);

	if (!w || (c & RWSEM_WRITER_LOCKED))
		return;
	if (w->flags == WAITER_WRITER) {
		/* Readers passing a failed fast path may add a bias. */
		do {
			if (READERS(c))
				return;	/* the last of them will come here */
		} while (!__atomic_compare_exchange_n(&sem->count, &c,
				c | RWSEM_WRITER_LOCKED, false,
				__ATOMIC_ACQUIRE, __ATOMIC_RELAXED));
		rwsem_dequeue_granted(w, q);
	} else {
		while (w && w->flags == WAITER_READER) {
			__atomic_fetch_add(&sem->count, RWSEM_READER_BIAS,
					   __ATOMIC_ACQUIRE);
			rwsem_dequeue_granted(w, q);
			w = rwsem_first(sem);
		}
	}
	if (list_empty(&sem->wait_list))
		__atomic_fetch_and(&sem->count, ~RWSEM_FLAG_WAITERS,
				   __ATOMIC_RELAXED);
}

/* Release wait_lock, then wake the threads rwsem_grant() let in. */
static void rwsem_unlock_and_wake(struct rw_semaphore *sem, struct wake_q *q)
{
	wait_lock_release(&sem->wait_lock);
	wake_q_wake(q);
}

/* Queue the caller, grant what can go, sleep; wait_lock held on entry. */
static int rwsem_wait(struct rw_semaphore *sem, struct kmutex_waiter *w,
		      int intr)
{
	struct wake_q q = { 0 };
	int ret;

	list_add_tail(&w->node, &sem->wait_list);
	rwsem_grant(sem, &q);
	rwsem_unlock_and_wake(sem, &q);

	ret = waiter_sleep(w, intr, NULL);
	if (ret == 0)
		return 0;
	wait_lock_acquire(&sem->wait_lock);
	if (waiter_state(w) == WAITER_HANDOFF) {
		ret = 0;	/* granted as the signal came: keep it */
	} else {
		list_del(&w->node);
		/* A writer leaving the head may let readers behind it in. */
		rwsem_grant(sem, &q);
		if (list_empty(&sem->wait_list))
			__atomic_fetch_and(&sem->count, ~RWSEM_FLAG_WAITERS,
					   __ATOMIC_RELAXED);
	}
	rwsem_unlock_and_wake(sem, &q);
	return ret;
}

/**
 * kmutex_down_read_slowpath - down_read() when its fast path failed
 * @sem: the rwsem; the caller's reader bias is already in count
 * @intr: whether a signal handler ends the wait (-EINTR)
 *
 * Return: 0 with a read lock held, or -EINTR.
 */
KMUTEX_API int kmutex_down_read_slowpath(struct rw_semaphore *sem, int intr)
{
	struct kmutex_waiter w = { .state = WAITER_SLEEPING,
				   .flags = WAITER_READER };
	int c;

	wait_lock_acquire(&sem->wait_lock);
	c = __atomic_load_n(&sem->count, __ATOMIC_ACQUIRE);
	if (!(c & (RWSEM_WRITER_LOCKED | RWSEM_FLAG_WAITERS))) {
		wait_lock_release(&sem->wait_lock);
		return 0;	/* the conflict went away: keep our bias */
	}
	__atomic_fetch_or(&sem->count, RWSEM_FLAG_WAITERS, __ATOMIC_RELAXED);
	__atomic_fetch_sub(&sem->count, RWSEM_READER_BIAS, __ATOMIC_RELAXED);
	return rwsem_wait(sem, &w, intr);
}

/**
 * kmutex_down_write_slowpath - down_write() when its fast path failed
 * @sem: the rwsem
 * @intr: whether a signal handler ends the wait (-EINTR)
 *
 * Return: 0 with the write lock held, or -EINTR.
 */
KMUTEX_API int kmutex_down_write_slowpath(struct rw_semaphore *sem, int intr)
{
	struct kmutex_waiter w = { .state = WAITER_SLEEPING,
				   .flags = WAITER_WRITER };
	int unlocked = 0;

	wait_lock_acquire(&sem->wait_lock);
	if (__atomic_compare_exchange_n(&sem->count, &unlocked,
			RWSEM_WRITER_LOCKED, false, __ATOMIC_ACQUIRE,
			__ATOMIC_RELAXED)) {
		wait_lock_release(&sem->wait_lock);
		return 0;
	}
	__atomic_fetch_or(&sem->count, RWSEM_FLAG_WAITERS, __ATOMIC_RELAXED);
	return rwsem_wait(sem, &w, intr);
}

/**
 * kmutex_rwsem_wake - the slow path of up_read(), up_write() and
 *	downgrade_write()
 * @sem: the rwsem
 * @op: which release (__KMUTEX_RWSEM_UP_READ, _UP_WRITE, _DOWNGRADE)
 *
 * Clears the writer bit for up_write(), then lets the head of the queue
 * in.  A release of a rwsem not held that way aborts with a message:
 * going on would let readers and writers in together.
 */
KMUTEX_API void kmutex_rwsem_wake(struct rw_semaphore *sem, int op)
{
	struct wake_q q = { 0 };
	int c = __atomic_load_n(&sem->count, __ATOMIC_RELAXED);

	if (op == __KMUTEX_RWSEM_UP_READ && c < 0)
		rwsem_fatal(sem, "up_read() without a read lock held");
	if (op == __KMUTEX_RWSEM_DOWNGRADE && (c & RWSEM_WRITER_LOCKED))
		rwsem_fatal(sem, "downgrade_write() without the write lock");
	if (op == __KMUTEX_RWSEM_UP_WRITE && !(c & RWSEM_WRITER_LOCKED))
		rwsem_fatal(sem, "up_write() without the write lock");
	wait_lock_acquire(&sem->wait_lock);
	if (op == __KMUTEX_RWSEM_UP_WRITE)
		__atomic_fetch_and(&sem->count, ~RWSEM_WRITER_LOCKED,
				   __ATOMIC_RELEASE);
	rwsem_grant(sem, &q);
	rwsem_unlock_and_wake(sem, &q);
}
