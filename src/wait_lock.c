// SPDX-License-Identifier: MIT
/*
 * wait_lock.c - slow paths of the wait-list lock (see wait_lock.h).
 */
#include "wait_lock.h"
#include "cpu.h"
#include "futex.h"

/* Reads of the word before sleeping; the sections it guards are short. */
#define WAIT_LOCK_SPINS	100

void wait_lock_acquire_slow(int *wl)
{
	int i;

	for (i = 0; i < WAIT_LOCK_SPINS; i++) {
		int free = 0;

		/* RELAXED read first (test and test-and-set): a busy
		 * word stays shared; the CAS acquires, as wait_lock_try(). */
		if (__atomic_load_n(wl, __ATOMIC_RELAXED) == 0 &&
		    __atomic_compare_exchange_n(wl, &free, 1, false,
						__ATOMIC_ACQUIRE,
						__ATOMIC_RELAXED))
			return;
		cpu_relax();
	}
	/* Mark "sleepers" so that the releaser knows to wake one.  ACQUIRE
	 * pairs with wait_lock_release()'s RELEASE. */
	while (__atomic_exchange_n(wl, 2, __ATOMIC_ACQUIRE) != 0)
		futex_wait(wl, 2);
}

void wait_lock_wake(int *wl)
{
	futex_wake(wl, 1);
}

/* The calling thread's wait_lock_irq nodes, newest first. */
__thread struct wait_lock_irq *wait_lock_irq_top
	KMUTEX_TLS;

#ifdef KMUTEX_RACE_POINTS
#include "api.h"
#include "race.h"

/* The race variant's hook (src/race.h); tests set it. */
KMUTEX_API void (*kmutex_race_hook)(int point);
#endif
