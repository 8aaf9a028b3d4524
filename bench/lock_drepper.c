// SPDX-License-Identifier: MIT
/*
 * lock_drepper.c - the textbook 3-state futex lock.
 *
 * The algorithm is the third mutex of Ulrich Drepper's paper "Futexes Are
 * Tricky" (0 free, 1 locked, 2 locked and maybe waiters; unlock wakes one
 * only when it finds 2).  Written here from the paper's description.
 */
#include <linux/futex.h>
#include <stdbool.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "lock_ops.h"

static inline void futex_op(int *uaddr, int op, int val)
{
	syscall(SYS_futex, uaddr, op | FUTEX_PRIVATE_FLAG, val, NULL, NULL, 0);
}

static inline void drepper_lock(int *f)
{
	int c = 0;

	if (__atomic_compare_exchange_n(f, &c, 1, false, __ATOMIC_ACQUIRE,
					__ATOMIC_RELAXED))
		return;
	/* Contended: mark "waiters" and sleep until we swap a 0 out. */
	if (c != 2)
		c = __atomic_exchange_n(f, 2, __ATOMIC_ACQUIRE);
	while (c != 0) {
		futex_op(f, FUTEX_WAIT, 2);
		c = __atomic_exchange_n(f, 2, __ATOMIC_ACQUIRE);
	}
}

static inline void drepper_unlock(int *f)
{
	if (__atomic_fetch_sub(f, 1, __ATOMIC_RELEASE) != 1) {
		__atomic_store_n(f, 0, __ATOMIC_RELEASE);
		futex_op(f, FUTEX_WAKE, 1);
	}
}

static void drepper_init(void *p)
{
	*(int *)p = 0;
}

static void drepper_lock_op(void *p)
{
	drepper_lock(p);
}

static void drepper_unlock_op(void *p)
{
	drepper_unlock(p);
}

static void drepper_destroy(void *p)
{
	(void)p;
}

DEFINE_LOCK_LOOP(drepper_loop, int, drepper_lock, drepper_unlock)

const struct lock_ops drepper_ops = {
	.name		= "drepper",
	.what		= "textbook 3-state futex lock (Drepper, Futexes Are Tricky)",
	.kind		= LOCK_SLEEPING,
	.size		= sizeof(int),
	.init		= drepper_init,
	.lock		= drepper_lock_op,
	.unlock		= drepper_unlock_op,
	.destroy	= drepper_destroy,
	.loop		= drepper_loop,
};
