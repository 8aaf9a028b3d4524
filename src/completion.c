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
#include "hooks.h"
#include "wait_lock.h"
#include "waiter.h"

/*
 * Consume one completion if there is one.  A compare-and-swap, so that a
 * handler that interrupted its own thread's holder of wait_lock can take
 * one without the lock (try_wait_for_completion()); everyone else does
 * it under wait_lock.
 */
static bool completion_take(struct completion *x)
{
	/* ACQUIRE (the CAS's failure too: UINT_MAX may end the loop) pairs
	 * with complete()'s RELEASE CAS and complete_all()'s store. */
	unsigned int done = __atomic_load_n(&x->done, __ATOMIC_ACQUIRE);

	do {
		if (!done)
			return false;
		if (done == UINT_MAX)	/* complete_all(): stays done */
			return true;
	} while (!__atomic_compare_exchange_n(&x->done, &done, done - 1, false,
					      __ATOMIC_ACQUIRE,
					      __ATOMIC_ACQUIRE));
	return true;
}

static void completion_do(struct completion *x, bool all);

static void completion_lock(struct completion *x, struct wait_lock_irq *n,
			    const char *site)
{
	wait_lock_irq_acquire(&x->wait_lock, n);
	wait_list_check(&x->wait_list, site, "completion", x,
			"DECLARE_COMPLETION or init_completion");
}

/*
 * Release wait_lock, wake whom @q holds, then do the complete()s that a
 * handler of this thread left in @n meanwhile: they belong to the call
 * in progress, so @x is still ours to touch.
 */
static void completion_unlock(struct completion *x, struct wait_lock_irq *n,
			      struct wake_q *q)
{
	unsigned int left;

	if (!wait_lock_irq_release(&x->wait_lock, n)) {
		if (q)
			wake_q_wake(q);
		return;
	}
	if (q)
		wake_q_wake(q);
	if (n->deferred_all)
		completion_do(x, true);
	for (left = n->deferred; left; left--)
		completion_do(x, false);
}

/**
 * completion_wait - the wait_for_completion*() family
 * @x: the completion
 * @intr: whether a signal handler ends the wait (-EINTR)
 * @timeout: the longest wait in jiffies (ms), MAX_SCHEDULE_TIMEOUT for
 *	no limit
 *
 * Return: -EINTR, 0 on timeout, else the jiffies left (at least 1).
 */
static long completion_wait(struct completion *x, int intr, long timeout)
{
	struct kmutex_waiter w WAITER_SCOPE;
	bool forever = timeout == MAX_SCHEDULE_TIMEOUT;
	struct wait_lock_irq n;
	struct timespec deadline;
	int ret;

	waiter_init(&w, 0);
	completion_lock(x, &n, "wait_for_completion");
	if (completion_take(x)) {
		completion_unlock(x, &n, NULL);
		return timeout > 0 ? timeout : 1;
	}
	if (timeout <= 0) {
		completion_unlock(x, &n, NULL);
		return 0;
	}
	if (!forever)
		deadline = deadline_after_ms(timeout);
	waiter_stamp(&w, &x->wait_lock);
	list_add_tail(&w.node, &x->wait_list);
	completion_unlock(x, &n, NULL);

	ret = waiter_sleep(&w, intr, forever ? NULL : &deadline);
	/*
	 * Take wait_lock even when completed: complete() still holds it
	 * after telling us, and the caller may free the completion as soon
	 * as we return (DECLARE_COMPLETION_ONSTACK): we must not return
	 * before complete() is done with it, as in the kernel.
	 */
	completion_lock(x, &n, "wait_for_completion");
	if (ret && waiter_state(&w) == WAITER_HANDOFF)
		ret = 0;	/* completed as we gave up: keep it */
	else if (ret)
		list_del(&w.node);
	completion_unlock(x, &n, NULL);
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
 * kmutex_wait_for_completion - the wait_for_completion*() family
 * @x: the completion
 * @intr: whether a signal handler ends the wait (-EINTR)
 * @timeout: the longest wait in jiffies (ms), MAX_SCHEDULE_TIMEOUT for
 *	no limit
 *
 * completion_wait(), counted by the lock statistics (stat.h).
 * Return: -EINTR, 0 on timeout, else the jiffies left (at least 1).
 */
KMUTEX_API long kmutex_wait_for_completion(struct completion *x, int intr,
					   long timeout)
{
	return HOOK_WAIT(x, STAT_COMPLETION, completion_wait(x, intr, timeout));
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
	struct wait_lock_irq n;
	int saved_errno = errno;	/* a handler's caller expects it kept */
	bool got;

	/* In a handler that interrupted this thread's holder: no lock. */
	if (wait_lock_irq_find(&x->wait_lock))
		return completion_take(x);
	completion_lock(x, &n, "try_wait_for_completion");	/* may sleep */
	got = completion_take(x);
	completion_unlock(x, &n, NULL);
	errno = saved_errno;
	return got;
}

/**
 * kmutex_completion_done_sync - wait until complete() is done with @x
 * @x: a completion seen done
 *
 * completion_done() may be followed at once by freeing @x; the
 * complete() that made it done may still hold wait_lock (the kernel
 * serialises the same way).  In a handler that interrupted this
 * thread's own use of @x there is nothing to wait for that may finish.
 */
KMUTEX_API void kmutex_completion_done_sync(struct completion *x)
{
	struct wait_lock_irq n;
	int saved_errno = errno;	/* a handler's caller expects it kept */

	if (wait_lock_irq_find(&x->wait_lock))
		return;
	completion_lock(x, &n, "completion_done");	/* may futex_wait() */
	completion_unlock(x, &n, NULL);
	errno = saved_errno;
}

/* complete() or complete_all(), wherever it is called from. */
static void completion_do(struct completion *x, bool all)
{
	struct wait_lock_irq n, *held;
	struct kmutex_waiter *w;
	struct wake_q q = { 0 };
	unsigned int done;

	held = wait_lock_irq_find(&x->wait_lock);
	if (held) {	/* a handler interrupted its thread's holder */
		/* RELAXED: read by the same thread (wait_lock.h). */
		if (all)
			__atomic_store_n(&held->deferred_all, 1,
					 __ATOMIC_RELAXED);
		else
			/* One atomic RMW, which a nested handler cannot split:
			 * an instruction on x86 and LSE aarch64; an LL/SC loop
			 * on ARMv7 and ARMv8.0, which a handler in between
			 * makes retry (the return from it clears the exclusive
			 * monitor).  RELAXED: this thread reads it. */
			__atomic_fetch_add(&held->deferred, 1,
					   __ATOMIC_RELAXED);
		return;
	}
	completion_lock(x, &n, all ? "complete_all" : "complete");
	/* RELEASE pairs with the ACQUIRE of completion_take(),
	 * try_wait_for_completion() and completion_done(). */
	if (all)
		__atomic_store_n(&x->done, UINT_MAX, __ATOMIC_RELEASE);
	while ((w = waiter_first(&x->wait_list))) {
		list_del(&w->node);
		wake_q_grant(&q, w);	/* it consumes this complete() */
		hook_handoff(x, STAT_COMPLETION);
		if (!all)
			break;
	}
	/* RELAXED guess; the CAS RELEASEs (pairs as above); a waiter is
	 * granted through its state's RELEASE instead (waiter.h). */
	done = __atomic_load_n(&x->done, __ATOMIC_RELAXED);
	/* UINT_MAX means "all"; a racing lock-free take makes CAS retry. */
	while (!all && !w && done < UINT_MAX - 1 &&
	       !__atomic_compare_exchange_n(&x->done, &done, done + 1, false,
					    __ATOMIC_RELEASE, __ATOMIC_RELAXED))
		;
	completion_unlock(x, &n, &q);
}

/**
 * kmutex_complete - complete() and complete_all()
 * @x: the completion
 * @all: wake every waiter and stay done until reinit_completion()
 *
 * Allowed in a signal handler, also one that interrupted a wait for or
 * a complete() of @x in its own thread (see wait_lock_irq_acquire());
 * errno is kept, as a handler's caller expects.
 */
KMUTEX_API void kmutex_complete(struct completion *x, int all)
{
	int saved_errno = errno;

	completion_do(x, all);
	errno = saved_errno;
}
