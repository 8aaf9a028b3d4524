// SPDX-License-Identifier: MIT
/*
 * lock_floor.c - the floors of uncontended latency: what the bare atomics
 * of a lock cost, with nothing around them.
 *
 *   floor-xchg  xchg to take, plain release store to give back (the
 *               cheapest correct lock word);
 *   floor-2rmw  compare-and-swap to take and compare-and-swap to give
 *               back: the two atomic read-modify-writes a count-based
 *               design such as kmutex's pays.
 *
 * They are not locks one could wait on (a taken word is a bug here), so
 * they take part in the uncontended workload only.  Every atomic's result
 * is checked: a compiler may turn an exchange whose result is unused into
 * a plain store, which would make the floor a lie.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "lock_ops.h"

static void __attribute__((noreturn, cold)) floor_misused(void)
{
	fprintf(stderr, "kmutex-bench: a floor lock word was found taken\n");
	abort();
}

static inline void xchg_lock(int *l)
{
	if (__builtin_expect(__atomic_exchange_n(l, 1, __ATOMIC_ACQUIRE), 0))
		floor_misused();
}

static inline void xchg_unlock(int *l)
{
	__atomic_store_n(l, 0, __ATOMIC_RELEASE);
}

static inline void cas_lock(int *l)
{
	int free = 0;

	if (__builtin_expect(!__atomic_compare_exchange_n(l, &free, 1, false,
			__ATOMIC_ACQUIRE, __ATOMIC_RELAXED), 0))
		floor_misused();
}

static inline void cas_unlock(int *l)
{
	int held = 1;

	if (__builtin_expect(!__atomic_compare_exchange_n(l, &held, 0, false,
			__ATOMIC_RELEASE, __ATOMIC_RELAXED), 0))
		floor_misused();
}

static void floor_init(void *p)
{
	*(int *)p = 0;
}

static void floor_destroy(void *p)
{
	(void)p;
}

DEFINE_LOCK_LOOP(xchg_loop, int, xchg_lock, xchg_unlock)
DEFINE_LOCK_LOOP(cas_loop, int, cas_lock, cas_unlock)

const struct lock_ops floor_xchg_ops = {
	.name		= "floor-xchg",
	.what		= "floor: xchg to lock, store to unlock",
	.kind		= LOCK_FLOOR,
	.size		= sizeof(int),
	.init		= floor_init,
	.destroy	= floor_destroy,
	.loop		= xchg_loop,
};

const struct lock_ops floor_2rmw_ops = {
	.name		= "floor-2rmw",
	.what		= "floor: two atomic RMWs (CAS to lock, CAS to unlock)",
	.kind		= LOCK_FLOOR,
	.size		= sizeof(int),
	.init		= floor_init,
	.destroy	= floor_destroy,
	.loop		= cas_loop,
};
