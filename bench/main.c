// SPDX-License-Identifier: MIT
/*
 * main.c - kmutex-bench: is kmutex faster and fairer than the lock you
 * use today, on this machine?
 *
 * Options, the plan of runs, and the order they run in: every
 * repetition runs every point of every workload, and at each point every
 * lock in turn (rep 1: A B C ..., rep 2: A B C ...), so whatever the
 * machine does meanwhile (a neighbour VM, a compile) hits all locks
 * alike, and a ratio taken between two locks of one repetition compares
 * runs made seconds apart.
 */
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "clock.h"
#include "run.h"
#include "rwlock_ops.h"
#include "sem_ops.h"

struct settings set;
struct machine mach;

/* One point of the contended workloads. */
struct point {
	enum workload wl;
	unsigned int cs_ns;
	unsigned int threads;
};

static struct point points[64];
static unsigned int nr_points;
static unsigned int progress_done, progress_total;
static bool progress_tty;
static bool broken;

/*
 * The CPU pair, measured briefly before and after each point of the
 * contended, fairness and lru workloads (the "after" of one point is the
 * "before" of the next, unless other work ran between them): the host
 * may move a vCPU between near and far placement in mid-run.
 */
static struct c2c pair_now;
static bool pair_valid;
static size_t pair_from;

static void pair_begin(void)
{
	if (!pair_valid)
		c2c_quick(&pair_now);
	pair_valid = true;
	pair_from = nr_samples;
}

static void pair_end(void)
{
	struct c2c after;

	c2c_quick(&after);
	samples_set_pair(pair_from, &pair_now, &after);
	pair_now = after;
}

static const unsigned int fairness_threads[] = { 4, 8 };
static const unsigned int oversub_threads[] = { 2, 8, 16 };
const unsigned int rw_threads[NR_RW_THREADS] = { 2, 4, 8, 16 };
/* rwsem: the mixes (writes per 10000 operations). */
static const struct {
	enum workload wl;
	unsigned int writes_per_10k;
} rw_mixes[] = { { WL_RWSEM_95, 500 }, { WL_RWSEM_999, 10 } };
#define NR_RW_MIXES	2
/* sem: producer/consumer with 1 and 4 consumers. */
static const unsigned int sem_consumers[] = { 1, 4 };

static void usage(FILE *f)
{
	unsigned int i;

	fprintf(f,
"usage: kmutex-bench [options]\n"
"\n"
"Measures kmutex's struct mutex against the locks a program may use today,\n"
"on this machine: uncontended latency, contended throughput, fairness,\n"
"oversubscription, an LRU cache under one lock; its rw_semaphore against\n"
"pthread_rwlock_t (read-mostly throughput, writer wait), its semaphore\n"
"against sem_t (hand-off), and the debugging build's cost.  First it says\n"
"where it ran: the cache-line round trip between its two CPUs, near or far,\n"
"and again, briefly, before and after every point of every rep.\n"
"Prints tables; writes results.csv, results.json and (with gnuplot)\n"
"throughput.svg and wait.svg.  See bench/README.md.\n"
"\n"
"  --quick            a few seconds: 2 reps, 15 ms windows (a smoke test;\n"
"                     the numbers mean little)\n"
"  --full             11 reps, 0.5 s windows (about 13 minutes)\n"
"  --reps N           repetitions (default 5)\n"
"  --seconds S        one measurement window (default 0.2)\n"
"  --threads LIST     thread counts for the contended and lru workloads\n"
"                     (default 1,2,4,8,16; fairness always runs at 4 and\n"
"                     8 threads, oversubscription at 2, 8 and 16)\n"
"  --locks LIST       locks to measure (default: all that were built;\n"
"                     kmutex-NAME are kmutex built with other flags,\n"
"                     BENCH_VARIANTS in bench/bench.mk)\n"
"  --workload LIST    of uncontended,contended,fairness,oversub,lru,rwsem,\n"
"                     sem,ww,debug (default: all; rwsem, sem and ww run\n"
"                     every rw lock, semaphore and way of locking a set,\n"
"                     whatever --locks says; lru, rwsem, sem and ww run\n"
"                     in windows half as long)\n"
"  --cs LIST          the contended workload's critical sections, of\n"
"                     empty, timed (--cs-ns of increments on 4 shared\n"
"                     lines) and data (a walk through --data-lines shared\n"
"                     lines, each written once) (default: all three)\n"
"  --cs-ns N          the timed critical section, ns (default 100)\n"
"  --data-lines N     the data-heavy critical section's lines, 1 to %d\n"
"                     (default %d)\n"
"  --private-ns N     private work between acquisitions (default 200)\n"
"  --out DIR          where the files go (default: the program's directory)\n"
"  --help             this text\n"
"\n"
"locks:\n", DATA_LINES_MAX, DATA_LINES_DEFAULT);
	for (i = 0; i < nr_all_locks; i++)
		fprintf(f, "  %-18s %s%s%s%s\n", all_locks[i]->name,
			all_locks[i]->what,
			all_locks[i]->skipped ? "  [skipped: " : "",
			all_locks[i]->skipped ? all_locks[i]->skipped : "",
			all_locks[i]->skipped ? "]" : "");
	fprintf(f, "\n");
}

static void __attribute__((noreturn)) bad_usage(const char *what)
{
	fprintf(stderr, "kmutex-bench: %s (see --help)\n", what);
	exit(2);
}

static unsigned long parse_ulong(const char *s, unsigned long lo,
				 unsigned long hi, const char *opt)
{
	char *end;
	unsigned long v = strtoul(s, &end, 10);

	if (!*s || *end || v < lo || v > hi)
		bad_usage(opt);
	return v;
}

static void parse_threads(char *list)
{
	char *tok, *save;

	set.nr_threads = 0;
	for (tok = strtok_r(list, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (set.nr_threads == MAX_THREAD_COUNTS)
			bad_usage("too many thread counts");
		set.threads[set.nr_threads++] =
			(unsigned int)parse_ulong(tok, 1, 1024, "--threads");
	}
	if (!set.nr_threads)
		bad_usage("--threads needs a list");
}

static void parse_locks(char *list)
{
	const struct lock_ops *ops;
	char *tok, *save;

	set.nr_locks = 0;
	for (tok = strtok_r(list, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		ops = lock_by_name(tok);
		if (!ops) {
			fprintf(stderr, "kmutex-bench: no lock '%s'\n", tok);
			bad_usage("unknown lock");
		}
		if (ops->skipped) {
			fprintf(stderr, "kmutex-bench: %s was not built (%s)\n",
				ops->name, ops->skipped);
			continue;
		}
		set.locks[set.nr_locks++] = ops;
	}
}

static void parse_workloads(char *list)
{
	static const char *const names[] = {
		"uncontended", "contended", "fairness", "oversub", "debug",
		"rwsem", "sem", "lru", "ww",
	};
	char *tok, *save;
	unsigned int i;

	set.workloads = 0;
	for (tok = strtok_r(list, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
			if (!strcmp(tok, names[i]))
				break;
		if (i == sizeof(names) / sizeof(names[0]))
			bad_usage("unknown workload");
		set.workloads |= 1u << i;
	}
}

static void parse_sections(char *list)
{
	static const char *const names[] = { "empty", "timed", "data" };
	char *tok, *save;
	unsigned int i;

	set.sections = 0;
	for (tok = strtok_r(list, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		for (i = 0; i < 3; i++)
			if (!strcmp(tok, names[i]))
				break;
		if (i == 3)
			bad_usage("unknown critical section (--cs)");
		set.sections |= 1u << i;
	}
	if (!set.sections)
		bad_usage("--cs needs a list");
}

/* The program's own directory (build/bench): the default --out. */
static void find_exe_dir(void)
{
	static char dir[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", dir, sizeof(dir) - 1);
	char *slash;

	set.exe_dir = ".";
	if (n <= 0)
		return;
	dir[n] = 0;
	slash = strrchr(dir, '/');
	if (slash) {
		*slash = 0;
		set.exe_dir = dir;
	}
}

static void parse_args(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "help",	no_argument,		NULL, 'h' },
		{ "quick",	no_argument,		NULL, 'q' },
		{ "full",	no_argument,		NULL, 'f' },
		{ "reps",	required_argument,	NULL, 'r' },
		{ "seconds",	required_argument,	NULL, 's' },
		{ "threads",	required_argument,	NULL, 't' },
		{ "locks",	required_argument,	NULL, 'l' },
		{ "workload",	required_argument,	NULL, 'w' },
		{ "cs",		required_argument,	NULL, 'C' },
		{ "cs-ns",	required_argument,	NULL, 'c' },
		{ "data-lines",	required_argument,	NULL, 'd' },
		{ "private-ns",	required_argument,	NULL, 'p' },
		{ "out",	required_argument,	NULL, 'o' },
		{ NULL, 0, NULL, 0 }
	};
	unsigned long reps = 0;
	double seconds = 0;
	char *end;
	unsigned int i;
	int c;

	set.mode = "default";
	set.reps = 5;
	set.seconds = 0.2;
	set.lat_samples = 1000;
	set.lat_iters = 1000;
	set.debug_loops = 300000;
	set.cs_ns = 100;
	set.private_ns = 200;
	set.sections = CS_ALL;
	set.data_lines = DATA_LINES_DEFAULT;
	set.workloads = SEL_ALL;
	set.nr_threads = 5;
	memcpy(set.threads, (unsigned int[]){ 1, 2, 4, 8, 16 },
	       5 * sizeof(unsigned int));
	for (i = 0; i < nr_all_locks; i++)
		if (!all_locks[i]->skipped)
			set.locks[set.nr_locks++] = all_locks[i];
	find_exe_dir();
	set.out = set.exe_dir;

	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'h':
			usage(stdout);
			exit(0);
		case 'q':
			set.mode = "quick";
			break;
		case 'f':
			set.mode = "full";
			break;
		case 'r':
			reps = parse_ulong(optarg, 1, MAX_REPS, "--reps");
			break;
		case 's':
			seconds = strtod(optarg, &end);
			if (*end || !(seconds >= 0.001 && seconds <= 60))
				bad_usage("--seconds wants 0.001 to 60");
			break;
		case 't':
			parse_threads(optarg);
			break;
		case 'l':
			parse_locks(optarg);
			break;
		case 'w':
			parse_workloads(optarg);
			break;
		case 'C':
			parse_sections(optarg);
			break;
		case 'd':
			set.data_lines = (unsigned int)parse_ulong(optarg, 1,
				DATA_LINES_MAX, "--data-lines");
			break;
		case 'c':
			set.cs_ns = (double)parse_ulong(optarg, 1, 100000,
							"--cs-ns");
			break;
		case 'p':
			set.private_ns = (double)parse_ulong(optarg, 0, 100000,
							     "--private-ns");
			break;
		case 'o':
			set.out = optarg;
			break;
		default:
			usage(stderr);
			exit(2);
		}
	}
	if (optind < argc)
		bad_usage("unexpected argument");
	if (!strcmp(set.mode, "quick")) {
		set.reps = 2;
		set.seconds = 0.015;
		set.lat_samples = 100;
		set.lat_iters = 500;
		set.debug_loops = 20000;
	} else if (!strcmp(set.mode, "full")) {
		set.reps = 11;
		set.seconds = 0.5;
		set.lat_samples = 3000;
		set.debug_loops = 2000000;
	}
	if (reps)
		set.reps = (unsigned int)reps;
	if (seconds)
		set.seconds = seconds;
	set.rw_seconds = fmax(0.005, set.seconds / 2);
	set.warmup = fmax(0.005, set.seconds / 10);
	if (!set.nr_locks)
		bad_usage("no lock left to measure");
}

static void add_point(enum workload wl, unsigned int cs_ns,
		      unsigned int threads)
{
	unsigned int i;

	for (i = 0; i < nr_points; i++)
		if (points[i].wl == wl && points[i].cs_ns == cs_ns &&
		    points[i].threads == threads)
			return;
	points[nr_points++] = (struct point){ wl, cs_ns, threads };
}

static void plan(void)
{
	unsigned int cs = (unsigned int)set.cs_ns, i;

	if (set.workloads & SEL_CONTENDED) {
		if (set.sections & CS_EMPTY)
			for (i = 0; i < set.nr_threads; i++)
				add_point(WL_CONTENDED, 0, set.threads[i]);
		if (set.sections & CS_TIMED)
			for (i = 0; i < set.nr_threads; i++)
				add_point(WL_CONTENDED, cs, set.threads[i]);
		if (set.sections & CS_DATA)
			for (i = 0; i < set.nr_threads; i++)
				add_point(WL_CONTENDED_DATA, 0,
					  set.threads[i]);
	}
	if (set.workloads & SEL_OVERSUB)
		for (i = 0; i < 3; i++)
			add_point(WL_CONTENDED, cs, oversub_threads[i]);
	if (set.workloads & SEL_FAIRNESS)
		for (i = 0; i < 2; i++)
			add_point(WL_FAIRNESS, cs, fairness_threads[i]);
}

static unsigned int nr_contending_locks(void)
{
	unsigned int i, n = 0;

	for (i = 0; i < set.nr_locks; i++)
		n += set.locks[i]->kind != LOCK_FLOOR;
	return n;
}

static void progress(const char *what, const struct lock_ops *ops)
{
	progress_done++;
	fprintf(stderr, "%s[%3u/%u] %-40s %-18s%s", progress_tty ? "\r" : "",
		progress_done, progress_total, what, ops->name,
		progress_tty ? "" : "\n");
}

static void run_uncontended(enum workload wl)
{
	char what[64];
	unsigned int r, i;

	snprintf(what, sizeof(what), "uncontended%s",
		 wl == WL_UNCONTENDED_1T ? " (single-threaded process)" :
					   " (2nd thread alive)");
	for (r = 0; r < set.reps; r++) {
		for (i = 0; i < set.nr_locks; i++) {
			const struct lock_ops *ops = set.locks[i];

			progress(what, ops);
			sample_add(wl, ops, 0, 1, r, "ns",
				   uncontended_ns(ops, set.lat_samples,
						  set.lat_iters));
		}
	}
}

/* Where one window's samples go: a point of a workload, a lock, a rep. */
struct at {
	enum workload wl;
	const struct lock_ops *ops;
	unsigned int cs_ns, threads, rep;
	char what[64];			/* for the progress and BROKEN lines */
};

static void keep(const struct at *at, const char *metric, double value)
{
	sample_add(at->wl, at->ops, at->cs_ns, at->threads, at->rep, metric,
		   value);
}

/* Say so if @at's lock let two threads in (@how); the run will fail. */
static void check_broken(bool bad, const struct at *at, const char *how)
{
	if (!bad)
		return;
	fprintf(stderr, "\nkmutex-bench: BROKEN: %s %s (%s)\n", at->ops->name,
		how, at->what);
	broken = true;
}

/* Name the window @at and say it runs now. */
static void begin(struct at *at)
{
	snprintf(at->what, sizeof(at->what), "%s threads=%u",
		 workload_name[at->wl], at->threads);
	progress(at->what, at->ops);
}

static uint64_t warm_ns(void)
{
	return (uint64_t)(set.warmup * 1e9);
}

/* The lru, rwsem, sem and ww workloads' windows. */
static uint64_t side_ns(void)
{
	return (uint64_t)(set.rw_seconds * 1e9);
}

/* A window of theirs at @threads. */
static struct crew_cfg side_crew(unsigned int threads)
{
	return (struct crew_cfg){
		.threads = threads,
		.private_steps = set.cal.private_steps,
		.warm_ns = warm_ns(),
		.run_ns = side_ns(),
	};
}

static void run_point(const struct point *pt, const struct lock_ops *ops,
		      unsigned int rep)
{
	struct window_cfg cfg = {
		.crew = {
			.threads = pt->threads,
			.private_steps = set.cal.private_steps,
			.warm_ns = warm_ns(),
			.run_ns = (uint64_t)(set.seconds * 1e9),
		},
		.ops = ops,
		.cs_rounds = work_cs_rounds(&set.cal, pt->cs_ns),
		.data_lines = pt->wl == WL_CONTENDED_DATA ? set.data_lines : 0,
		.timed = pt->wl == WL_FAIRNESS,
	};
	struct at at = { .wl = pt->wl, .ops = ops, .cs_ns = pt->cs_ns,
			 .threads = pt->threads, .rep = rep };
	struct window_res res = { 0 };

	if (pt->wl == WL_CONTENDED_DATA)
		snprintf(at.what, sizeof(at.what), "%s lines=%u threads=%u",
			 workload_name[pt->wl], set.data_lines, pt->threads);
	else
		snprintf(at.what, sizeof(at.what), "%s cs=%uns threads=%u",
			 workload_name[pt->wl], pt->cs_ns, pt->threads);
	progress(at.what, ops);
	run_window(&cfg, &res);
	check_broken(res.broken, &at, "let two threads into the critical "
		     "section");
	keep(&at, "mops", res.mops);
	keep(&at, "cpu_ns_per_op", res.cpu_ns_per_op);
	keep(&at, "fair_max_min", res.fairness);
	if (cfg.timed) {
		keep(&at, "wait_p50_ns", (double)res.wait_p50);
		keep(&at, "wait_p99_ns", (double)res.wait_p99);
		keep(&at, "wait_max_ns", (double)res.wait_max);
	}
}

/* One window of the rwsem workload. */
static void run_rwsem_point(unsigned int mix, unsigned int threads,
			    const struct rwlock_ops *ops, unsigned int rep)
{
	struct rw_cfg cfg = {
		.crew = side_crew(threads),
		.ops = ops,
		.writes_per_10k = rw_mixes[mix].writes_per_10k,
		.cs_rounds = set.cal.cs_rounds,
	};
	struct at at = { .wl = rw_mixes[mix].wl, .ops = &ops->base,
			 .cs_ns = (unsigned int)set.cs_ns, .threads = threads,
			 .rep = rep };
	struct rw_res res;

	begin(&at);
	run_rw_window(&cfg, &res);
	check_broken(res.broken, &at, "let a writer in beside another thread");
	keep(&at, "mops", res.mops);
	keep(&at, "write_wait_max_ns",
	     res.writes ? (double)res.write_wait_max : NAN);
}

/* One rep of the rwsem workload: every mix, thread count and rw lock. */
static void run_rwsem(unsigned int rep)
{
	unsigned int m, t, l;

	for (m = 0; m < NR_RW_MIXES; m++)
		for (t = 0; t < NR_RW_THREADS; t++)
			for (l = 0; l < nr_all_rwlocks; l++)
				run_rwsem_point(m, rw_threads[t],
						all_rwlocks[l], rep);
}

/* One window of the LRU cache workload. */
static void run_lru_point(const struct lock_ops *ops, unsigned int threads,
			  unsigned int rep)
{
	struct lru_cfg cfg = { .crew = side_crew(threads), .ops = ops };
	struct at at = { .wl = WL_LRU, .ops = ops, .threads = threads,
			 .rep = rep };
	struct lru_res res;

	begin(&at);
	run_lru_window(&cfg, &res);
	check_broken(res.broken, &at, "let two threads into the LRU cache");
	keep(&at, "mops", res.mops);
	keep(&at, "hit_ratio",
	     res.gets ? (double)res.hits / (double)res.gets : NAN);
}

/* One rep of the LRU cache workload: every thread count and lock. */
static void run_lru(unsigned int rep)
{
	unsigned int t, l;

	for (t = 0; t < set.nr_threads; t++) {
		pair_begin();
		for (l = 0; l < set.nr_locks; l++)
			if (set.locks[l]->kind != LOCK_FLOOR)
				run_lru_point(set.locks[l], set.threads[t],
					      rep);
		pair_end();
	}
}

/* One rep of the sem workload: ping-pong, then producer/consumers. */
static void run_sem(unsigned int rep)
{
	unsigned int s, c;

	for (s = 0; s < nr_all_sems; s++) {
		struct at at = { .wl = WL_SEM_PINGPONG,
				 .ops = &all_sems[s]->base, .threads = 2,
				 .rep = rep };
		struct pingpong_res pp;

		begin(&at);
		run_pingpong(all_sems[s], warm_ns(), side_ns(), &pp);
		keep(&at, "rtt_p50_us", pp.rtt_p50_us);
		keep(&at, "rtt_p99_us", pp.rtt_p99_us);
	}
	for (c = 0; c < 2; c++)
		for (s = 0; s < nr_all_sems; s++) {
			struct at at = { .wl = WL_SEM_PRODCONS,
					 .ops = &all_sems[s]->base,
					 .threads = 1 + sem_consumers[c],
					 .rep = rep };

			snprintf(at.what, sizeof(at.what),
				 "sem-prodcons consumers=%u", sem_consumers[c]);
			progress(at.what, at.ops);
			keep(&at, "mops",
			     run_prodcons(all_sems[s], sem_consumers[c],
					  set.cal.private_steps, warm_ns(),
					  side_ns()));
		}
}

/* One window of the ww workload. */
static void run_ww_point(enum workload wl, unsigned int objects,
			 unsigned int threads, const struct lock_ops *way,
			 unsigned int rep)
{
	struct ww_cfg cfg = {
		.crew = side_crew(threads),
		.ops = way,
		.objects = objects,
	};
	struct at at = { .wl = wl, .ops = way, .threads = threads,
			 .rep = rep };
	struct ww_res res;

	begin(&at);
	run_ww_window(&cfg, &res);
	check_broken(res.broken, &at, "let two threads hold one object");
	keep(&at, "mops", res.mops);
	if (way == &kmutex_ww_ops)
		keep(&at, "deadlk_per_tx", res.deadlks_per_tx);
}

/* One rep of the ww workload: every N, thread count and way. */
static void run_ww(unsigned int rep)
{
	static const enum workload wl[NR_WW_SIZES] = { WL_WW_16, WL_WW_64 };
	static const struct lock_ops *const ways[] = {
		&kmutex_ww_ops, &pthread_sorted_ops,
	};
	unsigned int s, t, l;

	for (s = 0; s < NR_WW_SIZES; s++)
		for (t = 0; t < NR_WW_THREADS; t++)
			for (l = 0; l < 2; l++)
				run_ww_point(wl[s], ww_objects[s],
					     ww_threads[t], ways[l], rep);
}

/* Oversubscription: read off the contended runs at 8 and 16 threads. */
static void derive_oversub(void)
{
	unsigned int cs = (unsigned int)set.cs_ns, i, j, r;
	double two[MAX_REPS], many[MAX_REPS], cpu[MAX_REPS];

	for (i = 0; i < set.nr_locks; i++) {
		const struct lock_ops *ops = set.locks[i];

		if (ops->kind == LOCK_FLOOR)
			continue;
		sample_reps(WL_CONTENDED, ops, cs, 2, "mops", two);
		for (j = 1; j < 3; j++) {
			unsigned int t = oversub_threads[j];

			sample_reps(WL_CONTENDED, ops, cs, t, "mops", many);
			sample_reps(WL_CONTENDED, ops, cs, t, "cpu_ns_per_op",
				    cpu);
			for (r = 0; r < set.reps; r++) {
				sample_add(WL_OVERSUB, ops, cs, t, r,
					   "cpu_ns_per_op", cpu[r]);
				sample_add(WL_OVERSUB, ops, cs, t, r,
					   "kept_vs_2", many[r] / two[r]);
			}
		}
	}
}

int main(int argc, char **argv)
{
	uint64_t t0 = now_ns();
	unsigned int i, r, n;

	parse_args(argc, argv);
	progress_tty = isatty(2);
	machine_read(&mach);
	c2c_measure(&mach.c2c);
	stalls_measure(&mach.stalls, strcmp(set.mode, "quick") ? 1.0 : 0.1);
	work_calibrate(&set.cal, set.cs_ns, set.private_ns, set.data_lines);
	for (i = 0; i < set.nr_locks; i++)
		if (set.locks[i]->setup)
			set.locks[i]->setup();
	plan();
	n = nr_contending_locks();
	progress_total = set.reps * nr_points * n;
	if (set.workloads & SEL_UNCONTENDED)
		progress_total += 2 * set.reps * set.nr_locks;
	if (set.workloads & SEL_LRU)
		progress_total += set.reps * set.nr_threads * n;
	if (set.workloads & SEL_RWSEM)
		progress_total += set.reps * NR_RW_MIXES * NR_RW_THREADS *
				  nr_all_rwlocks;
	if (set.workloads & SEL_SEM)
		progress_total += set.reps * 3 * nr_all_sems;
	if (set.workloads & SEL_WW)
		progress_total += set.reps * NR_WW_SIZES * NR_WW_THREADS * 2;
	report_header();
	fflush(stdout);

	/* First, while this process has never had a second thread. */
	if (set.workloads & SEL_UNCONTENDED) {
		run_uncontended(WL_UNCONTENDED_1T);
		sleeper_start();
		run_uncontended(WL_UNCONTENDED);
		sleeper_stop();
	}
	for (r = 0; r < set.reps; r++) {
		for (i = 0; i < nr_points; i++) {
			unsigned int l;

			pair_begin();
			for (l = 0; l < set.nr_locks; l++)
				if (set.locks[l]->kind != LOCK_FLOOR)
					run_point(&points[i], set.locks[l], r);
			pair_end();
		}
		if (set.workloads & SEL_LRU)
			run_lru(r);
		pair_valid = false;	/* measure again after these */
		if (set.workloads & SEL_RWSEM)
			run_rwsem(r);
		if (set.workloads & SEL_SEM)
			run_sem(r);
		if (set.workloads & SEL_WW)
			run_ww(r);
	}
	if (progress_tty)
		fprintf(stderr, "\n");
	if (set.workloads & SEL_OVERSUB)
		derive_oversub();
	if (set.workloads & SEL_DEBUG)
		run_debug_cost();

	c2c_measure(&mach.c2c_end);
	machine_load(mach.load_after);
	machine_usage_end(&mach);
	report_tables();
	report_files();
	printf("elapsed   %.1f s\n", (double)(now_ns() - t0) / 1e9);
	if (broken) {
		printf("\nBROKEN: a lock let two threads in at once; "
		       "see the messages above.\n");
		return 1;
	}
	return 0;
}
