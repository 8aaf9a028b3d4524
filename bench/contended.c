// SPDX-License-Identifier: MIT
/*
 * contended.c - threads contending for one lock, measured from inside.
 *
 * The main thread creates the workers, meets them at a barrier, and then
 * only moves a phase word: warm-up, run, stop.  Each worker counts its
 * own acquisitions (in a register, written to its own cache line at the
 * end) and takes its own start and stop timestamps and CPU times when
 * it sees the phase change; throughput is all workers' ops over the span
 * from the first start to the last stop.  Timing the window from the
 * main thread instead overstates throughput: the main thread is itself
 * one of the threads competing for the two CPUs.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "clock.h"
#include "hist.h"
#include "run.h"
#include "work.h"

#define WATCHDOG_S	30

struct window {
	int phase __attribute__((aligned(64)));	/* written 2x per window */
	/* Read-only while the workers run: */
	const struct window_cfg *cfg __attribute__((aligned(64)));
	void *lock;
	pthread_barrier_t start;
	struct shared_lines lines;		/* what critical sections touch */
	struct data_lines data;			/* ... the data-heavy ones */
};

struct worker {
	struct window *win;
	pthread_t tid;
	unsigned long total;		/* acquisitions in all phases */
	unsigned long ops;		/* acquisitions in the window */
	uint64_t t_start, t_stop;
	uint64_t cpu_ns;
	uint64_t sink;			/* keeps private_work() honest */
	struct hist *hist;
} __attribute__((aligned(128)));

void *lock_alloc(const struct lock_ops *ops)
{
	size_t sz = (ops->size + 127) & ~(size_t)127;
	void *p = aligned_alloc(128, sz ? sz : 128);

	if (!p) {
		perror("aligned_alloc");
		exit(1);
	}
	memset(p, 0, sz);
	ops->init(p);
	return p;
}

void lock_free(const struct lock_ops *ops, void *lock)
{
	ops->destroy(lock);
	free(lock);
}

static uint64_t thread_cpu_ns(void)
{
	struct rusage ru;

	getrusage(RUSAGE_THREAD, &ru);
	return (uint64_t)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) *
		       1000000000u +
	       (uint64_t)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000u;
}

static inline int phase(struct window *win)
{
	return __atomic_load_n(&win->phase, __ATOMIC_RELAXED);
}

/*
 * Acquire, work on the shared lines, release, work privately: while the
 * phase stays @ph.  @timed is a constant at each call site, so the
 * untimed loop carries no clock reads.
 */
static inline __attribute__((always_inline)) unsigned long
op_loop(struct worker *w, int ph, bool timed)
{
	struct window *win = w->win;
	const struct window_cfg *cfg = win->cfg;
	void (*lock)(void *) = cfg->ops->lock;
	void (*unlock)(void *) = cfg->ops->unlock;
	void *l = win->lock;
	unsigned int rounds = cfg->cs_rounds, steps = cfg->private_steps;
	unsigned int lines = cfg->data_lines;
	uint64_t x = w->sink;
	unsigned long n = 0;

	while (phase(win) == ph) {
		if (timed) {
			uint64_t t = now_ns();

			lock(l);
			/* A wait that began in the warm-up counts if it
			 * ended in the window or after: the longest do. */
			if (ph != PHASE_WARM || phase(win) != PHASE_WARM)
				hist_add(w->hist, now_ns() - t);
		} else {
			lock(l);
		}
		shared_work(&win->lines, rounds);
		data_work(&win->data, lines);
		unlock(l);
		x = private_work(x, steps);
		n++;
	}
	w->sink = x;
	return n;
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct window *win = w->win;
	bool timed = win->cfg->timed;
	uint64_t cpu0;

	pthread_barrier_wait(&win->start);
	w->total = timed ? op_loop(w, PHASE_WARM, true) :
			   op_loop(w, PHASE_WARM, false);

	cpu0 = thread_cpu_ns();
	w->t_start = now_ns();
	w->ops = timed ? op_loop(w, PHASE_RUN, true) :
			 op_loop(w, PHASE_RUN, false);
	w->t_stop = now_ns();
	w->cpu_ns = thread_cpu_ns() - cpu0;
	w->total += w->ops;
	return NULL;
}

/*
 * Every worker finishes its acquisition in flight and stops: within
 * milliseconds for a sleeping lock, within a second for a spinlock whose
 * queue is full of preempted threads.  One that does not is a lost
 * wake-up or a deadlock in the lock: say so rather than hang.
 */
void join_or_die(const char *lock, unsigned int threads, pthread_t tid)
{
	struct timespec deadline;

	clock_gettime(CLOCK_REALTIME, &deadline);
	deadline.tv_sec += WATCHDOG_S;
	if (pthread_timedjoin_np(tid, NULL, &deadline) == ETIMEDOUT) {
		fprintf(stderr, "\nkmutex-bench: HUNG: a thread of %s (%u "
			"threads) still had not finished %d s after the window "
			"closed: a lost wake-up or a deadlock in the lock\n",
			lock, threads, WATCHDOG_S);
		exit(3);
	}
}

void start_or_die(pthread_t *tid, void *(*fn)(void *), void *arg)
{
	int err = pthread_create(tid, NULL, fn, arg);

	if (err) {
		fprintf(stderr, "pthread_create: %s\n", strerror(err));
		exit(1);
	}
}

void run_phases(int *phase, uint64_t warm_ns, uint64_t run_ns)
{
	sleep_ns(warm_ns);
	__atomic_store_n(phase, PHASE_RUN, __ATOMIC_RELAXED);
	sleep_ns(run_ns);
	__atomic_store_n(phase, PHASE_STOP, __ATOMIC_RELAXED);
}

int run_window(const struct window_cfg *cfg, struct window_res *res)
{
	struct window *win;
	struct worker *w;
	struct hist *sum = NULL;
	uint64_t first = UINT64_MAX, last = 0, cpu = 0;
	unsigned long total = 0, lo = ULONG_MAX, hi = 0;
	unsigned int i, n = cfg->threads;

	win = aligned_alloc(128, (sizeof(*win) + 127) & ~(size_t)127);
	w = aligned_alloc(128, n * sizeof(*w));
	if (!win || !w) {
		perror("aligned_alloc");
		exit(1);
	}
	memset(win, 0, sizeof(*win));
	memset(w, 0, n * sizeof(*w));
	win->cfg = cfg;
	win->phase = PHASE_WARM;
	if (cfg->data_lines)
		data_lines_init(&win->data, cfg->data_lines);
	win->lock = lock_alloc(cfg->ops);
	pthread_barrier_init(&win->start, NULL, n + 1);
	for (i = 0; i < n; i++) {
		w[i].win = win;
		w[i].sink = i;
		if (cfg->timed) {
			w[i].hist = calloc(1, sizeof(struct hist));
			if (!w[i].hist) {
				perror("calloc");
				exit(1);
			}
		}
		start_or_die(&w[i].tid, worker_main, &w[i]);
	}
	pthread_barrier_wait(&win->start);
	run_phases(&win->phase, cfg->warm_ns, cfg->run_ns);

	if (cfg->timed)
		sum = calloc(1, sizeof(*sum));
	for (i = 0; i < n; i++) {
		join_or_die(cfg->ops->name, cfg->threads, w[i].tid);
		total += w[i].total;
		res->ops += w[i].ops;
		cpu += w[i].cpu_ns;
		if (w[i].t_start < first)
			first = w[i].t_start;
		if (w[i].t_stop > last)
			last = w[i].t_stop;
		if (w[i].ops < lo)
			lo = w[i].ops;
		if (w[i].ops > hi)
			hi = w[i].ops;
		if (sum)
			hist_merge(sum, w[i].hist);
		free(w[i].hist);
	}
	res->seconds = last > first ? (double)(last - first) / 1e9 : 0;
	res->mops = res->seconds ? (double)res->ops / res->seconds / 1e6 : 0;
	res->cpu_ns_per_op = res->ops ? (double)cpu / (double)res->ops : NAN;
	res->fairness = lo ? (double)hi / (double)lo : INFINITY;
	if (sum) {
		res->wait_p50 = hist_percentile(sum, 0.50);
		res->wait_p99 = hist_percentile(sum, 0.99);
		res->wait_max = sum->max;
		free(sum);
	}
	/* Every acquisition added cs_rounds to each line: any lost update
	 * means two threads were inside at once. */
	for (i = 0; i < SHARED_LINES; i++)
		if (win->lines.line[i].v != total * cfg->cs_rounds)
			res->broken = true;
	for (i = 0; i < cfg->data_lines; i++)
		if (win->data.line[i].v != total)
			res->broken = true;

	pthread_barrier_destroy(&win->start);
	lock_free(cfg->ops, win->lock);
	free(w);
	free(win);
	return 0;
}
