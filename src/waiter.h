/* SPDX-License-Identifier: MIT */
/*
 * waiter.h - a thread waiting on a kmutex wait list.
 *
 * Each waiter is a node on its own stack with its own futex word, so a
 * wake-up reaches exactly one thread (no thundering herd) and carries a
 * message: "try again" or "it is yours" (a handoff or grant).
 */
#ifndef _KMUTEX_SRC_WAITER_H
#define _KMUTEX_SRC_WAITER_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>
#include <kmutex/list.h>

enum waiter_state {
	WAITER_SLEEPING = 0,	/* queued; nobody has woken it */
	WAITER_WOKEN = 1,	/* woken to compete for the lock */
	WAITER_HANDOFF = 2,	/* woken owning what it waited for */
};

struct kmutex_waiter {
	struct kmutex_list node;	/* on the lock's wait_list */
	int state;			/* enum waiter_state; futex word */
	int want_handoff;		/* starved: next unlock hands it over */
	int flags;			/* per-primitive (rwsem: reader/writer) */
	uint64_t since;			/* when it queued, ns, CLOCK_MONOTONIC */
};

static inline int waiter_state(struct kmutex_waiter *w)
{
	return __atomic_load_n(&w->state, __ATOMIC_ACQUIRE);
}

static inline void waiter_set_state(struct kmutex_waiter *w, int state)
{
	__atomic_store_n(&w->state, state, __ATOMIC_RELEASE);
}

int waiter_sleep(struct kmutex_waiter *w, bool intr,
		 const struct timespec *deadline);
void waiter_wake(struct kmutex_waiter *w);

/* Absolute CLOCK_MONOTONIC deadline @ms milliseconds from now. */
struct timespec deadline_after_ms(long ms);
/* Milliseconds left until @deadline, at least 0. */
long ms_until(const struct timespec *deadline);

#endif /* _KMUTEX_SRC_WAITER_H */
