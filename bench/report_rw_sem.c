// SPDX-License-Identifier: MIT
/*
 * report_rw_sem.c - the tables of the rw lock and semaphore workloads
 * and of the debugging build's cost.  Ratios are per rep against the
 * baseline of each (baseline_of(): pthread_rwlock_t default, sem_t).
 */
#include <math.h>
#include <stdio.h>

#include "bench.h"
#include "run.h"
#include "rwlock_ops.h"
#include "sem_ops.h"

#define CELL	20

static void rw_rows(enum workload wl, const char *metric, double scale)
{
	unsigned int i, t;
	unsigned int cs = (unsigned int)set.cs_ns;

	for (i = 0; i < nr_all_rwlocks; i++) {
		print_lock(&all_rwlocks[i]->base);
		for (t = 0; t < NR_RW_THREADS; t++)
			print_cell(sample_summary(wl, &all_rwlocks[i]->base,
						  cs, rw_threads[t], metric),
				   scale);
		printf("\n");
	}
}

static void rw_ratio(enum workload wl, const char *label,
		     const struct rwlock_ops *a, const char *metric)
{
	const struct lock_ops *b = baseline_of(wl);
	unsigned int cs = (unsigned int)set.cs_ns, t;

	print_name(label, "");
	for (t = 0; t < NR_RW_THREADS; t++)
		print_cell(sample_ratio(wl, &a->base, b, cs, rw_threads[t],
					metric), 1);
	printf("\n");
}

void table_rwsem(void)
{
	static const struct {
		enum workload wl;
		const char *mix;
	} mixes[] = {
		{ WL_RWSEM_95, "95% reads, 5% writes" },
		{ WL_RWSEM_999, "99.9% reads, 0.1% writes" },
	};
	unsigned int m, t;
	char title[300];

	for (m = 0; m < 2; m++) {
		snprintf(title, sizeof(title), "== rwsem: read-mostly "
			 "throughput, M operations/s (higher is better): %s; "
			 "a read reads, a write increments, %d shared lines "
			 "for ~%.0f ns; ~%.0f ns private work; %.3f s windows",
			 mixes[m].mix, SHARED_LINES, set.cs_ns,
			 set.private_ns, set.rw_seconds);
		rule(title);
		print_name("lock", "size");
		for (t = 0; t < NR_RW_THREADS; t++) {
			char h[32];

			snprintf(h, sizeof(h), "%u threads", rw_threads[t]);
			printf(" %-*s", CELL, h);
		}
		printf("\n");
		rw_rows(mixes[m].wl, "mops", 1);
		rw_ratio(mixes[m].wl, "kmutex/pthread-rw", &kmutex_rwsem_ops,
			 "mops");
		rw_ratio(mixes[m].wl, "pthread-wp/-rw", &pthread_rwlock_wp_ops,
			 "mops");
		printf("longest writer wait (write_lock() to holding it), us "
		       "(lower is better):\n");
		rw_rows(mixes[m].wl, "write_wait_max_ns", 1e-3);
		rw_ratio(mixes[m].wl, "kmutex/pthread-rw", &kmutex_rwsem_ops,
			 "write_wait_max_ns");
	}
}

void table_sem(void)
{
	static const char *const head[] = {
		"round trip p50, us", "round trip p99, us",
		"1 consumer, M/s", "4 consumers, M/s",
	};
	const struct lock_ops *b = baseline_of(WL_SEM_PINGPONG);
	const struct lock_ops *km = &kmutex_sem_ops.base;
	unsigned int i;

	rule("== sem: hand-off between threads over semaphores.  Ping-pong: "
	     "2 threads, two semaphores, round trip (lower is better); "
	     "producer/consumers: 1 producer, a 16-slot buffer of two "
	     "counting semaphores, ~200 ns private work per item, M items/s "
	     "(higher is better)");
	print_name("semaphore", "size");
	for (i = 0; i < 4; i++)
		printf(" %-*s", CELL, head[i]);
	printf("\n");
	for (i = 0; i < nr_all_sems; i++) {
		const struct lock_ops *ops = &all_sems[i]->base;

		print_lock(ops);
		print_cell(sample_summary(WL_SEM_PINGPONG, ops, 0, 2,
					  "rtt_p50_us"), 1);
		print_cell(sample_summary(WL_SEM_PINGPONG, ops, 0, 2,
					  "rtt_p99_us"), 1);
		print_cell(sample_summary(WL_SEM_PRODCONS, ops, 0, 2, "mops"),
			   1);
		print_cell(sample_summary(WL_SEM_PRODCONS, ops, 0, 5, "mops"),
			   1);
		printf("\n");
	}
	print_name("kmutex/posix-sem", "");
	print_cell(sample_ratio(WL_SEM_PINGPONG, km, b, 0, 2, "rtt_p50_us"), 1);
	print_cell(sample_ratio(WL_SEM_PINGPONG, km, b, 0, 2, "rtt_p99_us"), 1);
	print_cell(sample_ratio(WL_SEM_PRODCONS, km, b, 0, 2, "mops"), 1);
	print_cell(sample_ratio(WL_SEM_PRODCONS, km, b, 0, 5, "mops"), 1);
	printf("\n");
}

void table_ww(void)
{
	static const enum workload wl[NR_WW_SIZES] = { WL_WW_16, WL_WW_64 };
	const struct lock_ops *b = baseline_of(WL_WW_16);
	unsigned int s, t;
	char title[300];

	for (s = 0; s < NR_WW_SIZES; s++) {
		snprintf(title, sizeof(title), "== ww: transactions that each "
			 "lock a random set of %d of %u objects, increment "
			 "each, unlock; ~%.0f ns private work; M transactions/s "
			 "(higher is better); %.3f s windows", WW_K,
			 ww_objects[s], set.private_ns, set.rw_seconds);
		rule(title);
		print_name("lock", "size");
		for (t = 0; t < NR_WW_THREADS; t++) {
			char h[32];

			snprintf(h, sizeof(h), "%u threads", ww_threads[t]);
			printf(" %-*s", CELL, h);
		}
		printf("\n");
		print_lock(&kmutex_ww_ops);
		for (t = 0; t < NR_WW_THREADS; t++)
			print_cell(sample_summary(wl[s], &kmutex_ww_ops, 0,
						  ww_threads[t], "mops"), 1);
		printf("\n");
		print_lock(b);
		for (t = 0; t < NR_WW_THREADS; t++)
			print_cell(sample_summary(wl[s], b, 0, ww_threads[t],
						  "mops"), 1);
		printf("\n");
		print_name("kmutex-ww/pthread-sorted", "");
		for (t = 0; t < NR_WW_THREADS; t++)
			print_cell(sample_ratio(wl[s], &kmutex_ww_ops, b, 0,
						ww_threads[t], "mops"), 1);
		printf("\n");
		print_name("kmutex-ww -EDEADLK/tx", "");
		for (t = 0; t < NR_WW_THREADS; t++)
			print_cell(sample_summary(wl[s], &kmutex_ww_ops, 0,
						  ww_threads[t],
						  "deadlk_per_tx"), 1);
		printf("\n");
	}
}

void table_debug(void)
{
	static const char *const cases[] = {
		"single", "nested", "deep", "rwsem_read", "rwsem_write",
	};
	static const char *const what[] = {
		"one mutex, nothing else held",
		"a second mutex while one is held",
		"a fifth mutex while four are held",
		"down_read+up_read, nothing else held",
		"down_write+up_write, nothing else held",
	};
	unsigned int i, k;

	rule("== The debugging build's cost (kmutex-debug vs kmutex): "
	     "uncontended lock+unlock, one thread, a chain the checker has "
	     "seen; ns, best of 7 timings (bench/debug/cost.c)");
	if (debug_cost_status) {
		print_name("kmutex-debug", "");
		printf(" %s\n", debug_cost_status);
		return;
	}
	print_name("case", "");
	printf(" %-*s %-*s %-*s %-*s %-*s %s\n", CELL, "production ns", CELL,
	       "debug ns", CELL, "debug/production", CELL, "helgrind ns",
	       CELL, "helgrind/production", "what");
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char metric[5][40];

		snprintf(metric[0], 40, "%s_production_ns", cases[i]);
		snprintf(metric[1], 40, "%s_debug_ns", cases[i]);
		snprintf(metric[2], 40, "%s_debug_vs_prod", cases[i]);
		snprintf(metric[3], 40, "%s_helgrind_ns", cases[i]);
		snprintf(metric[4], 40, "%s_helgrind_vs_prod", cases[i]);
		print_name(cases[i], "");
		for (k = 0; k < 5; k++)
			print_cell(sample_summary(WL_DEBUG, &kmutex_ops, 0, 1,
						  metric[k]), 1);
		printf(" %s\n", what[i]);
	}
	if (helgrind_cost_status) {
		print_name("helgrind", "");
		printf(" %s\n", helgrind_cost_status);
	}
}
