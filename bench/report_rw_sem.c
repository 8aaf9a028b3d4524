// SPDX-License-Identifier: MIT
/*
 * report_rw_sem.c - the tables of the rw lock and semaphore workloads
 * and of the debugging build's cost.  Ratios are per rep against the
 * baseline of each (baseline_of(): pthread_rwlock_t default, sem_t).
 */
#include <stdio.h>

#include "bench.h"
#include "run.h"
#include "rwlock_ops.h"
#include "sem_ops.h"

void table_rwsem(void)
{
	static const struct {
		enum workload wl;
		const char *mix;
	} mixes[] = {
		{ WL_RWSEM_95, "95% reads, 5% writes" },
		{ WL_RWSEM_999, "99.9% reads, 0.1% writes" },
	};
	const struct lock_ops *km = &kmutex_rwsem_ops.base;
	const struct lock_ops *wp = &pthread_rwlock_wp_ops.base;
	struct column ops[NR_RW_THREADS], wait[NR_RW_THREADS];
	unsigned int cs = (unsigned int)set.cs_ns, m, i;
	char title[300];

	for (m = 0; m < 2; m++) {
		const struct lock_ops *b = baseline_of(mixes[m].wl);

		column_threads(ops, mixes[m].wl, cs, rw_threads,
			       NR_RW_THREADS, "mops", 1);
		column_threads(wait, mixes[m].wl, cs, rw_threads,
			       NR_RW_THREADS, "write_wait_max_ns", 1e-3);
		snprintf(title, sizeof(title), "== rwsem: read-mostly "
			 "throughput, M operations/s (higher is better): %s; "
			 "a read reads, a write increments, %d shared lines "
			 "for ~%.0f ns; ~%.0f ns private work; %.3f s windows",
			 mixes[m].mix, SHARED_LINES, set.cs_ns,
			 set.private_ns, set.rw_seconds);
		rule(title);
		print_heads("lock", ops, NR_RW_THREADS);
		for (i = 0; i < nr_all_rwlocks; i++)
			print_row(&all_rwlocks[i]->base, ops, NR_RW_THREADS);
		print_ratio_row("kmutex/pthread-rw", km, b, ops,
				NR_RW_THREADS, PAIR_ANY);
		print_ratio_row("pthread-wp/-rw", wp, b, ops, NR_RW_THREADS,
				PAIR_ANY);
		printf("longest writer wait (write_lock() to holding it), us "
		       "(lower is better):\n");
		for (i = 0; i < nr_all_rwlocks; i++)
			print_row(&all_rwlocks[i]->base, wait, NR_RW_THREADS);
		print_ratio_row("kmutex/pthread-rw", km, b, wait,
				NR_RW_THREADS, PAIR_ANY);
	}
}

void table_sem(void)
{
	static const struct column col[] = {
		{ "round trip p50, us", WL_SEM_PINGPONG, 0, 2, "rtt_p50_us",
		  1 },
		{ "round trip p99, us", WL_SEM_PINGPONG, 0, 2, "rtt_p99_us",
		  1 },
		{ "1 consumer, M/s", WL_SEM_PRODCONS, 0, 2, "mops", 1 },
		{ "4 consumers, M/s", WL_SEM_PRODCONS, 0, 5, "mops", 1 },
	};
	unsigned int i;

	rule("== sem: hand-off between threads over semaphores.  Ping-pong: "
	     "2 threads, two semaphores, round trip (lower is better); "
	     "producer/consumers: 1 producer, a 16-slot buffer of two "
	     "counting semaphores, ~200 ns private work per item, M items/s "
	     "(higher is better)");
	print_heads("semaphore", col, 4);
	for (i = 0; i < nr_all_sems; i++)
		print_row(&all_sems[i]->base, col, 4);
	print_ratio_row("kmutex/posix-sem", &kmutex_sem_ops.base,
			baseline_of(WL_SEM_PINGPONG), col, 4, PAIR_ANY);
}

void table_ww(void)
{
	static const enum workload wl[NR_WW_SIZES] = { WL_WW_16, WL_WW_64 };
	const struct lock_ops *b = baseline_of(WL_WW_16);
	struct column ops[NR_WW_THREADS], deadlks[NR_WW_THREADS];
	unsigned int s;
	char title[300];

	for (s = 0; s < NR_WW_SIZES; s++) {
		column_threads(ops, wl[s], 0, ww_threads, NR_WW_THREADS,
			       "mops", 1);
		column_threads(deadlks, wl[s], 0, ww_threads, NR_WW_THREADS,
			       "deadlk_per_tx", 1);
		snprintf(title, sizeof(title), "== ww: transactions that each "
			 "lock a random set of %d of %u objects, increment "
			 "each, unlock; ~%.0f ns private work; M transactions/s "
			 "(higher is better); %.3f s windows", WW_K,
			 ww_objects[s], set.private_ns, set.rw_seconds);
		rule(title);
		print_heads("lock", ops, NR_WW_THREADS);
		print_row(&kmutex_ww_ops, ops, NR_WW_THREADS);
		print_row(b, ops, NR_WW_THREADS);
		print_ratio_row("kmutex-ww/pthread-sorted", &kmutex_ww_ops, b,
				ops, NR_WW_THREADS, PAIR_ANY);
		print_name("kmutex-ww -EDEADLK/tx", "");
		print_cells(&kmutex_ww_ops, deadlks, NR_WW_THREADS);
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
	static const char *const head[] = {
		"production ns", "debug ns", "debug/production",
		"helgrind ns", "helgrind/production",
	};
	static const char *const kind[] = {
		"production_ns", "debug_ns", "debug_vs_prod", "helgrind_ns",
		"helgrind_vs_prod",
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
	for (k = 0; k < 5; k++)
		printf(" %-*s", CELL, head[k]);
	printf(" what\n");
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		print_name(cases[i], "");
		for (k = 0; k < 5; k++) {
			char metric[40];

			snprintf(metric, sizeof(metric), "%s_%s", cases[i],
				 kind[k]);
			print_cell(sample_summary(WL_DEBUG, &kmutex_ops, 0, 1,
						  metric), 1);
		}
		printf(" %s\n", what[i]);
	}
	if (helgrind_cost_status) {
		print_name("helgrind", "");
		printf(" %s\n", helgrind_cost_status);
	}
}
