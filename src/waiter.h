/* SPDX-License-Identifier: MIT */
/*
 * waiter.h - a thread waiting on a kmutex wait list.
 *
 * Each waiter is a node on its own stack with its own futex word, so a
 * wake-up reaches exactly one thread (no thundering herd) and carries a
 * message: "try again" or "the lock is yours" (a handoff).
 */
#ifndef _KMUTEX_SRC_WAITER_H
#define _KMUTEX_SRC_WAITER_H

#include <stdint.h>
#include <kmutex/list.h>

enum waiter_state {
	WAITER_SLEEPING = 0,	/* queued; nobody has woken it */
	WAITER_WOKEN = 1,	/* woken to compete for the lock */
	WAITER_HANDOFF = 2,	/* woken owning the lock: do not compete */
};

struct kmutex_waiter {
	struct kmutex_list node;	/* on the lock's wait_list */
	int state;			/* enum waiter_state; futex word */
	int want_handoff;		/* starved: next unlock hands it over */
	uint64_t since;			/* when it queued, ns, CLOCK_MONOTONIC */
};

#endif /* _KMUTEX_SRC_WAITER_H */
