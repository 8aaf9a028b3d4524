// SPDX-License-Identifier: MIT
/*
 * lock_ttas.c - a plain test-and-test-and-set spinlock: spin reading the
 * word, then try an exchange.  It never sleeps, so it shows what pure
 * spinning costs once threads outnumber cores.
 */
#include "clock.h"
#include "lock_ops.h"

static inline void ttas_lock(int *l)
{
	while (__atomic_load_n(l, __ATOMIC_RELAXED) ||
	       __atomic_exchange_n(l, 1, __ATOMIC_ACQUIRE))
		cpu_relax();
}

static inline void ttas_unlock(int *l)
{
	__atomic_store_n(l, 0, __ATOMIC_RELEASE);
}

static void ttas_init(void *p)
{
	*(int *)p = 0;
}

static void ttas_lock_op(void *p)
{
	ttas_lock(p);
}

static void ttas_unlock_op(void *p)
{
	ttas_unlock(p);
}

static void ttas_destroy(void *p)
{
	(void)p;
}

DEFINE_LOCK_LOOP(ttas_loop, int, ttas_lock, ttas_unlock)

const struct lock_ops ttas_ops = {
	.name		= "ttas-spin",
	.what		= "test-and-test-and-set spinlock (read-spin, then xchg)",
	.kind		= LOCK_SPINNING,
	.size		= sizeof(int),
	.init		= ttas_init,
	.lock		= ttas_lock_op,
	.unlock		= ttas_unlock_op,
	.destroy	= ttas_destroy,
	.loop		= ttas_loop,
};
