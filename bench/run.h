/* SPDX-License-Identifier: MIT */
/*
 * run.h - one measurement: a window of threads contending for one lock
 * (contended.c), or one timing of uncontended lock+unlock pairs
 * (uncontended.c); the rw lock, semaphore, LRU and ww workloads (rwsem.c,
 * sem.c, lru.c, ww.c).  The windows' threads are crew.c's (crew.h),
 * which also holds the helpers below from lock_alloc() to run_phases().
 */
#ifndef _BENCH_RUN_H
#define _BENCH_RUN_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "crew.h"
#include "lock_ops.h"

struct window_cfg {
	struct crew_cfg crew;
	const struct lock_ops *ops;
	unsigned int cs_rounds;		/* shared_work() per acquisition */
	unsigned int data_lines;	/* and data_work() on this many */
	bool timed;			/* time every acquisition's wait */
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

/* rwsem.c: readers and writers sharing one rw lock. */
struct rwlock_ops;

struct rw_cfg {
	struct crew_cfg crew;
	const struct rwlock_ops *ops;
	unsigned int writes_per_10k;	/* of the operations, writes */
	unsigned int cs_rounds;		/* shared lines read, or written */
};

struct rw_res {
	double mops;			/* M read or write sections/s */
	unsigned long ops, writes;
	uint64_t write_wait_max;	/* ns, the longest write_lock() */
	bool broken;			/* a reader saw a write half done */
};

int run_rw_window(const struct rw_cfg *cfg, struct rw_res *res);

/* lru.c: an LRU cache, a shared hash map, under one lock. */
struct lru_cfg {
	struct crew_cfg crew;
	const struct lock_ops *ops;
};

struct lru_res {
	double mops;			/* M get or put operations/s */
	unsigned long ops, gets, hits;	/* in the window */
	bool broken;			/* a torn entry, or a broken map */
};

/* The cache's shape, for the tables and the README. */
#define LRU_CAPACITY	4096		/* entries */
#define LRU_KEYS	8192		/* keys drawn from, uniformly */
#define LRU_PUT_PCT	10		/* of the operations, puts */

int run_lru_window(const struct lru_cfg *cfg, struct lru_res *res);

/* sem.c: two threads ping-ponging, and a producer with consumers. */
struct sem_ops;

struct pingpong_res {
	double rtt_p50_us, rtt_p99_us;	/* round trips */
	unsigned long rounds;
};

void run_pingpong(const struct sem_ops *ops, uint64_t warm_ns,
		  uint64_t run_ns, struct pingpong_res *res);
/* M items/s through a bounded buffer of counting semaphores. */
double run_prodcons(const struct sem_ops *ops, unsigned int consumers,
		    unsigned int private_steps, uint64_t warm_ns,
		    uint64_t run_ns);

/* ww.c: transactions that each lock WW_K of N objects. */
#define WW_K		4		/* locks per transaction */
#define NR_WW_SIZES	2
#define NR_WW_THREADS	4
extern const unsigned int ww_objects[NR_WW_SIZES];	/* N: 16, 64 */
extern const unsigned int ww_threads[NR_WW_THREADS];	/* 2 to 16 */
extern const struct lock_ops kmutex_ww_ops, pthread_sorted_ops;

struct ww_cfg {
	struct crew_cfg crew;
	const struct lock_ops *ops;	/* kmutex_ww_ops, pthread_sorted_ops */
	unsigned int objects;
};

struct ww_res {
	double mops;			/* M transactions/s */
	double deadlks_per_tx;		/* kmutex-ww's backoffs */
	bool broken;			/* two threads held one object */
};

void run_ww_window(const struct ww_cfg *cfg, struct ww_res *res);

/* Lock memory: each lock alone on its own cache lines. */
void *lock_alloc(const struct lock_ops *ops);
void lock_free(const struct lock_ops *ops, void *lock);

int run_window(const struct window_cfg *cfg, struct window_res *res);

/*
 * Join a worker of @lock once its window has closed, or say HUNG and
 * exit 3 if it has not finished 30 s later (a lost wake-up, a deadlock).
 */
void join_or_die(const char *lock, unsigned int threads, pthread_t tid);

/* A measurement window's phases, in the word its workers poll. */
enum { PHASE_WARM, PHASE_RUN, PHASE_STOP };

/* Start a worker, or exit saying why. */
void start_or_die(pthread_t *tid, void *(*fn)(void *), void *arg);

/* Let the workers warm up for @warm_ns, measure for @run_ns, stop. */
void run_phases(int *phase, uint64_t warm_ns, uint64_t run_ns);

/* Median ns per lock+unlock pair over @samples timings of @iters pairs. */
double uncontended_ns(const struct lock_ops *ops, unsigned int samples,
		      unsigned long iters);

/* A second thread, alive and asleep, so glibc's locks use their atomics. */
void sleeper_start(void);
void sleeper_stop(void);

#endif /* _BENCH_RUN_H */
