// SPDX-License-Identifier: MIT
/*
 * report_table.c - a table as a list of columns, each a point of a
 * workload and a metric: its heading, a lock's row of summaries, and
 * the rows of per-rep ratios between two locks.
 */
#include <stdio.h>

#include "bench.h"

void column_threads(struct column *col, enum workload wl, unsigned int cs,
		    const unsigned int *threads, unsigned int n,
		    const char *metric, double scale)
{
	unsigned int t;

	for (t = 0; t < n; t++) {
		col[t] = (struct column){ .wl = wl, .cs = cs,
					  .threads = threads[t],
					  .metric = metric, .scale = scale };
		snprintf(col[t].head, sizeof(col[t].head), "%u thread%s",
			 threads[t], threads[t] > 1 ? "s" : "");
	}
}

void print_heads(const char *first, const struct column *col, unsigned int n)
{
	unsigned int c;

	print_name(first, "size");
	for (c = 0; c < n; c++)
		printf(" %-*s", CELL, col[c].head);
	printf("\n");
}

void print_row(const struct lock_ops *ops, const struct column *col,
	       unsigned int n)
{
	print_lock(ops);
	print_cells(ops, col, n);
}

void print_cells(const struct lock_ops *ops, const struct column *col,
		 unsigned int n)
{
	unsigned int c;

	for (c = 0; c < n; c++)
		print_cell(sample_summary(col[c].wl, ops, col[c].cs,
					  col[c].threads, col[c].metric),
			   col[c].scale);
	printf("\n");
}

void print_lock_rows(const struct column *col, unsigned int n, bool floor)
{
	unsigned int i;

	for (i = 0; i < set.nr_locks; i++)
		if (floor || set.locks[i]->kind != LOCK_FLOOR)
			print_row(set.locks[i], col, n);
}

void print_ratio_row(const char *label, const struct lock_ops *a,
		     const struct lock_ops *b, const struct column *col,
		     unsigned int n, enum pair pair)
{
	unsigned int c;

	if (!a || !b)
		return;
	print_name(label, "");
	for (c = 0; c < n; c++)
		print_cell(sample_ratio_pair(col[c].wl, a, b, col[c].cs,
					     col[c].threads, col[c].metric,
					     pair), 1);
	printf("\n");
}
