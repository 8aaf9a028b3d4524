// SPDX-License-Identifier: MIT
/*
 * mutex.c - the slow paths of struct mutex (fast paths: <linux/mutex.h>).
 *
 * The protocol (modelled in model/mutex.pml; change the two together):
 *
 *   count      1 free; 0 held; -1 held and the wait list may be non-empty.
 *              Only a thread holding wait_lock sets it to -1 for a
 *              waiter, so a holder's unlock finds -1 and comes here
 *              whenever there may be someone to wake.
 *   lock       fast path CAS 1 -> 0.  Slow path: spin a little (one
 *              spinner at a time), then under wait_lock xchg(count, -1);
 *              old value 1 means acquired, else queue at the tail and
 *              sleep on the waiter's own futex word.
 *   unlock     fast path CAS 0 -> 1.  Slow path, under wait_lock: if the
 *              first waiter is starving, hand the lock to it (count stays
 *              -1); else store 1 (so a running thread may take it at
 *              once: barging) and wake the first waiter, unless it was
 *              already woken and has not yet run (one woken at a time).
 *   woken      the first waiter retries xchg(count, -1) under wait_lock.
 *              If it loses to a barger for longer than MUTEX_STARVE_NS
 *              since it queued, it asks for a handoff.
 *   leaving    an interrupted waiter unlinks itself; if others remain it
 *              makes sure the next unlock will wake them (count 0 -> -1)
 *              or, if the lock is already free, wakes the next itself: a
 *              wake-up meant for it is never swallowed.
 *   acquired   the new owner unlinks itself and, if the list is now
 *              empty, stores count 0 so that its unlock is fast again.
 */
#include "api.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include <linux/mutex.h>

#include "cpu.h"
#include "list.h"
#include "wait_lock.h"
#include "waiter.h"

/* Reads of count before queueing (about 2-5 us on current x86). */
#ifndef MUTEX_SPINS
#define MUTEX_SPINS		200
#endif
/* The kernel hands off once the first waiter lost a race; Go after 1 ms. */
#ifndef MUTEX_STARVE_NS
#define MUTEX_STARVE_NS		1000000ull
#endif

static void __attribute__((noreturn, cold))
mutex_fatal(struct mutex *lock, const char *site, const char *what)
{
	fprintf(stderr, "kmutex: %s: mutex %p %s; aborting\n", site,
		(void *)lock, what);
	abort();
}

/*
 * Cheap checks that turn corruption into a clear message, then take
 * wait_lock.  The list is looked at under wait_lock, where it is written
 * (read before it, it would race with a waiter queueing: ThreadSanitizer
 * says so in the debugging build); a zeroed mutex has a free wait_lock.
 */
static void mutex_check_and_lock(struct mutex *lock, const char *site)
{
	/* RELAXED: a sanity check of the value, not a synchronisation. */
	int c = __atomic_load_n(&lock->count, __ATOMIC_RELAXED);

	if (c < -1 || c > 1)
		mutex_fatal(lock, site, "is corrupted (count out of range)");
	wait_lock_acquire(&lock->wait_lock);
	if (lock->wait_list.next == NULL)
		mutex_fatal(lock, site, "was never initialised "
			    "(use DEFINE_MUTEX or mutex_init)");
}

static bool mutex_spin(struct mutex *lock)
{
	bool got = false;
	int i;

	if (!spinner_claim(&lock->spinner))
		return false;
	for (i = 0; i < MUTEX_SPINS; i++) {
		int c = __atomic_load_n(&lock->count, __ATOMIC_RELAXED);

		if (c == 1 && __kmutex_mutex_trylock_fast(lock)) {
			got = true;
			break;
		}
		/*
		 * Keep spinning even when others sleep (parking_lot and WebKit
		 * stop): on 2 CPUs with 8-16 threads, stopping left the CPUs
		 * idle while the lock passed through wake-ups, 3.8-4.2 M ops/s
		 * against 4.7-5.2 spinning on (100 ns critical section).
		 * Sleepers are protected by the handoff rule instead.
		 */
		cpu_relax();
	}
	spinner_release(&lock->spinner);
	return got;
}

static struct kmutex_waiter *first_waiter(struct mutex *lock)
{
	return waiter_first(&lock->wait_list);
}

/*
 * Called with wait_lock held by a waiter that gives up.  If the lock is
 * free, a wake-up may have been meant for this waiter: pass it on.
 */
static void mutex_leave(struct mutex *lock, struct kmutex_waiter *w)
{
	struct kmutex_waiter *next;
	int held = 0;

	list_del(&w->node);
	next = first_waiter(lock);
	if (!next)
		return;	/* count may stay -1: one needless slow unlock */
	/*
	 * RELAXED: it publishes nothing.  The owner's unlock CAS 0 -> 1 is
	 * ordered against it by count's modification order, and the slow
	 * unlock it forces reads the list under wait_lock.
	 */
	if (__atomic_compare_exchange_n(&lock->count, &held, -1, false,
					__ATOMIC_RELAXED, __ATOMIC_RELAXED))
		return;	/* held: its unlock now comes to the slow path */
	if (held == 1 && waiter_state(next) == WAITER_SLEEPING) {
		/* Rare: woken under wait_lock, which keeps next alive. */
		waiter_set_state(next, WAITER_WOKEN);
		waiter_wake(next);
	}
}

/* The new owner leaves the wait list (wait_lock held). */
static void mutex_acquired(struct mutex *lock, struct kmutex_waiter *w)
{
	if (w)
		list_del(&w->node);
	/*
	 * RELAXED, and a plain store is safe: while count is -1 no fast
	 * path changes it (lock and unlock CAS only from 1 and 0), and every
	 * writer of -1 holds wait_lock, as we do.
	 */
	if (list_empty(&lock->wait_list))
		__atomic_store_n(&lock->count, 0, __ATOMIC_RELAXED);
}

static int mutex_lock_common(struct mutex *lock, bool intr, const char *site)
{
	struct kmutex_waiter w;
	int ret;

#if KMUTEX_BUSTED == 1
	/* Deliberately broken build: now and then let a second thread in. */
	static unsigned int busted;

	if (__atomic_fetch_add(&busted, 1, __ATOMIC_RELAXED) % 64 == 63)
		return 0;
#endif
	if (mutex_spin(lock))
		return 0;
	mutex_check_and_lock(lock, site);
	/* ACQUIRE pairs with the unlock's RELEASE (CAS or store of 1). */
	if (__atomic_exchange_n(&lock->count, -1, __ATOMIC_ACQUIRE) == 1) {
		mutex_acquired(lock, NULL);
		wait_lock_release(&lock->wait_lock);
		return 0;
	}
	w.state = WAITER_SLEEPING;
	w.want_handoff = 0;
	w.since = now_ns();
	waiter_stamp(&w);
	list_add_tail(&w.node, &lock->wait_list);
	for (;;) {
		wait_lock_release(&lock->wait_lock);
		ret = waiter_sleep(&w, intr, NULL);
		wait_lock_acquire(&lock->wait_lock);
		if (waiter_state(&w) == WAITER_HANDOFF)
			break;		/* ours, even if a signal came too */
		if (ret) {
			mutex_leave(lock, &w);
			wait_lock_release(&lock->wait_lock);
			return ret;
		}
		if (__atomic_exchange_n(&lock->count, -1, __ATOMIC_ACQUIRE) == 1)
			break;
		/* A running thread took it first: bound how often. */
		if (now_ns() - w.since >= MUTEX_STARVE_NS)
			w.want_handoff = 1;
		waiter_set_state(&w, WAITER_SLEEPING);
	}
	mutex_acquired(lock, &w);
	wait_lock_release(&lock->wait_lock);
	return 0;
}

/**
 * kmutex_mutex_lock_slowpath - mutex_lock() when the fast path failed
 * @lock: the mutex
 *
 * Spins briefly, then queues and sleeps until it owns @lock.
 */
KMUTEX_API void kmutex_mutex_lock_slowpath(struct mutex *lock)
{
	mutex_lock_common(lock, false, "mutex_lock");
}

/**
 * kmutex_mutex_lock_interruptible_slowpath - mutex_lock_interruptible()
 *	when the fast path failed
 * @lock: the mutex
 *
 * Return: 0 with the lock held, or -EINTR if a signal handler ran while
 * the thread slept (the thread has then left the wait list).
 */
KMUTEX_API int kmutex_mutex_lock_interruptible_slowpath(struct mutex *lock)
{
	return mutex_lock_common(lock, true, "mutex_lock_interruptible");
}

/**
 * kmutex_mutex_unlock_slowpath - mutex_unlock() when count was not 0
 * @lock: the mutex
 * @site: the caller, for the message if @lock was not locked at all
 *
 * Either hands @lock to a starving first waiter, or frees it and wakes
 * the first waiter unless one is already awake.
 */
KMUTEX_API void kmutex_mutex_unlock_slowpath(struct mutex *lock,
					     const char *site)
{
	struct kmutex_waiter *w;

	/* RELAXED: the misuse check reads our own lock's word. */
	if (__atomic_load_n(&lock->count, __ATOMIC_RELAXED) == 1) {
#if KMUTEX_BUSTED == 1
		return;	/* the broken build's second owner unlocks too */
#endif
		mutex_fatal(lock, site, "is not locked (count would pass 1, "
			    "letting later lockers in together)");
	}
	mutex_check_and_lock(lock, site);
	w = first_waiter(lock);
	if (w && w->want_handoff) {
		waiter_set_state(w, WAITER_HANDOFF);	/* count stays -1 */
		wait_lock_release(&lock->wait_lock);
		waiter_wake(w);
		return;
	}
	/* RELEASE pairs with the next owner's ACQUIRE CAS or exchange. */
	__atomic_store_n(&lock->count, 1, __ATOMIC_RELEASE);
	if (!w || waiter_state(w) != WAITER_SLEEPING) {
		wait_lock_release(&lock->wait_lock);
		return;
	}
#if KMUTEX_BUSTED == 2
	/* Deliberately broken build: now and then drop the wake-up. */
	static unsigned int busted;

	if (__atomic_fetch_add(&busted, 1, __ATOMIC_RELAXED) % 64 == 63) {
		wait_lock_release(&lock->wait_lock);
		return;
	}
#endif
	waiter_set_state(w, WAITER_WOKEN);
	wait_lock_release(&lock->wait_lock);
	waiter_wake(w);		/* outside wait_lock: see waiter_wake() */
}
