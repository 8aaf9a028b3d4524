// SPDX-License-Identifier: MIT
/*
 * completion.c - struct completion (see <linux/completion.h>).
 *
 * complete() with a waiter hands the completion to it directly (it is
 * dequeued and woken with WAITER_HANDOFF); a waiter that times out or is
 * interrupted re-checks that state under wait_lock before leaving, so a
 * completion handed to it as it gave up is kept, never lost.
 */
#include "api.h"

#include <errno.h>
#include <limits.h>

#include <linux/completion.h>

#include "list.h"
#include "wait_lock.h"
#include "waiter.h"

/* Under wait_lock: consume one completion if there is one. */
static bool completion_take(struct completion *x)
{
	unsigned int done = __atomic_load_n(&x->done, __ATOMIC_RELAXED);

	if (!done)
		return false;
	if (done != UINT_MAX)
		__atomic_store_n(&x->done, done - 1, __ATOMIC_RELAXED);
	return true;
}

/**
 * kmutex_wait_for_completion - the wait_for_completion*() family
 * @x: the completion
 * @intr: whether a signal handler ends the wait (-EINTR)
 * @timeout: the longest wait in jiffies (ms), MAX_SCHEDULE_TIMEOUT for
 *	no limit
 *
 * Return: -EINTR, 0 on timeout, else the jiffies left (at least 1).
 */
KMUTEX_API long kmutex_wait_for_completion(struct completion *x, int intr,
					   long timeout)
{
	struct kmutex_waiter w = { .state = WAITER_SLEEPING };
	bool forever = timeout == MAX_SCHEDULE_TIMEOUT;
	struct timespec deadline;
	int ret;

	wait_lock_acquire(&x->wait_lock);
	if (completion_take(x)) {
		wait_lock_release(&x->wait_lock);
		return timeout > 0 ? timeout : 1;
	}
	if (timeout <= 0) {
		wait_lock_release(&x->wait_lock);
		return 0;
	}
	if (!forever)
		deadline = deadline_after_ms(timeout);
	list_add_tail(&w.node, &x->wait_list);
	wait_lock_release(&x->wait_lock);

	ret = waiter_sleep(&w, intr, forever ? NULL : &deadline);
	/*
	 * Take wait_lock even when completed: complete() still holds it
	 * after telling us, and the caller may free the completion as soon
	 * as we return (DECLARE_COMPLETION_ONSTACK): we must not return
	 * before complete() is done with it, as in the kernel.
	 */
	wait_lock_acquire(&x->wait_lock);
	if (ret && waiter_state(&w) == WAITER_HANDOFF)
		ret = 0;	/* completed as we gave up: keep it */
	else if (ret)
		list_del(&w.node);
	wait_lock_release(&x->wait_lock);
	if (ret == -EINTR)
		return -EINTR;
	if (ret == -ETIMEDOUT)
		return 0;
	if (forever)
		return timeout;
	timeout = ms_until(&deadline);
	return timeout > 0 ? timeout : 1;
}

/**
 * kmutex_try_wait_for_completion - try_wait_for_completion() once done
 *	was seen non-zero
 * @x: the completion
 *
 * Return: true if a completion was consumed.
 */
KMUTEX_API bool kmutex_try_wait_for_completion(struct completion *x)
{
	bool got;

	wait_lock_acquire(&x->wait_lock);
	got = completion_take(x);
	wait_lock_release(&x->wait_lock);
	return got;
}

/**
 * kmutex_completion_done_sync - wait until complete() is done with @x
 * @x: a completion seen done
 *
 * completion_done() may be followed at once by freeing @x; the
 * complete() that made it done may still hold wait_lock (the kernel
 * serialises the same way).
 */
KMUTEX_API void kmutex_completion_done_sync(struct completion *x)
{
	wait_lock_acquire(&x->wait_lock);
	wait_lock_release(&x->wait_lock);
}

/**
 * kmutex_complete - complete() and complete_all()
 * @x: the completion
 * @all: wake every waiter and stay done until reinit_completion()
 */
KMUTEX_API void kmutex_complete(struct completion *x, int all)
{
	struct kmutex_waiter *w;
	struct wake_q q = { 0 };
	unsigned int done;

	wait_lock_acquire(&x->wait_lock);
	if (all)
		__atomic_store_n(&x->done, UINT_MAX, __ATOMIC_RELEASE);
	while ((w = list_first_entry_or_null(&x->wait_list,
					     struct kmutex_waiter, node))) {
		list_del(&w->node);
		wake_q_grant(&q, w);	/* it consumes this complete() */
		if (!all)
			break;
	}
	done = __atomic_load_n(&x->done, __ATOMIC_RELAXED);
	if (!all && !w && done < UINT_MAX - 1)	/* UINT_MAX means "all" */
		__atomic_store_n(&x->done, done + 1, __ATOMIC_RELEASE);
	wait_lock_release(&x->wait_lock);
	wake_q_wake(&q);
}
