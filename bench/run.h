/* SPDX-License-Identifier: MIT */
/*
 * run.h - one measurement: a window of threads contending for one lock
 * (contended.c), or one timing of uncontended lock+unlock pairs
 * (uncontended.c).
 */
#ifndef _BENCH_RUN_H
#define _BENCH_RUN_H

#include <stdbool.h>
#include <stdint.h>

#include "lock_ops.h"

struct window_cfg {
	const struct lock_ops *ops;
	unsigned int threads;
	unsigned int cs_rounds;		/* shared_work() per acquisition */
	unsigned int private_steps;	/* private_work() between them */
	bool timed;			/* time every acquisition's wait */
	uint64_t warm_ns;		/* run, uncounted, before the window */
	uint64_t run_ns;		/* the window */
};

struct window_res {
	double mops;			/* M acquisitions/s over the window */
	double seconds;			/* first worker start to last stop */
	double cpu_ns_per_op;		/* the workers' user+sys CPU / ops */
	double fairness;		/* per-thread ops max/min, inf: starved */
	unsigned long ops;
	uint64_t wait_p50, wait_p99, wait_max;	/* ns, when timed */
	bool broken;			/* the lock let two threads in */
};

/* Lock memory: each lock alone on its own cache lines. */
void *lock_alloc(const struct lock_ops *ops);
void lock_free(const struct lock_ops *ops, void *lock);

int run_window(const struct window_cfg *cfg, struct window_res *res);

/* Median ns per lock+unlock pair over @samples timings of @iters pairs. */
double uncontended_ns(const struct lock_ops *ops, unsigned int samples,
		      unsigned long iters);

/* A second thread, alive and asleep, so glibc's locks use their atomics. */
void sleeper_start(void);
void sleeper_stop(void);

#endif /* _BENCH_RUN_H */
