/* SPDX-License-Identifier: MIT */
/*
 * wait_lock.h - the small lock that protects a kmutex wait list.
 *
 * The kernel uses a spinlock here, which is safe there because its
 * holder cannot be preempted.  In userspace it can: a pure spinlock
 * would make every other thread burn its time slice while the holder is
 * off the CPU.  So this is a three-state futex lock (0 free, 1 held,
 * 2 held with sleepers, after Drepper's "Futexes Are Tricky", mutex #3)
 * that spins briefly by reading and then sleeps.  Sections under it are
 * a few list operations long.
 */
#ifndef _KMUTEX_SRC_WAIT_LOCK_H
#define _KMUTEX_SRC_WAIT_LOCK_H

#include <stdbool.h>
#include <stddef.h>
#include "valgrind.h"
#include "tls.h"

void wait_lock_acquire_slow(int *wl);
void wait_lock_wake(int *wl);

static inline void wait_lock_acquire(int *wl)
{
	int free = 0;

	vg_hook(vg_ignore_header(wl));
	/* ACQUIRE pairs with wait_lock_release()'s RELEASE exchange. */
	if (!__atomic_compare_exchange_n(wl, &free, 1, false,
					 __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
		wait_lock_acquire_slow(wl);
}

static inline void wait_lock_release(int *wl)
{
	/*
	 * RELEASE pairs with the next holder's ACQUIRE CAS or exchange.  A
	 * sleeper that set 2 after we read 1 is not lost: its FUTEX_WAIT
	 * finds 0 (the kernel compares under its hash-bucket lock).
	 */
	if (__atomic_exchange_n(wl, 0, __ATOMIC_RELEASE) == 2)
		wait_lock_wake(wl);
}

/*
 * The "irqsave" form, for the objects whose release side may be called
 * from a signal handler: up(), complete(), complete_all() (the kernel
 * takes their lock with interrupts off).  Userspace has no cheap way to
 * keep handlers out: sigprocmask() is a system call, two of them ~2 us
 * on the machines we measure, against ~20 ns for an uncontended
 * complete().  So a thread instead records, in a thread-local list of
 * nodes on its stack, each such wait_lock it is taking or holds.  A
 * handler that finds its own thread's node for the lock it wants does
 * not wait for it (that would be for ever): it leaves its work in the
 * node (wait_lock_irq_defer()), and the interrupted code does it right
 * after its release, before its own call returns.
 *
 * The node is pushed before the lock is taken and popped after it is
 * released, so whichever instruction the handler interrupts, "my thread
 * has a node for this lock" is exact: between push and acquisition and
 * between release and pop the lock may be free, but deferring is still
 * right, because the node's owner will release and then look.  Only the
 * thread itself and its handlers touch the list: compiler barriers
 * (signal fences), not atomics, keep the two in order.
 */
struct wait_lock_irq {
	int *wl;			/* the wait_lock taken or held */
	struct wait_lock_irq *prev;	/* the next older node */
	unsigned int deferred;		/* up()s or complete()s left here */
	unsigned int deferred_all;	/* a complete_all() left here */
};

extern __thread struct wait_lock_irq *wait_lock_irq_top
	KMUTEX_TLS;

static inline void wait_lock_irq_acquire(int *wl, struct wait_lock_irq *n)
{
	n->wl = wl;
	n->deferred = 0;
	n->deferred_all = 0;
	n->prev = wait_lock_irq_top;
	/* Signal fences: only this thread's handlers read these (no CPU
	 * barrier needed, on any CPU); they keep the compiler's order. */
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	wait_lock_irq_top = n;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	wait_lock_acquire(wl);
}

/* Release, then return whether work was deferred to @n meanwhile. */
static inline bool wait_lock_irq_release(int *wl, struct wait_lock_irq *n)
{
	wait_lock_release(wl);
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	wait_lock_irq_top = n->prev;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	/* RELAXED: written by a handler of this thread, not another one. */
	return __atomic_load_n(&n->deferred, __ATOMIC_RELAXED) ||
	       __atomic_load_n(&n->deferred_all, __ATOMIC_RELAXED);
}

/*
 * The node through which the calling thread takes or holds @wl, or NULL.
 * Non-NULL means the caller runs in a handler that interrupted that
 * code: it must not wait for @wl.
 */
static inline struct wait_lock_irq *wait_lock_irq_find(int *wl)
{
	struct wait_lock_irq *n;

	for (n = wait_lock_irq_top; n; n = n->prev)
		if (n->wl == wl)
			return n;
	return NULL;
}

#endif /* _KMUTEX_SRC_WAIT_LOCK_H */
