// SPDX-License-Identifier: MIT
/*
 * report.c - the tables on stdout, issues 3 and 10's targets checked
 * against this run, and the files: results.csv and results.json (every sample
 * and the summaries), and the gnuplot plots when gnuplot is installed.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "run.h"

#define NAMEW	18	/* at least; wider for long names (set_namew) */

static int namew = NAMEW;

const struct lock_ops *selected(const struct lock_ops *ops)
{
	unsigned int i;

	for (i = 0; i < set.nr_locks; i++)
		if (set.locks[i] == ops)
			return ops;
	return NULL;
}

char *fmt_num(char *buf, size_t len, double v)
{
	double a = fabs(v);

	if (isnan(v))
		snprintf(buf, len, "-");
	else if (isinf(v))
		snprintf(buf, len, "inf");
	else if (a >= 1e6)
		snprintf(buf, len, "%.1fM", v / 1e6);
	else if (a >= 1e4)
		snprintf(buf, len, "%.1fk", v / 1e3);
	else if (a >= 100)
		snprintf(buf, len, "%.0f", v);
	else if (a >= 10)
		snprintf(buf, len, "%.1f", v);
	else if (a >= 0.1 || a == 0)
		snprintf(buf, len, "%.2f", v);
	else
		snprintf(buf, len, "%.3f", v);
	return buf;
}

/* "median (min-max)", or the median alone for a single repetition. */
static char *fmt_cell(char *buf, size_t len, struct summary s, double scale)
{
	char a[24], b[24], c[24];

	if (!s.n) {
		snprintf(buf, len, "-");
		return buf;
	}
	fmt_num(a, sizeof(a), s.med * scale);
	if (s.n == 1) {
		snprintf(buf, len, "%s", a);
		return buf;
	}
	fmt_num(b, sizeof(b), s.min * scale);
	fmt_num(c, sizeof(c), s.max * scale);
	snprintf(buf, len, "%s (%s-%s)", a, b, c);
	return buf;
}

void print_cell(struct summary s, double scale)
{
	char buf[80];

	printf(" %-*s", CELL, fmt_cell(buf, sizeof(buf), s, scale));
}

/* A row's name; without a size (a ratio row), it may use that column. */
void print_name(const char *name, const char *size)
{
	if (*size)
		printf("%-*s %5s", namew, name, size);
	else
		printf("%-*s", namew + 6, name);
}

void print_lock(const struct lock_ops *ops)
{
	char size[16];

	snprintf(size, sizeof(size), "%zu", ops->size);
	print_name(ops->name, size);
}

void rule(const char *title)
{
	printf("\n%s\n", title);
}

/* "410 ns (...): far", or "n/a (why)". */
static void print_c2c(const struct c2c *c, bool detail)
{
	if (c->why) {
		printf("n/a (%s)", c->why);
		return;
	}
	printf("%.0f ns", c->rtt_ns);
	if (detail)
		printf(" (median of %u samples of %u round trips; %.0f-%.0f)",
		       c->samples, c->trips, c->min_ns, c->max_ns);
	printf(": %s pair", c2c_label(c));
	if (detail)
		printf(" (near: below %d ns)", C2C_NEAR_NS);
}

/* The machine's own stalls, and what they mean for the longest waits. */
static void print_stalls(const struct stalls *s)
{
	printf("stalls    ");
	if (s->why) {
		printf("n/a (%s)\n", s->why);
		return;
	}
	printf("a thread per CPU (%u) reading the clock for %.1f s: ",
	       s->threads, s->seconds);
	if (!s->count) {
		printf("no gap over %.1f ms (longest %.3f ms)\n",
		       STALL_GAP_NS / 1e6, s->longest_ns / 1e6);
		return;
	}
	printf("longest gap %.2f ms; %lu gaps over %.1f ms, %.2f%% of the "
	       "time\n          (the kernel, the host or another process ran "
	       "something else; "
	       "a lock holder stalled so keeps its waiters\n          "
	       "waiting as long: no longest wait below can be shorter)\n",
	       s->longest_ns / 1e6, s->count, STALL_GAP_NS / 1e6,
	       100.0 * s->total_ns / (s->seconds * 1e9 * s->threads));
}

void report_header(void)
{
	unsigned int i;

	printf("kmutex-bench: kmutex's struct mutex against the locks in use "
	       "today, on this machine\n\n");
	printf("machine   %s, %ld CPUs online (%ld configured)\n", mach.cpu,
	       mach.cpus_online, mach.cpus_conf);
	printf("system    %s, glibc %s, clocksource %s\n", mach.kernel,
	       mach.libc, mach.clocksource);
	printf("cpu pair  ");
	if (mach.c2c.cpu[0] >= 0)
		printf("CPU %d <-> CPU %d, cache-line round trip ",
		       mach.c2c.cpu[0], mach.c2c.cpu[1]);
	print_c2c(&mach.c2c, true);
	printf("\n");
	print_stalls(&mach.stalls);
	printf("load      %.2f %.2f %.2f (1/5/15 min) before the run\n",
	       mach.load_before[0], mach.load_before[1], mach.load_before[2]);
	printf("work      critical section %.0f ns = %u rounds over %d shared "
	       "cache lines (%.2f ns/round); private work %.0f ns = %u steps "
	       "(%.2f ns/step); calibrated by the clock at start\n",
	       set.cs_ns, set.cal.cs_rounds, SHARED_LINES, set.cal.round_ns,
	       set.private_ns, set.cal.private_steps, set.cal.step_ns);
	printf("          data-heavy critical section: a walk through %u "
	       "shared cache lines in a fixed order, each incremented once "
	       "(%.1f ns when they are local)\n", set.data_lines,
	       set.cal.data_ns);
	printf("method    %s: %u rep%s, each lock in turn at every point of "
	       "every rep; windows of %.3f s after %.3f s warm-up, timed by "
	       "the workers themselves; cells are median (min-max) over reps; "
	       "ratios are per rep, then the median\n", set.mode, set.reps,
	       set.reps == 1 ? "" : "s", set.seconds, set.warmup);
	printf("pairs     the CPU pair is measured again (~1 ms) before "
	       "and after every point of every rep of the contended, fairness "
	       "and lru workloads; when a table saw both kinds, its ratio rows "
	       "are repeated for the [near] and the [far] reps alone\n");
	printf("locks    ");
	for (i = 0; i < nr_all_locks; i++) {
		const struct lock_ops *ops = all_locks[i];

		if (ops->skipped)
			printf(" %s: skipped (%s);", ops->name, ops->skipped);
		else if (!selected(ops))
			printf(" %s: not selected;", ops->name);
		else
			printf(" %s;", ops->name);
	}
	printf("\n");
	if (mach.cpus_online < 2)
		printf("note      one CPU: contention here is all preemption\n");
}

static void table_uncontended(const struct lock_ops *km,
			      const struct lock_ops *pt)
{
	static const struct column col[] = {
		{ "2nd thread alive", WL_UNCONTENDED, 0, 1, "ns", 1 },
		{ "single-threaded [1]", WL_UNCONTENDED_1T, 0, 1, "ns", 1 },
	};

	rule("== Uncontended lock+unlock, ns per pair (lower is better)");
	print_heads("lock", col, 2);
	print_lock_rows(col, 2, true);
	print_ratio_row("kmutex/pthread", km, pt, col, 2, PAIR_ANY);
	print_ratio_row("kmutex/floor-2rmw", km, selected(&floor_2rmw_ops),
			col, 2, PAIR_ANY);
	printf("[1] glibc skips the atomics of its locks while a process has "
	       "never had a second thread:\n    not the case a mutex is "
	       "for; shown for completeness. Use the first column.\n");
}

/*
 * " [near, 3 reps]" (" [near, 2-3 reps]" when the thread counts differ)
 * for one kind of pair, "" for PAIR_ANY: kmutex's reps of that kind.
 */
static char *pair_suffix(char *buf, size_t len, enum workload wl,
			 const struct lock_ops *km, unsigned int cs,
			 enum pair pair)
{
	unsigned int lo = ~0u, hi = 0, t, n;
	double v[MAX_REPS];

	*buf = 0;
	if (pair == PAIR_ANY || !km)
		return buf;
	for (t = 0; t < set.nr_threads; t++) {
		n = sample_reps_pair(wl, km, cs, set.threads[t], "mops", pair,
				     v);
		lo = n < lo ? n : lo;
		hi = n > hi ? n : hi;
	}
	if (lo == hi)
		snprintf(buf, len, " [%s, %u rep%s]", pair_name[pair], hi,
			 hi == 1 ? "" : "s");
	else
		snprintf(buf, len, " [%s, %u-%u reps]", pair_name[pair], lo,
			 hi);
	return buf;
}

/*
 * Under a throughput table, on the reps of one kind of pair (or all):
 * kmutex against pthread, against the best sleeping peer at each thread
 * count (which one is named on the line below), as issue 10's targets
 * take it, and each selected variant of kmutex against pthread and
 * against kmutex.
 */
static void ratio_rows(const struct column *col, const struct lock_ops *km,
		       const struct lock_ops *pt, enum pair pair)
{
	enum workload wl = col[0].wl;
	unsigned int cs = col[0].cs, n = set.nr_threads, i, t;
	const struct lock_ops *bp;
	char sfx[48], label[128];

	pair_suffix(sfx, sizeof(sfx), wl, km, cs, pair);
	snprintf(label, sizeof(label), "kmutex/pthread%s", sfx);
	print_ratio_row(label, km, pt, col, n, pair);
	if (km) {
		snprintf(label, sizeof(label), "kmutex/best peer%s", sfx);
		print_name(label, "");
		for (t = 0; t < n; t++) {
			bp = best_peer_pair(wl, km, cs, set.threads[t], pair);
			print_cell(bp ? sample_ratio_pair(wl, km, bp, cs,
					set.threads[t], "mops", pair) :
					(struct summary){ 0 }, 1);
		}
		printf("\n");
		print_name("  best peer", "");
		for (t = 0; t < n; t++) {
			bp = best_peer_pair(wl, km, cs, set.threads[t], pair);
			printf(" %-*s", CELL, bp ? bp->name : "-");
		}
		printf("\n");
	}
	for (i = 0; i < set.nr_locks; i++) {
		const struct lock_ops *v = set.locks[i];

		if (!v->variant)
			continue;
		snprintf(label, sizeof(label), "%s/pthread%s", v->name, sfx);
		print_ratio_row(label, v, pt, col, n, pair);
		snprintf(label, sizeof(label), "%s/kmutex%s", v->name, sfx);
		print_ratio_row(label, v, km, col, n, pair);
	}
}

/* Throughput of every contending lock at every thread count, and ratios. */
static void throughput_rows(enum workload wl, unsigned int cs,
			    const struct lock_ops *km,
			    const struct lock_ops *pt)
{
	struct column col[MAX_THREAD_COUNTS];
	unsigned int split = pairs_split(wl, cs), n = set.nr_threads, p;

	column_threads(col, wl, cs, set.threads, n, "mops", 1);
	print_heads("lock", col, n);
	print_lock_rows(col, n, false);
	ratio_rows(col, km, pt, PAIR_ANY);
	for (p = PAIR_NEAR; p <= PAIR_FAR; p++)
		if (split & (1u << p))
			ratio_rows(col, km, pt, (enum pair)p);
}

static void table_contended(unsigned int cs, const struct lock_ops *km,
			    const struct lock_ops *pt)
{
	char title[200];

	if (cs)
		snprintf(title, sizeof(title), "== Contended throughput, M "
			 "acquisitions/s (higher is better): critical section "
			 "~%u ns on %d shared lines, ~%.0f ns private work",
			 cs, SHARED_LINES, set.private_ns);
	else
		snprintf(title, sizeof(title), "== Contended throughput, M "
			 "acquisitions/s (higher is better): critical section "
			 "empty, ~%.0f ns private work", set.private_ns);
	rule(title);
	throughput_rows(WL_CONTENDED, cs, km, pt);
}

static void table_contended_data(const struct lock_ops *km,
				 const struct lock_ops *pt)
{
	char title[300];

	snprintf(title, sizeof(title), "== Contended throughput, M "
		 "acquisitions/s (higher is better): data-heavy critical "
		 "section, a walk through %u shared lines, each incremented "
		 "once (%.0f ns when local; each move of the lock to the other "
		 "CPU moves them all, one by one), ~%.0f ns private work", set.data_lines,
		 set.cal.data_ns, set.private_ns);
	rule(title);
	throughput_rows(WL_CONTENDED_DATA, 0, km, pt);
}

static void table_lru(const struct lock_ops *km, const struct lock_ops *pt)
{
	char title[300];

	snprintf(title, sizeof(title), "== LRU cache under one lock, M "
		 "operations/s (higher is better): a hash map of %d entries "
		 "with a recency list, %d%% gets / %d%% puts of keys drawn "
		 "uniformly from %d, ~%.0f ns private work; %.3f s windows",
		 LRU_CAPACITY, 100 - LRU_PUT_PCT, LRU_PUT_PCT, LRU_KEYS,
		 set.private_ns, set.rw_seconds);
	rule(title);
	throughput_rows(WL_LRU, 0, km, pt);
}

static void table_fairness(unsigned int threads, const struct lock_ops *km,
			   const struct lock_ops *pt)
{
	static const struct column shape[] = {
		{ "max/min", WL_FAIRNESS, 0, 0, "fair_max_min", 1 },
		{ "wait p50 us", WL_FAIRNESS, 0, 0, "wait_p50_ns", 1e-3 },
		{ "wait p99 us", WL_FAIRNESS, 0, 0, "wait_p99_ns", 1e-3 },
		{ "wait max us", WL_FAIRNESS, 0, 0, "wait_max_ns", 1e-3 },
		{ "M acq/s (timed)", WL_FAIRNESS, 0, 0, "mops", 1 },
	};
	struct column col[5];
	unsigned int m;
	char title[200];

	for (m = 0; m < 5; m++) {
		col[m] = shape[m];
		col[m].cs = (unsigned int)set.cs_ns;
		col[m].threads = threads;
	}
	snprintf(title, sizeof(title), "== Fairness at %u threads, critical "
		 "section ~%.0f ns: per-thread acquisitions max/min, and the "
		 "wait for one acquisition in us (lower is better)", threads,
		 set.cs_ns);
	rule(title);
	print_heads("lock", col, 5);
	print_lock_rows(col, 5, false);
	print_ratio_row("kmutex/pthread", km, pt, col, 5, PAIR_ANY);
}

static void table_oversub(const struct lock_ops *km,
			  const struct lock_ops *pt)
{
	unsigned int cs = (unsigned int)set.cs_ns;
	const struct column col[] = {
		{ "CPU/op 8 threads", WL_OVERSUB, cs, 8, "cpu_ns_per_op", 1 },
		{ "CPU/op 16 threads", WL_OVERSUB, cs, 16, "cpu_ns_per_op", 1 },
		{ "kept 8 vs 2", WL_OVERSUB, cs, 8, "kept_vs_2", 1 },
		{ "kept 16 vs 2", WL_OVERSUB, cs, 16, "kept_vs_2", 1 },
	};
	char title[200];

	snprintf(title, sizeof(title), "== Oversubscription on %ld CPUs, "
		 "critical section ~%u ns: CPU time per acquisition in ns "
		 "(lower is better), throughput kept vs 2 threads",
		 mach.cpus_online, cs);
	rule(title);
	print_heads("lock", col, 4);
	print_lock_rows(col, 4, false);
	print_ratio_row("kmutex/pthread", km, pt, col, 4, PAIR_ANY);
}

static void table_targets(void)
{
	unsigned int i, met = 0, na = 0;
	int w = 66;

	if (!nr_targets)
		return;
	for (i = 0; i < nr_targets; i++)
		if ((int)strlen(targets[i].what) > w)
			w = (int)strlen(targets[i].what);
	rule("== Issues 3 and 10's targets for kmutex, on this run (medians "
	     "of per-rep ratios)");
	for (i = 0; i < nr_targets; i++) {
		const struct target *t = &targets[i];
		char v[24], l[24];

		printf("  %-7s %-*s %6s  (target %s %s)\n",
		       !t->judged ? "n/a" : t->met ? "met" : "MISSED", w,
		       t->what, fmt_num(v, sizeof(v), t->value),
		       t->at_most ? "<=" : ">=",
		       fmt_num(l, sizeof(l), t->limit));
		met += t->met;
		na += !t->judged;
	}
	printf("  %u of %u met.  On a 2-CPU VM single runs are noisy: "
	       "re-run, or use --full, before trusting one line.\n", met,
	       nr_targets - na);
	if (na)
		printf("  (n/a: not judged; every rep of the point ran on "
		       "a pair of the other kind, moved between kinds, or "
		       "could not be told)\n");
	if (!pair_points[PAIR_NEAR] && strcmp(c2c_label(&mach.c2c), "near"))
		printf("  (issue 10's kmutex/pthread >= 1.5 at ~%.0f ns holds "
		       "for near CPU pairs only; this run had none)\n",
		       set.cs_ns);
	if (pair_points[PAIR_NEAR] && pair_points[PAIR_FAR])
		printf("  (both kinds of CPU pair were seen: issue 10's "
		       "any-machine targets are judged on the near and the far "
		       "reps apart)\n");
}

/*
 * Wide enough for every lock's name, and every ratio row's label (which
 * may use the size column too): "kmutex-<variant>/pthread [near, 2-3
 * reps]" when the tables split by pair.
 */
static void set_namew(void)
{
	char sfx[48];
	unsigned int i;
	int w, extra = 0;

	if (pairs_split(WL_CONTENDED, 0) |
	    pairs_split(WL_CONTENDED, (unsigned int)set.cs_ns) |
	    pairs_split(WL_CONTENDED_DATA, 0) | pairs_split(WL_LRU, 0))
		extra = snprintf(sfx, sizeof(sfx), " [near, %u-%u reps]",
				 set.reps, set.reps);
	namew = NAMEW;
	for (i = 0; i < set.nr_locks; i++) {
		const struct lock_ops *ops = set.locks[i];

		w = (int)strlen(ops->name);
		if (w > namew)
			namew = w;
		if (!ops->variant)
			continue;
		/* + 1: a space after the label, whatever its length. */
		w = (int)strlen(ops->name) + (int)strlen("/pthread") + extra -
		    6 + 1;
		if (w > namew)
			namew = w;
	}
	w = (int)strlen("kmutex/best peer") + extra - 6;
	if (w > namew)
		namew = w;
}

/* Which kind of pair the points ran on, when they were labelled. */
static void report_pairs(void)
{
	unsigned int p, n = 0;

	for (p = PAIR_NA; p < NR_PAIRS; p++)
		n += pair_points[p];
	if (!n)
		return;
	printf("pairs     %u points x reps of contended/fairness/lru labelled "
	       "by a round trip before and after:", n);
	for (p = PAIR_NA; p < NR_PAIRS; p++)
		if (pair_points[p])
			printf(" %s %u", pair_name[p], pair_points[p]);
	if (!isnan(pair_rtt_min))
		printf(" (%.0f-%.0f ns)", pair_rtt_min, pair_rtt_max);
	if (c2c_fake && *c2c_fake)
		printf(" FAKED by KMUTEX_BENCH_FAKE_PAIRS=%s", c2c_fake);
	printf("\n");
}

void report_tables(void)
{
	const struct lock_ops *km = selected(&kmutex_ops);
	const struct lock_ops *pt = selected(&pthread_default_ops);
	unsigned int i;

	set_namew();
	if (set.workloads & SEL_UNCONTENDED)
		table_uncontended(km, pt);
	if (set.workloads & SEL_CONTENDED) {
		if (set.sections & CS_EMPTY)
			table_contended(0, km, pt);
		if (set.sections & CS_TIMED)
			table_contended((unsigned int)set.cs_ns, km, pt);
		if (set.sections & CS_DATA)
			table_contended_data(km, pt);
	}
	if (set.workloads & SEL_FAIRNESS)
		for (i = 0; i < 2; i++)
			table_fairness(i ? 8 : 4, km, pt);
	if (set.workloads & SEL_OVERSUB)
		table_oversub(km, pt);
	if (set.workloads & SEL_LRU)
		table_lru(km, pt);
	if (set.workloads & SEL_RWSEM)
		table_rwsem();
	if (set.workloads & SEL_SEM)
		table_sem();
	if (set.workloads & SEL_WW)
		table_ww();
	if (set.workloads & SEL_DEBUG)
		table_debug();
	targets_compute(km, pt);
	table_targets();
	printf("\nload      %.2f %.2f %.2f before, %.2f %.2f %.2f after the "
	       "run (after includes the benchmark's own threads)\n",
	       mach.load_before[0], mach.load_before[1], mach.load_before[2],
	       mach.load_after[0], mach.load_after[1], mach.load_after[2]);
	printf("cpu pair  at the end: ");
	print_c2c(&mach.c2c_end, false);
	printf("\n");
	report_pairs();
	if (strcmp(c2c_label(&mach.c2c), c2c_label(&mach.c2c_end)) ||
	    (pair_points[PAIR_NEAR] && pair_points[PAIR_FAR]) ||
	    pair_points[PAIR_MIXED])
		printf("warning   the CPU pair changed during the run (%s at the "
		       "start, %s at the end): the host moved a vCPU; the "
		       "all-rep cells mix both kinds, the [near] and [far] "
		       "ratio rows do not\n",
		       c2c_label(&mach.c2c), c2c_label(&mach.c2c_end));
	printf("CPU use   during the run: this benchmark %.0f%%, other "
	       "processes %.0f%%, stolen by the host %.0f%% of the %ld CPUs\n",
	       100 * mach.share_self, 100 * mach.share_others,
	       100 * mach.share_steal, mach.cpus_online);
	if (mach.share_others >= 0.1 || mach.share_steal >= 0.1)
		printf("warning   other work took %.0f%% of the CPUs during the "
		       "run: contended figures are skewed (up to 2x); re-run "
		       "on a quiet machine before trusting them\n",
		       100 * (mach.share_others + mach.share_steal));
}
