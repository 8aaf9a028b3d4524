// SPDX-License-Identifier: MIT
/*
 * ww_mutex.c - the slow paths of struct ww_mutex (fast paths and API:
 * <linux/ww_mutex.h>).  The rules are the kernel's
 * (Documentation/locking/ww-mutex-design.rst, kernel/locking/ww_mutex.h);
 * this is kmutex's own implementation of them.
 *
 * A ww_mutex is a struct mutex (count, wait_lock, wait_list: the
 * protocol of src/mutex.c, unchanged) and the holder's context.  Its
 * waiters are struct ww_waiter, a struct kmutex_waiter plus a context,
 * queued on the mutex's wait list, those with a context in stamp order
 * (oldest first) and the contextless where they came (ww_enqueue()), so
 * that the mutex's own unlock (src/mutex.c) wakes the oldest waiter, or
 * a contextless one queued before it.  A waiter here follows the mutex waiter's steps (under
 * wait_lock: xchg(count, -1), queue, sleep; woken, xchg again) and, each
 * time the lock is still held, checks the rules against the holder:
 *
 *   wait-die    a waiter that holds locks dies (-EDEADLK) if the holder
 *               is older or an older waiter is ahead of it;
 *   wound-wait  a waiter that holds locks and is older than the holder
 *               wounds it (the holder's next ww_mutex_lock, or the one
 *               it sleeps in, returns -EDEADLK); a wounded waiter that
 *               holds locks backs off, and so does a younger one behind
 *               an older holder that sleeps (WW_YOUNGER_BACKS_OFF).
 *
 * Whoever checks, waiter or new holder, checks for every waiter of the
 * lock and wakes those that must die, so a change of holder reaches
 * waiters that sleep.  A holder's context is only known once it has
 * stored lock->ctx after its fast-path compare-and-swap: the holder
 * stores ctx then reads count, a waiter exchanges count (-1) then reads
 * ctx, all sequentially consistent, so either the waiter sees the
 * context or the holder sees -1 and does the checks itself
 * (kmutex_ww_mutex_fast_waiters()).
 *
 * Wounding a holder that sleeps on another lock: each context has a
 * small lock of its own (ctx->wait_lock) under which it publishes the
 * waiter it sleeps in; the wounder sets ctx->wounded and wakes that
 * waiter under it.  The wounder holds the wait_lock of a lock the
 * wounded context holds, with count -1: that context cannot finish
 * unlocking it, so the context is alive.  Lock order: a ww_mutex's
 * wait_lock, then a context's; a context's alone otherwise.
 *
 * Lifetimes: a holder's context is read only under the wait_lock with
 * count -1 (as above); waiters' contexts only while they are queued.
 */
#include "api.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <linux/ww_mutex.h>

#include "cpu.h"
#include "list.h"
#include "hooks.h"
#include "wait_lock.h"
#include "waiter.h"

struct ww_waiter {
	struct kmutex_waiter w;		/* on lock->base.wait_list */
	struct ww_acquire_ctx *ctx;	/* NULL: locked as a plain mutex */
};

/* A fork() child copies a parent's node by w.size from &w (waiter.c). */
_Static_assert(offsetof(struct ww_waiter, w) == 0, "w first");

static void ww_waiter_done(struct ww_waiter *me)
{
	waiter_done(&me->w);
}

/*
 * As src/mutex.c: a waiter that lost to bargers this long asks for a
 * handoff, which mutex.c's unlock gives to the first (oldest) waiter.
 */
#ifndef WW_STARVE_NS
#define WW_STARVE_NS		1000000ull
#endif

static unsigned long ww_stamp_counter;

/**
 * kmutex_ww_stamp - the next acquire context's stamp
 *
 * Return: a number larger than every one returned before (one counter
 * for the whole program, as the kernel's per-class counter).
 */
KMUTEX_API unsigned long kmutex_ww_stamp(void)
{
	return __atomic_add_fetch(&ww_stamp_counter, 1, __ATOMIC_RELAXED);
}

/* Is @a older than @b?  Stamps may wrap: compare their difference. */
static bool ww_older(const struct ww_acquire_ctx *a,
		     const struct ww_acquire_ctx *b)
{
	return (long)(a->stamp - b->stamp) < 0;
}

static bool ww_is_wait_die(struct ww_mutex *lock, struct ww_acquire_ctx *ctx)
{
	if (lock->ww_class)
		return lock->ww_class->is_wait_die;
	return ctx && ctx->ww_class && ctx->ww_class->is_wait_die;
}

static struct ww_waiter *ww_entry(struct kmutex_list *n)
{
	return list_entry(n, struct ww_waiter, w.node);
}

static unsigned int ww_acquired(struct ww_acquire_ctx *ctx)
{
	return __atomic_load_n(&ctx->acquired, __ATOMIC_RELAXED);
}

#define ww_for_each(pos, head) \
	for ((pos) = (head)->next; (pos) != (head); (pos) = (pos)->next)

/*
 * Drop the nodes a fork() copied from the parent (see waiter_purge());
 * with stamp order they need not be at the front.  Returns whether one
 * had been handed the lock, which then has no owner.
 */
static bool ww_purge(struct mutex *m)
{
	unsigned int gen = __atomic_load_n(&waiter_fork_gen, __ATOMIC_RELAXED);
	struct kmutex_list *n, *next;
	bool handed = false;

	for (n = m->wait_list.next; n != &m->wait_list; n = next) {
		next = n->next;
		if (waiter_is_stale(&ww_entry(n)->w, gen))
			handed |= waiter_stale(&ww_entry(n)->w);
	}
	return handed;
}

/*
 * Queue @me: with a context, before the first younger waiter with one
 * (the waiters with a context stay in stamp order); without one, last.
 * The contextless keep their place among the others, as in the kernel
 * (__ww_mutex_add_waiter() skips them "to avoid starving them"): queued
 * behind every waiter with a context, as before (found in review), one
 * waited as long as any came, since unlocks wake and hand over to the
 * first waiter only.
 */
static void ww_enqueue(struct mutex *m, struct ww_waiter *me)
{
	struct kmutex_list *pos = &m->wait_list, *n;

	if (me->ctx) {
		ww_for_each(n, &m->wait_list) {
			struct ww_waiter *x = ww_entry(n);

			if (x->ctx && ww_older(me->ctx, x->ctx)) {
				pos = n;
				break;
			}
		}
	}
	list_add_tail(&me->w.node, pos);	/* before pos */
}

/* Is a waiter with a context queued ahead of @me? */
static bool ww_ctx_ahead(struct mutex *m, struct ww_waiter *me)
{
	struct kmutex_list *n;

	for (n = m->wait_list.next; n != &me->w.node; n = n->next)
		if (ww_entry(n)->ctx)
			return true;
	return false;
}

/* Wake @x to look at the lock again (wait_lock held keeps it alive). */
static void ww_wake(struct ww_waiter *x)
{
	int sleeping = WAITER_SLEEPING;

	if (__atomic_compare_exchange_n(&x->w.state, &sleeping, WAITER_WOKEN,
					false, __ATOMIC_RELEASE,
					__ATOMIC_RELAXED))
		waiter_wake(&x->w);
}

/*
 * Wound-wait: make @owner back off.  Called under the wait_lock of a
 * lock @owner holds, with count -1 (see the top of the file).
 */
static void ww_wound(struct ww_acquire_ctx *owner, struct ww_acquire_ctx *self)
{
	struct ww_waiter *x;

	if (__atomic_load_n(&owner->wounded, __ATOMIC_RELAXED))
		return;		/* whoever set it woke it */
	if (owner == self) {
		__atomic_store_n(&owner->wounded, 1, __ATOMIC_RELAXED);
		return;
	}
	wait_lock_acquire(&owner->wait_lock);
	__atomic_store_n(&owner->wounded, 1, __ATOMIC_RELAXED);
	x = owner->sleeping;
	if (x)
		ww_wake(x);
	wait_lock_release(&owner->wait_lock);
}

/*
 * Wound-wait as the kernel has it lets a younger context wait for an
 * older holder with its own locks held.  Under oversubscription such
 * waits chain: the waiters of its locks sleep with theirs, and so on,
 * until every thread sleeps and each transaction waits for a chain of
 * wake-ups while the CPUs idle (16 threads on 64 objects: 0.1-0.2 M
 * transactions/s against 7 M; docs/ww_mutex.md).  A bounded wait (50 us)
 * did not break the chains; backing off at once did.  So kmutex's
 * wound-wait also makes a younger context that holds locks back off,
 * as wait-die does, rather than wait behind an older holder that is
 * itself asleep on another lock (its published ctx->sleeping: read
 * racily, a hint; either answer is safe).  Behind a running holder it
 * waits, as in the kernel.  -EDEADLK is an answer ww_mutex_lock() may
 * give any context that holds locks, the older context still wounds a
 * younger holder, and the oldest context never backs off this way (no
 * holder is older than it).
 */
#ifndef WW_YOUNGER_BACKS_OFF
#define WW_YOUNGER_BACKS_OFF	1
#endif

/*
 * Must @x (queued, with a context) back off now, @owner holding the
 * lock?  @first: no waiter with a context is ahead of @x.
 */
static bool ww_must_back_off(bool wait_die, struct ww_waiter *x,
			     struct ww_acquire_ctx *owner, bool first)
{
	bool behind_older = owner && owner != x->ctx &&
			    ww_older(owner, x->ctx);

#if KMUTEX_BUSTED == 6
	return false;	/* deliberately broken build: nobody backs off */
#endif
	if (ww_acquired(x->ctx) == 0)
		return false;	/* holds nothing: cannot be in a cycle */
	if (!wait_die)
		return __atomic_load_n(&x->ctx->wounded, __ATOMIC_RELAXED) ||
		       (WW_YOUNGER_BACKS_OFF && behind_older &&
			__atomic_load_n(&owner->sleeping, __ATOMIC_RELAXED));
	return !first || behind_older;
}

/*
 * The rules for every waiter, @owner holding the lock (wait_lock held):
 * wake the waiters that must die; wound @owner if an older waiter that
 * holds locks waits for it.  @self: the checking thread's own context,
 * or NULL for the new holder.
 */
static void ww_check_waiters(struct ww_mutex *lock,
			     struct ww_acquire_ctx *owner,
			     struct ww_acquire_ctx *self)
{
	bool wait_die = ww_is_wait_die(lock, owner);
	struct kmutex_list *n;
	bool first = true;

	ww_for_each(n, &lock->base.wait_list) {
		struct ww_waiter *x = ww_entry(n);

		if (!x->ctx)
			continue;	/* no rules for them */
		if (x->ctx != self &&
		    ww_must_back_off(wait_die, x, owner, first))
			ww_wake(x);
		else if (!wait_die && owner && ww_acquired(x->ctx) > 0 &&
			 ww_older(x->ctx, owner))
			ww_wound(owner, self);	/* not only the first's */
		first = false;
	}
}

/*
 * Sleep until woken.  A wound-wait context that holds locks publishes
 * where it sleeps, so that a wound reaches it, and does not sleep at all
 * if it is wounded already.
 */
static int ww_sleep(struct ww_mutex *lock, struct ww_waiter *me, bool intr)
{
	struct ww_acquire_ctx *ctx = me->ctx;
	bool publish = ctx && ww_acquired(ctx) > 0 &&
		       !ww_is_wait_die(lock, ctx);
	int ret;

	if (publish) {
		wait_lock_acquire(&ctx->wait_lock);
		if (__atomic_load_n(&ctx->wounded, __ATOMIC_RELAXED)) {
			wait_lock_release(&ctx->wait_lock);
			return 0;
		}
		__atomic_store_n(&ctx->sleeping, me, __ATOMIC_RELAXED);
		wait_lock_release(&ctx->wait_lock);
	}
	ret = waiter_sleep(&me->w, intr, NULL);
	if (publish) {
		wait_lock_acquire(&ctx->wait_lock);
		__atomic_store_n(&ctx->sleeping, NULL, __ATOMIC_RELAXED);
		wait_lock_release(&ctx->wait_lock);
	}
	return ret;
}

/*
 * @me gives up (wait_lock held).  As mutex.c's mutex_leave(): if the
 * lock is free, a wake-up may have been meant for @me: pass it on.
 *
 * If it is held, @me checks the waiters against its holder.  With count
 * 0 the holder took it on the fast path after an unlock that woke @me,
 * and did not check them (it saw no count < 0): @me, woken, was to check
 * them when it tried again (found in review: an older waiter holding
 * locks was left asleep behind a younger holder that nobody wounded, a
 * deadlock once that holder waited for one of its locks).  With count -1
 * too: @me may have set it with its own xchg and be backing off
 * (-EDEADLK) before its checks; a caller that then drops the
 * transaction would leave the same hole (found by the spin model).  The
 * CAS and the load of lock->ctx are the queueing xchg's handshake with
 * the fast path's store of ctx and load of count (top of the file): a
 * holder whose ctx we miss sees count -1 and checks them.  With count
 * -1 and wait_lock held the holder's context is alive (the top of the
 * file); a lock just handed over has ctx NULL until its new holder runs.
 */
static void ww_leave(struct ww_mutex *lock, struct ww_waiter *me)
{
	struct mutex *m = &lock->base;
	struct kmutex_waiter *next;
	int held = 0;

	list_del(&me->w.node);
	/* A fork() child's lock handed to a parent's thread: free it. */
	if (ww_purge(m))
		__atomic_store_n(&m->count, 1, __ATOMIC_RELAXED);
	next = waiter_first(&m->wait_list);
	if (!next)
		return;
	if (__atomic_compare_exchange_n(&m->count, &held, -1, false,
					__ATOMIC_SEQ_CST, __ATOMIC_RELAXED) ||
	    held == -1) {
		ww_check_waiters(lock, __atomic_load_n(&lock->ctx,
						       __ATOMIC_SEQ_CST), NULL);
		return;
	}
	if (held == 1 && waiter_state(next) == WAITER_SLEEPING) {
		waiter_set_state(next, WAITER_WOKEN);
		waiter_wake(next);
	}
}

/*
 * A wait that a fork() in a signal handler of ours carried into a child
 * (see waiter_purge()): the parent's nodes still queued are read by
 * ww_enqueue() and ww_check_waiters(), for their contexts, which are
 * the parent's (found in review).  Drop them first.
 */
static void ww_fork_retry(struct ww_mutex *lock, struct ww_waiter *me)
{
	/* RELAXED: see waiter_stamp(). */
	unsigned int gen = __atomic_load_n(&waiter_fork_gen, __ATOMIC_RELAXED);

	if (__builtin_expect(me->w.fork_gen == gen, 1))
		return;
	me->w.fork_gen = gen;
	if (ww_purge(&lock->base))
		__atomic_store_n(&lock->base.count, 1, __ATOMIC_RELAXED);
}

/* Returns ww_purge()'s answer. */
static bool ww_lock_wait_lock(struct ww_mutex *lock, const char *site)
{
	int c = __atomic_load_n(&lock->base.count, __ATOMIC_RELAXED);

	if (c < -1 || c > 1) {
		fprintf(stderr, "kmutex: %s: ww_mutex %p is corrupted (count "
			"out of range); aborting\n", site, (void *)lock);
		abort();
	}
	wait_lock_acquire(&lock->base.wait_lock);
	wait_list_check(&lock->base.wait_list, site, "ww_mutex", lock,
			"ww_mutex_init");
	return ww_purge(&lock->base);
}

/* The new holder (wait_lock held): record @ctx, check the waiters. */
static void ww_acquired_slow(struct ww_mutex *lock, struct ww_acquire_ctx *ctx)
{
	if (list_empty(&lock->base.wait_list))
		__atomic_store_n(&lock->base.count, 0, __ATOMIC_RELAXED);
	if (!ctx)
		return;
	__atomic_store_n(&lock->ctx, ctx, __ATOMIC_SEQ_CST);
	ctx->acquired++;
	ww_check_waiters(lock, ctx, NULL);
}

/**
 * ww_lock_slow - ww_mutex_lock*() when the fast path failed
 * @lock: the ww_mutex
 * @ctx: the acquire context, or NULL (a plain mutex lock)
 * @flags: __KMUTEX_WW_INTR, __KMUTEX_WW_SLOW
 *
 * Return: 0 with @lock held, -EALREADY, -EDEADLK or -EINTR.
 */
static int ww_lock_slow(struct ww_mutex *lock, struct ww_acquire_ctx *ctx,
			int flags)
{
	bool intr = flags & __KMUTEX_WW_INTR;
	struct ww_acquire_ctx *owner;
	struct ww_waiter me __attribute__((cleanup(ww_waiter_done)));
	int ret;

	if (ctx) {
		if (__atomic_load_n(&lock->ctx, __ATOMIC_RELAXED) == ctx)
			return -EALREADY;
		if (ctx->acquired == 0)	/* a wound is for the locks held */
			__atomic_store_n(&ctx->wounded, 0, __ATOMIC_RELAXED);
		else if (__atomic_load_n(&ctx->wounded, __ATOMIC_RELAXED) &&
			 !ww_is_wait_die(lock, ctx))
			goto deadlk;
	}
#if KMUTEX_BUSTED == 5
	/* Deliberately broken build: now and then let a second owner in. */
	static unsigned int busted;

	if (__atomic_fetch_add(&busted, 1, __ATOMIC_RELAXED) % 64 == 63) {
		if (ctx)
			ctx->acquired++;
		return 0;
	}
#endif
	/*
	 * fork() as an unlock handed the lock to a thread of the parent
	 * (found in review): nobody here owns it.  Free it for the xchg.
	 */
	if (ww_lock_wait_lock(lock, "ww_mutex_lock"))
		__atomic_store_n(&lock->base.count, 1, __ATOMIC_RELAXED);
	if (__atomic_exchange_n(&lock->base.count, -1, __ATOMIC_SEQ_CST) == 1) {
		ww_acquired_slow(lock, ctx);
		wait_lock_release(&lock->base.wait_lock);
		return 0;
	}
	me.ctx = ctx;
	waiter_init(&me.w, 0);
	me.w.size = sizeof(me);
	me.w.since = now_ns();
	waiter_stamp(&me.w, &lock->base.wait_lock);
	ww_enqueue(&lock->base, &me);
	for (;;) {
		owner = __atomic_load_n(&lock->ctx, __ATOMIC_SEQ_CST);
		if (ctx && ww_must_back_off(ww_is_wait_die(lock, ctx), &me,
				owner, !ww_ctx_ahead(&lock->base, &me))) {
			ret = -EDEADLK;
			ctx->contending_lock = lock;
			break;
		}
		ww_check_waiters(lock, owner, ctx);
		wait_lock_release(&lock->base.wait_lock);
		ret = ww_sleep(lock, &me, intr);
		wait_lock_acquire(&lock->base.wait_lock);
		ww_fork_retry(lock, &me);
		if (waiter_state(&me.w) == WAITER_HANDOFF)
			goto acquired;	/* ours (mutex.c's starvation rule) */
		if (ret)
			break;
		if (__atomic_exchange_n(&lock->base.count, -1,
					__ATOMIC_SEQ_CST) == 1)
			goto acquired;
		if (now_ns() - me.w.since >= WW_STARVE_NS)
			me.w.want_handoff = 1;
		waiter_set_state(&me.w, WAITER_SLEEPING);
	}
	ww_leave(lock, &me);
	wait_lock_release(&lock->base.wait_lock);
	return ret;
deadlk:
	ctx->contending_lock = lock;
	return -EDEADLK;
acquired:
	list_del(&me.w.node);
	ww_acquired_slow(lock, ctx);
	wait_lock_release(&lock->base.wait_lock);
	return 0;
}

/**
 * kmutex_ww_mutex_fast_waiters - the fast path took @lock for @ctx and
 *	found waiters
 * @lock: the ww_mutex, now held in @ctx
 * @ctx: the new holder's context
 *
 * Checks the rules for the waiters as a slow-path acquisition does.
 */
KMUTEX_API void kmutex_ww_mutex_fast_waiters(struct ww_mutex *lock,
					     struct ww_acquire_ctx *ctx)
{
	ww_lock_wait_lock(lock, "ww_mutex_lock");
	ww_check_waiters(lock, ctx, NULL);
	wait_lock_release(&lock->base.wait_lock);
}

/**
 * kmutex_ww_mutex_lock_slowpath - ww_mutex_lock*() when the fast path
 *	failed
 * @lock: the ww_mutex
 * @ctx: the acquire context, or NULL (a plain mutex lock)
 * @flags: __KMUTEX_WW_INTR, __KMUTEX_WW_SLOW
 *
 * ww_lock_slow(), counted by the lock statistics (stat.h).
 * Return: 0 with @lock held, -EALREADY, -EDEADLK or -EINTR.
 */
KMUTEX_API int kmutex_ww_mutex_lock_slowpath(struct ww_mutex *lock,
					     struct ww_acquire_ctx *ctx,
					     int flags)
{
	return HOOK_WAIT(lock, STAT_WW_MUTEX, ww_lock_slow(lock, ctx, flags));
}

#ifdef KMUTEX_DEBUG
/*
 * The debugging build's checks of the API's rules, as the kernel's
 * DEBUG_LOCKS_WARN_ON()s in kernel/locking/ww_mutex.h and
 * CONFIG_DEBUG_WW_MUTEX_SLOWPATH make them.  The order checks take
 * ww_mutexes as lockdep does (src/debug/ww.c): a context may take those
 * of its class in any order, that is the point, but every other order
 * is checked.
 */
#include <sys/syscall.h>

#include "debug/debug.h"

static int ww_gettid(void)
{
	return (int)syscall(SYS_gettid);
}

static void ww_warn(const char *cond, const char *call, const void *ip,
		    const char *fmt, unsigned long a, unsigned long b)
{
	struct kmutex_thread *t = lockdep_thread();
	char title[128];

	snprintf(title, sizeof(title), "WARNING: DEBUG_LOCKS_WARN_ON(%s)",
		 cond);
	lockdep_lock_acquire();
	if (report_begin(R_WARN_ON, report_hash((uintptr_t)cond,
						(uintptr_t)ip), title)) {
		report_thread(t->tid);
		rprintf(": %s: ", call);
		rprintf(fmt, a, b);
		rprintf("\n  at: ");
		ip_print(ip);
		rprintf("\n\n");
		report_finish(t, ip);
	}
	lockdep_lock_release();
}

/**
 * kmutex_ww_debug_lock - check a ww_mutex lock call (debugging build)
 * @lock: the ww_mutex
 * @ctx: the context, or NULL
 * @flags: __KMUTEX_WW_SLOW for ww_mutex_lock_slow*()
 * @call: the API call, for the report
 */
KMUTEX_API void kmutex_ww_debug_lock(struct ww_mutex *lock,
				     struct ww_acquire_ctx *ctx, int flags,
				     const char *call)
{
	const void *ip = __builtin_return_address(0);

	if (!(flags & __KMUTEX_WW_TRY))
		ww_dep_lock(lock, ctx, call, ip);
	if (!ctx)
		return;
	if (ctx->done_acquire)
		ww_warn("ctx->done_acquire", call, ip, "lock in a context "
			"after ww_acquire_done() or ww_acquire_fini()%.0lu%.0lu",
			0, 0);
	if (lock->ww_class != ctx->ww_class)
		ww_warn("ww_ctx->ww_class != ww->ww_class", call, ip,
			"a ww_mutex of class %p locked in a context of class "
			"%p (mixed classes)", (unsigned long)lock->ww_class,
			(unsigned long)ctx->ww_class);
	if (flags & __KMUTEX_WW_SLOW) {
		if (ctx->acquired > 0)
			ww_warn("ctx->acquired > 0", call, ip, "%lu ww_mutexes "
				"still held: release them all after -EDEADLK, "
				"before ww_mutex_lock_slow()%.0lu",
				ctx->acquired, 0);
		else if (ctx->contending_lock && ctx->contending_lock != lock)
			ww_warn("ctx->contending_lock != ww", call, ip,
				"ww_mutex_lock_slow() on %p, but -EDEADLK came "
				"from %p", (unsigned long)lock,
				(unsigned long)ctx->contending_lock);
	} else if (ctx->contending_lock && ctx->acquired > 0) {
		ww_warn("ctx->contending_lock", call, ip, "-EDEADLK ignored: "
			"%lu ww_mutexes still held, locking on (release them "
			"all, then ww_mutex_lock_slow(%p))", ctx->acquired,
			(unsigned long)ctx->contending_lock);
	}
	if (ctx->acquired == 0)
		ctx->contending_lock = NULL;	/* backed off */
}

/*
 * KMUTEX_DEBUG_WW_INJECT=N (N >= 1): fake -EDEADLKs, as the kernel's
 * CONFIG_DEBUG_WW_MUTEX_SLOWPATH makes them, so that every caller's
 * back-off path runs in tests, not only when a real conflict happens to
 * come.  Read once; 0, unset or not a number: off.
 */
static unsigned int ww_inject_setting(void)
{
	static unsigned int setting = -1u;
	unsigned int n = __atomic_load_n(&setting, __ATOMIC_RELAXED);
	const char *env;
	char *end;

	if (n != -1u)
		return n;
	env = getenv("KMUTEX_DEBUG_WW_INJECT");
	n = 0;
	if (env && *env) {
		unsigned long v = strtoul(env, &end, 10);

		if (!*end && v < -1u)
			n = (unsigned int)v;
	}
	__atomic_store_n(&setting, n, __ATOMIC_RELAXED);
	return n;
}

/*
 * A new context's countdown: the first fake -EDEADLK comes within the
 * first N locks (spread by the stamp, so that not every context dies at
 * the same lock; N = 1: at the second lock of every context).
 */
static void ww_inject_start(struct ww_acquire_ctx *ctx)
{
	unsigned int n = ww_inject_setting();

	ctx->deadlock_inject_interval = n;
	ctx->deadlock_inject_countdown = n ? (unsigned int)(ctx->stamp % n) : 0;
}

/**
 * kmutex_ww_debug_inject - now and then, turn a ww_mutex lock into a
 *	fake -EDEADLK (debugging build, KMUTEX_DEBUG_WW_INJECT)
 * @lock: the ww_mutex just locked, if @ret is 0
 * @ctx: the context, or NULL
 * @ret: what the lock returned
 *
 * Counts the locks that succeed while @ctx holds another; when its
 * countdown runs out, unlocks @lock again and returns -EDEADLK with
 * @lock as the contended lock, exactly what a real conflict leaves: the
 * caller must back off, and the checks for an ignored -EDEADLK apply.
 * The interval then grows 3.5 times (the kernel's factor), so that a
 * transaction that backs off correctly always completes.
 *
 * Return: @ret, or -EDEADLK.
 */
KMUTEX_API int kmutex_ww_debug_inject(struct ww_mutex *lock,
				      struct ww_acquire_ctx *ctx, int ret)
{
	unsigned int next;

	if (ret || !ctx || !ctx->deadlock_inject_interval ||
	    ctx->acquired < 2)
		return ret;
	if (ctx->deadlock_inject_countdown-- > 0)
		return 0;
	next = ctx->deadlock_inject_interval;
	next = next > -1u / 4 ? -1u : next * 3 + next / 2;
	ctx->deadlock_inject_interval = next;
	ctx->deadlock_inject_countdown = next;
	ctx->contending_lock = lock;
	ww_mutex_unlock(lock);
	return -EDEADLK;
}

/**
 * kmutex_ww_debug_ctx - check ww_acquire_init/done/fini (debugging build)
 * @ctx: the context
 * @what: 0 init, 1 done, 2 fini
 * @call: the API call, for the report
 */
KMUTEX_API void kmutex_ww_debug_ctx(struct ww_acquire_ctx *ctx, int what,
				    const char *call)
{
	const void *ip = __builtin_return_address(0);

	if (what == 0) {
		ctx->tid = ww_gettid();
		ww_inject_start(ctx);
		ww_dep_ctx(ctx, true, call, ip);
		return;
	}
	if (what == 1 && ctx->done_acquire)
		ww_warn("ctx->done_acquire", call, ip, "called twice, or after "
			"ww_acquire_fini()%.0lu%.0lu", 0, 0);
	if (what == 2 && ctx->acquired)
		ww_warn("ctx->acquired", call, ip, "%lu ww_mutexes still held "
			"in the context ending%.0lu", ctx->acquired, 0);
	if (what == 2)
		ww_dep_ctx(ctx, false, call, ip);
}

/**
 * kmutex_ww_debug_locked - a ww_mutex lock call returned (debugging build)
 * @lock: the ww_mutex
 * @ctx: the context, or NULL
 * @ret: what it returned: 0 with @lock held
 * @flags: __KMUTEX_WW_TRY for ww_mutex_trylock()
 *
 * The lock joins the thread's held locks for the order checks.
 */
KMUTEX_API void kmutex_ww_debug_locked(struct ww_mutex *lock,
				       struct ww_acquire_ctx *ctx, int ret,
				       int flags)
{
	ww_dep_locked(lock, ctx, ret, flags & __KMUTEX_WW_TRY,
		      flags & __KMUTEX_WW_TRY ? "ww_mutex_trylock" :
		      flags & __KMUTEX_WW_SLOW ? "ww_mutex_lock_slow" :
		      "ww_mutex_lock", __builtin_return_address(0));
}

/**
 * kmutex_ww_debug_unlock - check a ww_mutex_unlock() (debugging build)
 * @lock: the ww_mutex
 * @call: the API call, for the report
 */
KMUTEX_API void kmutex_ww_debug_unlock(struct ww_mutex *lock,
				       const char *call)
{
	struct ww_acquire_ctx *ctx = __atomic_load_n(&lock->ctx,
						     __ATOMIC_RELAXED);
	const void *ip = __builtin_return_address(0);

	if (ctx && ctx->tid && ctx->tid != ww_gettid())
		ww_warn("lock->ctx->task != current", call, ip, "ww_mutex "
			"held by context %p of thread %lu, unlocked by another "
			"thread", (unsigned long)ctx, (unsigned long)ctx->tid);
	ww_dep_unlock(lock);
}
#endif /* KMUTEX_DEBUG */
