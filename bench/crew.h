/* SPDX-License-Identifier: MIT */
/*
 * crew.h - the worker threads of one measurement window (crew.c): what
 * the contended, lru, rwsem and ww drivers share.
 *
 * The main thread starts the crew, meets it at a barrier, and then only
 * moves the phase word: warm-up, run, stop.  Each worker runs its
 * driver's loop once per phase, and takes its own start and stop
 * timestamps and CPU time around the run phase; throughput is all
 * workers' operations over the span from the first start to the last
 * stop.  Timing the window from the main thread instead overstates
 * throughput: the main thread is itself one of the threads competing
 * for the CPUs.
 */
#ifndef _BENCH_CREW_H
#define _BENCH_CREW_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct crew;

/* What every window is given. */
struct crew_cfg {
	unsigned int threads;
	unsigned int private_steps;	/* private_work() between operations */
	uint64_t warm_ns;		/* run, uncounted, before the window */
	uint64_t run_ns;		/* the window */
};

/* What every worker holds, filled in by crew.c and by its loop. */
struct member {
	struct crew *crew;
	pthread_t tid;
	unsigned long ops;		/* the loop's: operations in the run */
	uint64_t t_start, t_stop;	/* its view of the run; 0: not seen */
	uint64_t cpu_ns;		/* its user+sys CPU time in the run */
};

/*
 * A window's phase word and start barrier, first in the driver's window
 * struct: the phase alone on its cache line (the workers poll it), the
 * rest read-only while they run.
 */
struct crew {
	int phase __attribute__((aligned(64)));
	pthread_barrier_t start __attribute__((aligned(64)));
	/* Runs while the phase stays @ph; sets m->ops in PHASE_RUN. */
	void (*loop)(struct member *m, int ph);
	struct member *first;		/* the workers, @stride bytes apart */
	size_t stride;
	unsigned int n;
};

/* What crew_run() read off the members once they were joined. */
struct crew_sum {
	unsigned long ops;		/* all members' */
	unsigned long lo, hi;		/* per member, least and most */
	uint64_t cpu_ns;		/* all members' */
	double seconds;			/* first start to last stop */
};

static inline int crew_phase(const struct crew *c)
{
	return __atomic_load_n(&c->phase, __ATOMIC_RELAXED);
}

/* The driver's worker (of type @type) whose struct member, m, is @p. */
#define crew_worker(p, type) ((type *)((char *)(p) - offsetof(type, m)))

/* Member @i of @c. */
static inline struct member *crew_member(const struct crew *c,
					 unsigned int i)
{
	return (struct member *)((char *)c->first + i * c->stride);
}

/* M operations/s over the span, 0 if it is empty. */
static inline double crew_mops(const struct crew_sum *s)
{
	return s->seconds ? (double)s->ops / s->seconds / 1e6 : 0;
}

/*
 * Run a window: start a thread for each of @cfg's workers (an array
 * whose struct member is m: pass &w[0].m and sizeof(w[0])), run @loop in
 * each through warm-up and run, join them (the watchdog of join_or_die()
 * naming @lock), and sum them into @sum.
 */
void crew_run(struct crew *c, const struct crew_cfg *cfg,
	      struct member *first, size_t stride,
	      void (*loop)(struct member *m, int ph), const char *lock,
	      struct crew_sum *sum);

/* A zeroed block of @size bytes on its own cache lines, or exit. */
void *alloc_or_die(size_t size);

#endif /* _BENCH_CREW_H */
