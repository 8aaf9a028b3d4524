/* SPDX-License-Identifier: MIT */
/*
 * rwlock_ops.h - one table entry per reader-writer lock the rwsem
 * workload measures (rwsem.c), as lock_ops.h is for the mutexes.
 *
 * The embedded struct lock_ops carries the name, the size and init and
 * destroy, so that the samples, the CSV and the JSON name an rw lock as
 * they name a mutex; its ->lock and ->unlock are the write side.
 */
#ifndef _BENCH_RWLOCK_OPS_H
#define _BENCH_RWLOCK_OPS_H

#include "lock_ops.h"

struct rwlock_ops {
	struct lock_ops base;
	void (*read_lock)(void *lock);
	void (*read_unlock)(void *lock);
	void (*write_lock)(void *lock);
	void (*write_unlock)(void *lock);
};

extern const struct rwlock_ops kmutex_rwsem_ops;	/* rwlock_kmutex.c */
extern const struct rwlock_ops kmutex_percpu_rwsem_ops; /* rwlock_percpu.c */
extern const struct rwlock_ops pthread_rwlock_ops;	/* rwlock_pthread.c */
extern const struct rwlock_ops pthread_rwlock_wp_ops;	/* rwlock_pthread.c */

/* rwsem.c: every rw lock in table order; pthread's default second. */
extern const struct rwlock_ops *const all_rwlocks[];
extern const unsigned int nr_all_rwlocks;

#endif /* _BENCH_RWLOCK_OPS_H */
