/* SPDX-License-Identifier: MIT */
/*
 * sem_ops.h - one table entry per counting semaphore the sem workload
 * measures (sem.c).  As in rwlock_ops.h, the embedded struct lock_ops
 * names the semaphore in the samples; its ->lock and ->unlock are down
 * and up, and its ->init sets the count to 0.
 */
#ifndef _BENCH_SEM_OPS_H
#define _BENCH_SEM_OPS_H

#include "lock_ops.h"

struct sem_ops {
	struct lock_ops base;
	void (*down)(void *sem);
	void (*up)(void *sem);
};

extern const struct sem_ops kmutex_sem_ops;	/* sem_kmutex.c */
extern const struct sem_ops posix_sem_ops;	/* sem_posix.c */

/* sem.c: every semaphore in table order; POSIX sem_t second. */
extern const struct sem_ops *const all_sems[];
extern const unsigned int nr_all_sems;

#endif /* _BENCH_SEM_OPS_H */
