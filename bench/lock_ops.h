/* SPDX-License-Identifier: MIT */
/*
 * lock_ops.h - one table entry per lock the benchmark measures.
 *
 * The shape follows the kernel's locktorture (struct lock_torture_ops):
 * the harness knows locks only through these operations, and each lock
 * family lives in its own file (lock_*.c).
 */
#ifndef _BENCH_LOCK_OPS_H
#define _BENCH_LOCK_OPS_H

#include <stdbool.h>
#include <stddef.h>

enum lock_kind {
	LOCK_SLEEPING,		/* blocks in the kernel when contended */
	LOCK_SPINNING,		/* spins for ever: a reference, not a peer */
	LOCK_FLOOR,		/* bare atomics: uncontended latency only */
};

struct lock_ops {
	const char *name;	/* short name, for --locks and the tables */
	const char *what;	/* one line for --help and the JSON */
	enum lock_kind kind;
	size_t size;		/* sizeof the lock object itself */
	const char *skipped;	/* non-NULL: not built in, and how to get it */

	void (*setup)(void);	/* optional, once per process */
	void (*init)(void *lock);
	void (*lock)(void *lock);
	void (*unlock)(void *lock);
	void (*destroy)(void *lock);
	/*
	 * @n lock+unlock pairs with the lock's own calls inlined (as a
	 * program that uses the lock would compile them), for the
	 * uncontended latency: no call through this table per pair.
	 */
	void (*loop)(void *lock, unsigned long n);
};

/*
 * DEFINE_LOCK_LOOP - the ->loop operation of a lock, from its inline
 * lock and unlock functions (each taking a pointer of type @type).
 */
#define DEFINE_LOCK_LOOP(fn, type, lockfn, unlockfn)			\
static void fn(void *p, unsigned long n)				\
{									\
	type *l = p;							\
									\
	while (n--) {							\
		lockfn(l);						\
		unlockfn(l);						\
	}								\
}

/* The families, one file each. */
extern const struct lock_ops kmutex_ops;		/* lock_kmutex.c */
extern const struct lock_ops pthread_default_ops;	/* lock_pthread.c */
extern const struct lock_ops pthread_adaptive_ops;	/* lock_pthread.c */
extern const struct lock_ops drepper_ops;		/* lock_drepper.c */
extern const struct lock_ops absl_ops;			/* lock_absl.c */
extern const struct lock_ops ck_mcs_ops;		/* lock_ck_mcs.c */
extern const struct lock_ops ttas_ops;			/* lock_ttas.c */
extern const struct lock_ops floor_xchg_ops;		/* lock_floor.c */
extern const struct lock_ops floor_2rmw_ops;		/* lock_floor.c */

/* locks.c: every lock in table order; kmutex first, pthread second. */
extern const struct lock_ops *const all_locks[];
extern const unsigned int nr_all_locks;
extern const char *const lock_kind_name[];	/* "sleeping", ... */

const struct lock_ops *lock_by_name(const char *name);

#endif /* _BENCH_LOCK_OPS_H */
