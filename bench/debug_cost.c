// SPDX-License-Identifier: MIT
/*
 * debug_cost.c - what the debugging build costs, measured by
 * bench/debug/cost.c built twice next to this program (bench.mk):
 * cost-production against libkmutex.a, cost-debug against
 * libkmutex-debug.a with -DKMUTEX_DEBUG.  Each prints
 * "<build> <case> <ns per lock+unlock>" for the cases single, nested,
 * deep, rwsem_read and rwsem_write, each the best of several timings;
 * they run one after the other, after every other workload, so
 * nothing else of this program runs beside them.  Missing programs are said, not hidden.
 *
 * For comparison, where valgrind is installed, the production build
 * also runs under Helgrind (cost-helgrind, the same program without
 * debug sections), with HELGRIND_DIV times fewer loops: it is some
 * thousand times slower there.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bench.h"

#define NR_CASES	5
#define HELGRIND_DIV	100
#define HELGRIND_MIN	1000

static const char *const cases[NR_CASES] = {
	"single", "nested", "deep", "rwsem_read", "rwsem_write",
};
static const char *const metric[NR_CASES][3] = {
	{ "single_production_ns", "single_debug_ns", "single_debug_vs_prod" },
	{ "nested_production_ns", "nested_debug_ns", "nested_debug_vs_prod" },
	{ "deep_production_ns", "deep_debug_ns", "deep_debug_vs_prod" },
	{ "rwsem_read_production_ns", "rwsem_read_debug_ns",
	  "rwsem_read_debug_vs_prod" },
	{ "rwsem_write_production_ns", "rwsem_write_debug_ns",
	  "rwsem_write_debug_vs_prod" },
};
static const char *const hg_metric[NR_CASES][2] = {
	{ "single_helgrind_ns", "single_helgrind_vs_prod" },
	{ "nested_helgrind_ns", "nested_helgrind_vs_prod" },
	{ "deep_helgrind_ns", "deep_helgrind_vs_prod" },
	{ "rwsem_read_helgrind_ns", "rwsem_read_helgrind_vs_prod" },
	{ "rwsem_write_helgrind_ns", "rwsem_write_helgrind_vs_prod" },
};

const char *debug_cost_status;
const char *helgrind_cost_status;

/*
 * Run @prog with @loops, under the command @under if not "";
 * fill @ns[case] from its output.  False if it failed.
 */
static bool run_cost(const char *under, const char *prog, long loops,
		     double ns[NR_CASES])
{
	char cmd[4400], build[32], name[32];
	unsigned int i, found = 0;
	struct stat st;
	double v;
	FILE *p;

	if (stat(prog, &st))
		return false;
	snprintf(cmd, sizeof(cmd), "%s '%s' %ld", under, prog, loops);
	p = popen(cmd, "r");
	if (!p)
		return false;
	while (fscanf(p, "%31s %31s %lf", build, name, &v) == 3)
		for (i = 0; i < NR_CASES; i++)
			if (!strcmp(name, cases[i])) {
				ns[i] = v;
				found |= 1u << i;
			}
	return !pclose(p) && found == (1u << NR_CASES) - 1;
}

/* The production build under Helgrind, against @p (production ns). */
static void run_helgrind_cost(const double p[NR_CASES])
{
	static char why[4400];
	char prog[4200];
	long loops = set.debug_loops / HELGRIND_DIV;
	double h[NR_CASES];
	unsigned int i;

	if (system("valgrind --version > /dev/null 2>&1")) {
		helgrind_cost_status = "skipped: valgrind not installed";
		return;
	}
	snprintf(prog, sizeof(prog), "%s/cost-helgrind", set.exe_dir);
	if (loops < HELGRIND_MIN)
		loops = HELGRIND_MIN;
	fprintf(stderr, "debug: %s under helgrind (%ld pairs per timing)\n",
		prog, loops);
	if (!run_cost("valgrind -q --tool=helgrind", prog, loops, h)) {
		snprintf(why, sizeof(why), "skipped: %s missing or failed "
			 "under valgrind (`make bench` builds it)", prog);
		helgrind_cost_status = why;
		return;
	}
	for (i = 0; i < NR_CASES; i++) {
		sample_add(WL_DEBUG, &kmutex_ops, 0, 1, 0, hg_metric[i][0],
			   h[i]);
		sample_add(WL_DEBUG, &kmutex_ops, 0, 1, 0, hg_metric[i][1],
			   h[i] / p[i]);
	}
}

void run_debug_cost(void)
{
	static char why[4400];
	char prod[4200], dbg[4200];
	double p[NR_CASES], d[NR_CASES];
	unsigned int i;

	snprintf(prod, sizeof(prod), "%s/cost-production", set.exe_dir);
	snprintf(dbg, sizeof(dbg), "%s/cost-debug", set.exe_dir);
	fprintf(stderr, "debug: %s, %s (%ld pairs per timing)\n", prod, dbg,
		set.debug_loops);
	if (!run_cost("", prod, set.debug_loops, p)) {
		snprintf(why, sizeof(why), "skipped: %s missing or failed "
			 "(`make bench` builds it)", prod);
		debug_cost_status = why;
		return;
	}
	if (!run_cost("", dbg, set.debug_loops, d)) {
		snprintf(why, sizeof(why), "skipped: %s missing or failed "
			 "(it needs build/libkmutex-debug.a: make all)", dbg);
		debug_cost_status = why;
		return;
	}
	for (i = 0; i < NR_CASES; i++) {
		sample_add(WL_DEBUG, &kmutex_ops, 0, 1, 0, metric[i][0], p[i]);
		sample_add(WL_DEBUG, &kmutex_ops, 0, 1, 0, metric[i][1], d[i]);
		sample_add(WL_DEBUG, &kmutex_ops, 0, 1, 0, metric[i][2],
			   d[i] / p[i]);
	}
	run_helgrind_cost(p);
}
