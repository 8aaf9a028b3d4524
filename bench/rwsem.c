// SPDX-License-Identifier: MIT
/*
 * rwsem.c - read-mostly threads sharing one reader-writer lock.
 *
 * Each operation is a read (with probability 1 - writes_per_10k/10000:
 * read_lock, read the shared lines cs_rounds times, read_unlock) or a
 * write (write_lock, increment them cs_rounds times, write_unlock), then
 * private work.  The window is crew.c's, timed by the workers.
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
#include "crew.h"
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
	struct crew crew;
	const struct rw_cfg *cfg __attribute__((aligned(64)));
	void *lock;
	struct shared_lines lines;
};

struct rw_worker {
	struct member m;
	struct rw_window *win;
	unsigned long total_writes;	/* in all phases */
	unsigned long writes;		/* in the window */
	uint64_t wait_max;
	uint64_t seed;
	bool torn;
} __attribute__((aligned(128)));

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

static void rw_loop(struct member *m, int ph)
{
	struct rw_worker *w = crew_worker(m, struct rw_worker);
	struct rw_window *win = w->win;
	const struct rw_cfg *cfg = win->cfg;
	const struct rwlock_ops *ops = cfg->ops;
	void *l = win->lock;
	uint64_t x = w->seed;
	unsigned long n = 0, writes = 0;

	while (crew_phase(&win->crew) == ph) {
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
		x = private_work(x, cfg->crew.private_steps);
		n++;
	}
	w->seed = x;
	w->total_writes += writes;
	if (ph == PHASE_RUN) {
		m->ops = n;
		w->writes = writes;
	}
}

int run_rw_window(const struct rw_cfg *cfg, struct rw_res *res)
{
	const struct lock_ops *base = &cfg->ops->base;
	struct rw_window *win = alloc_or_die(sizeof(*win));
	struct rw_worker *w;
	struct crew_sum sum;
	unsigned long writes = 0;
	unsigned int i, n = cfg->crew.threads;

	w = alloc_or_die(n * sizeof(*w));
	memset(res, 0, sizeof(*res));
	win->cfg = cfg;
	win->lock = lock_alloc(base);
	for (i = 0; i < n; i++) {
		w[i].win = win;
		w[i].seed = 0x9e3779b97f4a7c15ull * (i + 1);
	}
	crew_run(&win->crew, &cfg->crew, &w[0].m, sizeof(w[0]), rw_loop,
		 base->name, &sum);

	res->ops = sum.ops;
	res->mops = crew_mops(&sum);
	for (i = 0; i < n; i++) {
		res->writes += w[i].writes;
		writes += w[i].total_writes;
		if (w[i].wait_max > res->write_wait_max)
			res->write_wait_max = w[i].wait_max;
		res->broken |= w[i].torn;
	}
	for (i = 0; i < SHARED_LINES; i++)
		if (win->lines.line[i].v != writes * cfg->cs_rounds)
			res->broken = true;

	lock_free(base, win->lock);
	free(w);
	free(win);
	return 0;
}
