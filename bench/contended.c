// SPDX-License-Identifier: MIT
/*
 * contended.c - threads contending for one lock, measured from inside.
 *
 * The window is crew.c's: the workers are started at a barrier, time
 * themselves, and count their own acquisitions (in a register, written
 * to their own cache line at the end).  Timed windows (fairness) also
 * keep every acquisition's wait in a per-worker histogram.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "clock.h"
#include "crew.h"
#include "hist.h"
#include "run.h"
#include "work.h"

struct window {
	struct crew crew;			/* the phase, written 2x */
	/* Read-only while the workers run: */
	const struct window_cfg *cfg __attribute__((aligned(64)));
	void *lock;
	struct shared_lines lines;		/* what critical sections touch */
	struct data_lines data;			/* ... the data-heavy ones */
};

struct worker {
	struct member m;
	struct window *win;
	unsigned long total;		/* acquisitions in all phases */
	uint64_t sink;			/* keeps private_work() honest */
	struct hist *hist;
} __attribute__((aligned(128)));

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
	unsigned int rounds = cfg->cs_rounds, steps = cfg->crew.private_steps;
	unsigned int lines = cfg->data_lines;
	uint64_t x = w->sink;
	unsigned long n = 0;

	while (crew_phase(&win->crew) == ph) {
		if (timed) {
			uint64_t t = now_ns();

			lock(l);
			/* A wait that began in the warm-up counts if it
			 * ended in the window or after: the longest do. */
			if (ph != PHASE_WARM ||
			    crew_phase(&win->crew) != PHASE_WARM)
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

static void worker_loop(struct member *m, int ph)
{
	struct worker *w = crew_worker(m, struct worker);
	unsigned long n = w->win->cfg->timed ? op_loop(w, ph, true) :
					       op_loop(w, ph, false);

	w->total += n;
	if (ph == PHASE_RUN)
		m->ops = n;
}

/* Every worker's wait histogram merged into @res's percentiles. */
static void wait_percentiles(struct worker *w, unsigned int n,
			     struct window_res *res)
{
	struct hist *sum = calloc(1, sizeof(*sum));
	unsigned int i;

	if (!sum) {
		perror("calloc");
		exit(1);
	}
	for (i = 0; i < n; i++)
		hist_merge(sum, w[i].hist);
	res->wait_p50 = hist_percentile(sum, 0.50);
	res->wait_p99 = hist_percentile(sum, 0.99);
	res->wait_max = sum->max;
	free(sum);
}

int run_window(const struct window_cfg *cfg, struct window_res *res)
{
	struct window *win = alloc_or_die(sizeof(*win));
	struct worker *w;
	struct crew_sum sum;
	unsigned long total = 0;
	unsigned int i, n = cfg->crew.threads;

	w = alloc_or_die(n * sizeof(*w));
	win->cfg = cfg;
	if (cfg->data_lines)
		data_lines_init(&win->data, cfg->data_lines);
	win->lock = lock_alloc(cfg->ops);
	for (i = 0; i < n; i++) {
		w[i].win = win;
		w[i].sink = i;
		if (cfg->timed)
			w[i].hist = alloc_or_die(sizeof(struct hist));
	}
	crew_run(&win->crew, &cfg->crew, &w[0].m, sizeof(w[0]), worker_loop,
		 cfg->ops->name, &sum);

	res->ops = sum.ops;
	res->seconds = sum.seconds;
	res->mops = crew_mops(&sum);
	res->cpu_ns_per_op = sum.ops ? (double)sum.cpu_ns / (double)sum.ops :
				       NAN;
	res->fairness = sum.lo ? (double)sum.hi / (double)sum.lo : INFINITY;
	if (cfg->timed)
		wait_percentiles(w, n, res);
	for (i = 0; i < n; i++) {
		total += w[i].total;
		free(w[i].hist);
	}
	/* Every acquisition added cs_rounds to each line: any lost update
	 * means two threads were inside at once. */
	for (i = 0; i < SHARED_LINES; i++)
		if (win->lines.line[i].v != total * cfg->cs_rounds)
			res->broken = true;
	for (i = 0; i < cfg->data_lines; i++)
		if (win->data.line[i].v != total)
			res->broken = true;

	lock_free(cfg->ops, win->lock);
	free(w);
	free(win);
	return 0;
}
