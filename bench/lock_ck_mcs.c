// SPDX-License-Identifier: MIT
/*
 * lock_ck_mcs.c - Concurrency Kit's MCS queue spinlock (ck_spinlock_mcs),
 * when libck-dev is installed (BENCH_HAVE_CK, set by bench/configure.sh).
 *
 * An MCS lock needs a queue node per waiting thread: each thread here
 * holds at most one lock at a time, so one thread-local node will do.
 */
#include "lock_ops.h"

#ifdef BENCH_HAVE_CK
#include <ck_spinlock.h>

static __thread struct ck_spinlock_mcs mcs_node __attribute__((aligned(64)));

static inline void mcs_lock(ck_spinlock_mcs_t *q)
{
	ck_spinlock_mcs_lock(q, &mcs_node);
}

static inline void mcs_unlock(ck_spinlock_mcs_t *q)
{
	ck_spinlock_mcs_unlock(q, &mcs_node);
}

static void mcs_init(void *p)
{
	ck_spinlock_mcs_init(p);
}

static void mcs_lock_op(void *p)
{
	mcs_lock(p);
}

static void mcs_unlock_op(void *p)
{
	mcs_unlock(p);
}

static void mcs_destroy(void *p)
{
	(void)p;
}

/* Uncontended: one node on the stack, the calls inlined. */
static void mcs_loop(void *p, unsigned long n)
{
	struct ck_spinlock_mcs node;

	while (n--) {
		ck_spinlock_mcs_lock(p, &node);
		ck_spinlock_mcs_unlock(p, &node);
	}
}

const struct lock_ops ck_mcs_ops = {
	.name		= "ck-mcs",
	.what		= "Concurrency Kit MCS queue spinlock (ck_spinlock_mcs)",
	.kind		= LOCK_SPINNING,
	.size		= sizeof(ck_spinlock_mcs_t),
	.init		= mcs_init,
	.lock		= mcs_lock_op,
	.unlock		= mcs_unlock_op,
	.destroy	= mcs_destroy,
	.loop		= mcs_loop,
};
#else
const struct lock_ops ck_mcs_ops = {
	.name		= "ck-mcs",
	.what		= "Concurrency Kit MCS queue spinlock (ck_spinlock_mcs)",
	.kind		= LOCK_SPINNING,
	.skipped	= "install libck-dev",
};
#endif
