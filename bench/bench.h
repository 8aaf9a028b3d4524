/* SPDX-License-Identifier: MIT */
/*
 * bench.h - what the parts of kmutex-bench share: the settings, the
 * machine, and every sample taken (results.c), from which the tables,
 * the CSV, the JSON and the plots are made (report.c).
 */
#ifndef _BENCH_BENCH_H
#define _BENCH_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lock_ops.h"
#include "work.h"

#define MAX_THREAD_COUNTS	16
#define MAX_REPS		1000

/* The thread counts of the rwsem workload (main.c). */
#define NR_RW_THREADS		4
extern const unsigned int rw_threads[NR_RW_THREADS];

enum workload {
	WL_UNCONTENDED,		/* lock+unlock, a second thread alive */
	WL_UNCONTENDED_1T,	/* the same in a single-threaded process */
	WL_CONTENDED,		/* throughput vs threads */
	WL_CONTENDED_DATA,	/* the same, data-heavy critical section */
	WL_FAIRNESS,		/* per-thread spread and wait times */
	WL_OVERSUB,		/* derived from WL_CONTENDED */
	WL_RWSEM_95,		/* rw locks, 95% reads */
	WL_RWSEM_999,		/* rw locks, 99.9% reads */
	WL_SEM_PINGPONG,	/* semaphores: hand-off round trips */
	WL_SEM_PRODCONS,	/* semaphores: 1 producer, n consumers */
	WL_LRU,			/* an LRU cache under one lock */
	WL_WW_16,		/* transactions: 4 of 16 locks (ww.c) */
	WL_WW_64,		/* the same, 4 of 64 */
	WL_DEBUG,		/* the debugging build's cost */
	NR_WORKLOADS
};

extern const char *const workload_name[NR_WORKLOADS];

/* What --workload selects (bit per name). */
enum {
	SEL_UNCONTENDED	= 1 << 0,
	SEL_CONTENDED	= 1 << 1,
	SEL_FAIRNESS	= 1 << 2,
	SEL_OVERSUB	= 1 << 3,
	SEL_DEBUG	= 1 << 4,
	SEL_RWSEM	= 1 << 5,
	SEL_SEM		= 1 << 6,
	SEL_LRU		= 1 << 7,
	SEL_WW		= 1 << 8,
	SEL_ALL		= (1 << 9) - 1,
};

/* The critical sections of the contended workload (--cs). */
enum {
	CS_EMPTY	= 1 << 0,	/* nothing */
	CS_TIMED	= 1 << 1,	/* ~cs_ns of increments on 4 lines */
	CS_DATA		= 1 << 2,	/* data_lines lines, each written once */
	CS_ALL		= (1 << 3) - 1,
};

struct settings {
	unsigned int reps;
	double seconds;			/* one window */
	double warmup;			/* before each window */
	unsigned int threads[MAX_THREAD_COUNTS];
	unsigned int nr_threads;
	double cs_ns, private_ns;
	unsigned int sections;		/* CS_*: the contended workload's */
	unsigned int data_lines;	/* the data-heavy critical section */
	const struct lock_ops *locks[32];	/* selected and built */
	unsigned int nr_locks;
	unsigned int workloads;		/* SEL_* */
	unsigned int lat_samples;	/* uncontended: timings per rep */
	unsigned long lat_iters;	/* uncontended: pairs per timing */
	const char *out;
	const char *exe_dir;		/* where kmutex-bench is: build/bench */
	const char *mode;		/* "default", "quick" or "full" */
	double rw_seconds;		/* one rwsem or sem window */
	long debug_loops;		/* debug: pairs per timing */
	struct work_calibration cal;
};

/*
 * The round trip of a cache line between two CPUs (c2c.c): the median
 * of c2c.samples timings of c2c.trips round trips each.
 */
#define C2C_NEAR_NS	200	/* below: a near pair (shared L3) */

struct c2c {
	int cpu[2];		/* the pair; -1 if not measured */
	double rtt_ns, min_ns, max_ns;	/* NAN if not measured */
	unsigned int samples, trips;
	const char *why;	/* non-NULL: not measured, and why */
};

void c2c_measure(struct c2c *c);
/* The same, briefly (~1 ms): before every point of every rep. */
void c2c_quick(struct c2c *c);
/* Non-NULL and not empty: c2c_quick() answered from it (a test). */
extern const char *c2c_fake;
/* "near", "far", or "n/a" (one CPU, or it could not be measured). */
const char *c2c_label(const struct c2c *c);

/*
 * The CPU pair a sample ran on.  The host may move a VM's vCPUs between
 * near and far placement during a run, so main.c measures the pair
 * briefly (c2c_quick) before and after every point of every rep of the
 * contended, fairness and lru workloads, and labels that point's
 * samples: the tables then split their ratios by kind.
 */
enum pair {
	PAIR_NONE,		/* not measured (the other workloads) */
	PAIR_NA,		/* one CPU, or it could not be measured */
	PAIR_NEAR,
	PAIR_FAR,
	PAIR_MIXED,		/* one kind before the point, the other after */
	NR_PAIRS,
	PAIR_ANY = NR_PAIRS	/* a filter: every sample */
};

extern const char *const pair_name[NR_PAIRS];	/* "", "n/a", "near", ... */
enum pair c2c_pair(const struct c2c *c);

/*
 * The machine's own stalls (stalls.c): gaps longer than STALL_GAP_NS in
 * a clock-reading loop, one thread pinned to each CPU, for @seconds.
 */
#define STALL_GAP_NS	200000

struct stalls {
	double seconds;
	unsigned int threads;
	unsigned long count;		/* gaps over STALL_GAP_NS */
	uint64_t longest_ns;		/* the longest gap of all */
	uint64_t total_ns;		/* of the gaps over STALL_GAP_NS */
	const char *why;		/* non-NULL: not measured, and why */
};

void stalls_measure(struct stalls *s, double seconds);
/* Pin the calling thread to @cpu (c2c.c). */
bool bench_pin_self(int cpu);

struct machine {
	char cpu[128];
	struct c2c c2c, c2c_end;	/* at the start, at the end */
	struct stalls stalls;		/* at the start */
	long cpus_online, cpus_conf;
	char kernel[200];
	const char *libc;
	char clocksource[32];
	double load_before[3], load_after[3];
	/* Shares of all CPUs' time over the run (machine_usage_end). */
	double share_self, share_others, share_steal;
	/* Private to machine.c: the counters at the start. */
	double busy0, steal0, self0, wall0;
};

extern struct settings set;
extern struct machine mach;

void machine_read(struct machine *m);
void machine_load(double load[3]);
/* What this process, other processes and the host took of the CPUs. */
void machine_usage_end(struct machine *m);

/* results.c: every sample, kept by repetition. */
struct sample {
	enum workload wl;
	const struct lock_ops *lock;
	unsigned int cs_ns, threads, rep;
	const char *metric;
	double value;
	enum pair pair;
	double rtt_ns, rtt_after_ns;	/* the pair before and after; NAN */
};

extern struct sample *samples;
extern size_t nr_samples;
/* Points (and reps) labelled, by kind; their round trips' range. */
extern unsigned int pair_points[NR_PAIRS];
extern double pair_rtt_min, pair_rtt_max;

/*
 * Label the samples from index @from on with the pair measured before
 * and after them: its kind if both agree, PAIR_MIXED if not.
 */
void samples_set_pair(size_t from, const struct c2c *before,
		      const struct c2c *after);
/* 1 << PAIR_* for each kind the samples of @wl at @cs_ns ran on. */
unsigned int pairs_seen(enum workload wl, unsigned int cs_ns);
/*
 * The kinds a table of @wl at @cs_ns splits its ratios by: 1 << PAIR_NEAR
 * and/or 1 << PAIR_FAR, when its samples saw more than one kind (mixed
 * points count as a kind here); else 0.
 */
unsigned int pairs_split(enum workload wl, unsigned int cs_ns);

void sample_add(enum workload wl, const struct lock_ops *lock,
		unsigned int cs_ns, unsigned int threads, unsigned int rep,
		const char *metric, double value);
/* @v[rep] for every rep (NAN where none); returns how many were found. */
unsigned int sample_reps(enum workload wl, const struct lock_ops *lock,
			 unsigned int cs_ns, unsigned int threads,
			 const char *metric, double *v);
/* The same, of the reps that ran on a pair of kind @pair (or PAIR_ANY). */
unsigned int sample_reps_pair(enum workload wl, const struct lock_ops *lock,
			      unsigned int cs_ns, unsigned int threads,
			      const char *metric, enum pair pair, double *v);

struct summary {
	double med, min, max;
	unsigned int n;
};

/*
 * The baseline of @wl's ratios: pthread_mutex_t, pthread_rwlock_t
 * (default) for rwsem, sem_t for sem, pthread-sorted for ww; NULL if
 * not measured.
 */
const struct lock_ops *baseline_of(enum workload wl);

/* Median, min and max of the non-NAN values of @v[0..set.reps). */
struct summary summarize(const double *v);
/* The same of the per-rep ratios @a[rep] / @b[rep]. */
struct summary summarize_ratio(const double *a, const double *b);

struct summary sample_summary(enum workload wl, const struct lock_ops *lock,
			      unsigned int cs_ns, unsigned int threads,
			      const char *metric);
/* Per-rep ratio of two locks' samples at the same point. */
struct summary sample_ratio(enum workload wl, const struct lock_ops *a,
			    const struct lock_ops *b, unsigned int cs_ns,
			    unsigned int threads, const char *metric);
/* The same, of the reps that ran on a pair of kind @pair. */
struct summary sample_summary_pair(enum workload wl,
				   const struct lock_ops *lock,
				   unsigned int cs_ns, unsigned int threads,
				   const char *metric, enum pair pair);
struct summary sample_ratio_pair(enum workload wl, const struct lock_ops *a,
				 const struct lock_ops *b, unsigned int cs_ns,
				 unsigned int threads, const char *metric,
				 enum pair pair);

/* targets.c: issues 3 and 10's targets, checked on this run. */
#define MAX_TARGETS	64

struct target {
	char what[120];
	double value, limit;
	bool at_most;		/* met if value <= limit, else if >= limit */
	bool met;
	bool judged;		/* false: no rep of the point's kind (n/a) */
};

extern struct target targets[MAX_TARGETS];
extern unsigned int nr_targets;

void targets_compute(const struct lock_ops *km, const struct lock_ops *pt);
/*
 * The sleeping lock other than @km and its variants with the highest
 * median throughput at a point of @wl (over the reps on a pair of kind
 * @pair, for best_peer_pair); NULL if none was measured.
 */
const struct lock_ops *best_peer(enum workload wl, const struct lock_ops *km,
				 unsigned int cs, unsigned int threads);
const struct lock_ops *best_peer_pair(enum workload wl,
				      const struct lock_ops *km,
				      unsigned int cs, unsigned int threads,
				      enum pair pair);

/* report.c: the text on stdout. */
const struct lock_ops *selected(const struct lock_ops *ops);
char *fmt_num(char *buf, size_t len, double v);
void report_header(void);
void report_tables(void);
void rule(const char *title);
void print_name(const char *name, const char *size);
void print_lock(const struct lock_ops *ops);
void print_cell(struct summary s, double scale);

/*
 * report_table.c: a table's columns, each a point of a workload and a
 * metric; the summaries in its cells scaled by @scale, the ratios not.
 */
#define CELL	20	/* width of a "median (min-max)" cell */

struct column {
	char head[32];
	enum workload wl;
	unsigned int cs, threads;
	const char *metric;
	double scale;
};

/* A column per thread count of @threads[0..n), headed "N threads". */
void column_threads(struct column *col, enum workload wl, unsigned int cs,
		    const unsigned int *threads, unsigned int n,
		    const char *metric, double scale);
/* "@first size" and the columns' heads. */
void print_heads(const char *first, const struct column *col,
		 unsigned int n);
/* @ops's summary in each column, after its name and size. */
void print_row(const struct lock_ops *ops, const struct column *col,
	       unsigned int n);
/* The same without the name (after a print_name()). */
void print_cells(const struct lock_ops *ops, const struct column *col,
		 unsigned int n);
/* The same for every selected lock (but the floors, unless @floor). */
void print_lock_rows(const struct column *col, unsigned int n, bool floor);
/* @a/@b per rep in each column, on @pair's reps; nothing if either is NULL. */
void print_ratio_row(const char *label, const struct lock_ops *a,
		     const struct lock_ops *b, const struct column *col,
		     unsigned int n, enum pair pair);

/* report_rw_sem.c: the rwsem, sem and debugging-build tables. */
void table_rwsem(void);
void table_sem(void);
void table_debug(void);
/* The ww workload's tables (report_rw_sem.c). */
void table_ww(void);

/* debug_cost.c: run bench/debug/cost.c's two builds, keep the samples. */
void run_debug_cost(void);
extern const char *debug_cost_status;	/* non-NULL: why not measured */
extern const char *helgrind_cost_status; /* the same for the Helgrind run */

/* files.c: results.csv, results.json and the plots. */
void report_files(void);

#endif /* _BENCH_BENCH_H */
