// SPDX-License-Identifier: MIT
/*
 * rwsem.c - read-mostly threads sharing one reader-writer lock.
 *
 * Each operation is a read (with probability 1 - writes_per_10k/10000:
 * read_lock, read the shared lines cs_rounds times, read_unlock) or a
 * write (write_lock, increment them cs_rounds times, write_unlock), then
 * private work.  The window is timed by the workers, as in contended.c.
 * Every write_lock() is timed (writes are rare, so the two clock reads
 * cost little) and the longest wait is kept: a lock that prefers readers
 * can keep a writer out for as long as readers overlap.
 *
 * A write adds the same amount to every line, so a reader must see them
 * all equal; one that does not saw a write half done.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "run.h"
#include "rwlock_ops.h"
#include "work.h"

const struct rwlock_ops *const all_rwlocks[] = {
	&kmutex_rwsem_ops,
	&pthread_rwlock_ops,
	&pthread_rwlock_wp_ops,
	&kmutex_percpu_rwsem_ops,
};

const unsigned int nr_all_rwlocks =
	sizeof(all_rwlocks) / sizeof(all_rwlocks[0]);

struct rw_window {
	int phase __attribute__((aligned(64)));
	const struct rw_cfg *cfg __attribute__((aligned(64)));
	void *lock;
	pthread_barrier_t start;
	struct shared_lines lines;
};

struct rw_worker {
	struct rw_window *win;
	pthread_t tid;
	unsigned long total_writes;	/* in all phases */
	unsigned long ops, writes;	/* in the window */
	uint64_t t_start, t_stop;
	uint64_t wait_max;
	uint64_t seed;
	bool torn;
} __attribute__((aligned(128)));

static inline int rw_phase(struct rw_window *win)
{
	return __atomic_load_n(&win->phase, __ATOMIC_RELAXED);
}

/* Read the lines @rounds times; false if they ever differ. */
static inline bool read_work(struct shared_lines *s, unsigned int rounds)
{
	unsigned long first = s->line[0].v;
	bool same = true;
	unsigned int i;

	while (rounds--)
		for (i = 0; i < SHARED_LINES; i++)
			same &= s->line[i].v == first;
	return same;
}

static void rw_loop(struct rw_worker *w, int ph)
{
	struct rw_window *win = w->win;
	const struct rw_cfg *cfg = win->cfg;
	const struct rwlock_ops *ops = cfg->ops;
	void *l = win->lock;
	uint64_t x = w->seed;
	unsigned long n = 0, writes = 0;

	while (rw_phase(win) == ph) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		if ((x >> 33) % 10000 < cfg->writes_per_10k) {
			uint64_t t = now_ns(), d;

			ops->write_lock(l);
			d = now_ns() - t;
			if (ph != PHASE_WARM && d > w->wait_max)
				w->wait_max = d;
			shared_work(&win->lines, cfg->cs_rounds);
			ops->write_unlock(l);
			writes++;
		} else {
			ops->read_lock(l);
			if (!read_work(&win->lines, cfg->cs_rounds))
				w->torn = true;
			ops->read_unlock(l);
		}
		x = private_work(x, cfg->private_steps);
		n++;
	}
	w->seed = x;
	w->total_writes += writes;
	if (ph == PHASE_RUN) {
		w->ops = n;
		w->writes = writes;
	}
}

static void *rw_worker_main(void *arg)
{
	struct rw_worker *w = arg;

	pthread_barrier_wait(&w->win->start);
	rw_loop(w, PHASE_WARM);
	w->t_start = now_ns();
	rw_loop(w, PHASE_RUN);
	w->t_stop = now_ns();
	return NULL;
}

int run_rw_window(const struct rw_cfg *cfg, struct rw_res *res)
{
	const struct lock_ops *base = &cfg->ops->base;
	struct rw_window *win;
	struct rw_worker *w;
	uint64_t first = UINT64_MAX, last = 0;
	unsigned long writes = 0;
	unsigned int i, n = cfg->threads;

	win = aligned_alloc(128, (sizeof(*win) + 127) & ~(size_t)127);
	w = aligned_alloc(128, n * sizeof(*w));
	if (!win || !w) {
		perror("aligned_alloc");
		exit(1);
	}
	memset(win, 0, sizeof(*win));
	memset(w, 0, n * sizeof(*w));
	memset(res, 0, sizeof(*res));
	win->cfg = cfg;
	win->lock = lock_alloc(base);
	pthread_barrier_init(&win->start, NULL, n + 1);
	for (i = 0; i < n; i++) {
		w[i].win = win;
		w[i].seed = 0x9e3779b97f4a7c15ull * (i + 1);
		start_or_die(&w[i].tid, rw_worker_main, &w[i]);
	}
	pthread_barrier_wait(&win->start);
	run_phases(&win->phase, cfg->warm_ns, cfg->run_ns);

	for (i = 0; i < n; i++) {
		join_or_die(base->name, n, w[i].tid);
		res->ops += w[i].ops;
		res->writes += w[i].writes;
		writes += w[i].total_writes;
		if (w[i].wait_max > res->write_wait_max)
			res->write_wait_max = w[i].wait_max;
		if (w[i].t_start < first)
			first = w[i].t_start;
		if (w[i].t_stop > last)
			last = w[i].t_stop;
		res->broken |= w[i].torn;
	}
	if (last > first)
		res->mops = (double)res->ops / ((double)(last - first) / 1e3);
	for (i = 0; i < SHARED_LINES; i++)
		if (win->lines.line[i].v != writes * cfg->cs_rounds)
			res->broken = true;

	pthread_barrier_destroy(&win->start);
	lock_free(base, win->lock);
	free(w);
	free(win);
	return 0;
}
