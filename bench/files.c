// SPDX-License-Identifier: MIT
/*
 * files.c - the results as files, in --out (build/bench/ by default):
 *
 *   results.csv    rows about the machine (record=machine: the CPU, the
 *                  CPU pair's cache-line round trip at the start and the
 *                  end), one row per sample (record=sample, with the kind
 *                  of CPU pair its point and rep ran on and the round
 *                  trips before and after), per summary (record=summary:
 *                  value is the median over reps) and per ratio against
 *                  pthread (record=ratio_vs_pthread)
 *   results.json   the machine, the settings, the locks (built or
 *                  skipped), every sample, the summaries, the ratios and
 *                  issue 3's targets
 *   throughput.svg, wait.svg   with gnuplot, when it is installed
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bench.h"
#include "run.h"
#include "rwlock_ops.h"
#include "sem_ops.h"

static FILE *open_out(const char *name, char *path, size_t len)
{
	FILE *f;

	snprintf(path, len, "%s/%s", set.out, name);
	f = fopen(path, "w");
	if (!f)
		fprintf(stderr, "kmutex-bench: %s: %s\n", path,
			strerror(errno));
	return f;
}

/* A JSON or CSV number: NAN and inf have no JSON form. */
static void put_num(FILE *f, double v, bool json)
{
	if (isnan(v) || isinf(v))
		fputs(json ? "null" : (isinf(v) ? "inf" : ""), f);
	else
		fprintf(f, "%.6g", v);
}

/* Each (workload, lock, point, metric) once: its rep-0 sample. */
static bool group_first(const struct sample *s)
{
	return s->rep == 0;
}

/*
 * The round trip: workload "c2c" (start) or "c2c-end", the pair in the
 * lock column ("cpu0-cpu1"), near/far/n/a in the kind column.
 */
static void csv_c2c(FILE *f, const char *name, const struct c2c *c)
{
	fprintf(f, "machine,%s,", name);
	if (c->cpu[0] >= 0)
		fprintf(f, "cpu%d-cpu%d", c->cpu[0], c->cpu[1]);
	fprintf(f, ",%s,,,,,round_trip_ns,", c2c_label(c));
	put_num(f, c->rtt_ns, false);
	fputc(',', f);
	put_num(f, c->min_ns, false);
	fputc(',', f);
	put_num(f, c->max_ns, false);
	fputs(",,,\n", f);
}

/* The machine's stalls: workload "stalls", threads = one per CPU. */
static void csv_stalls(FILE *f, const struct stalls *s)
{
	if (s->why)
		return;
	fprintf(f, "machine,stalls,,,,,%u,,longest_stall_ns,%llu,,,,,\n",
		s->threads, (unsigned long long)s->longest_ns);
	fprintf(f, "machine,stalls,,,,,%u,,stalls_over_%d_us,%lu,,,,,\n",
		s->threads, STALL_GAP_NS / 1000, s->count);
}

static void csv_machine(FILE *f)
{
	char cpu[sizeof(mach.cpu)], *p;

	/* The CSV is not quoted: no commas in a field. */
	snprintf(cpu, sizeof(cpu), "%s", mach.cpu);
	for (p = cpu; *p; p++)
		if (*p == ',')
			*p = ';';
	fprintf(f, "machine,cpu,%s,,,,,,cpus_online,%ld,,,,,\n", cpu,
		mach.cpus_online);
	csv_c2c(f, "c2c", &mach.c2c);
	csv_c2c(f, "c2c-end", &mach.c2c_end);
	csv_stalls(f, &mach.stalls);
}

static void write_csv(void)
{
	const struct lock_ops *pt;
	char path[4200];
	FILE *f = open_out("results.csv", path, sizeof(path));
	size_t i;

	if (!f)
		return;
	fprintf(f, "record,workload,lock,kind,lock_size,cs_ns,threads,rep,"
		"metric,value,min,max,pair,pair_rtt_ns,pair_rtt_after_ns\n");
	csv_machine(f);
	for (i = 0; i < nr_samples; i++) {
		const struct sample *s = &samples[i];

		fprintf(f, "sample,%s,%s,%s,%zu,%u,%u,%u,%s,",
			workload_name[s->wl], s->lock->name,
			lock_kind_name[s->lock->kind], s->lock->size, s->cs_ns,
			s->threads, s->rep, s->metric);
		put_num(f, s->value, false);
		fprintf(f, ",,,%s,", pair_name[s->pair]);
		put_num(f, s->rtt_ns, false);
		fputc(',', f);
		put_num(f, s->rtt_after_ns, false);
		fputc('\n', f);
	}
	for (i = 0; i < nr_samples; i++) {
		const struct sample *s = &samples[i];
		struct summary m;
		int k;

		if (!group_first(s))
			continue;
		pt = baseline_of(s->wl);
		for (k = 0; k < 2; k++) {
			if (k) {
				if (!pt || s->lock == pt)
					continue;
				m = sample_ratio(s->wl, s->lock, pt, s->cs_ns,
						 s->threads, s->metric);
			} else {
				m = sample_summary(s->wl, s->lock, s->cs_ns,
						   s->threads, s->metric);
			}
			fprintf(f, "%s,%s,%s,%s,%zu,%u,%u,,%s,",
				k ? "ratio_vs_pthread" : "summary",
				workload_name[s->wl], s->lock->name,
				lock_kind_name[s->lock->kind], s->lock->size,
				s->cs_ns, s->threads, s->metric);
			put_num(f, m.med, false);
			fputc(',', f);
			put_num(f, m.min, false);
			fputc(',', f);
			put_num(f, m.max, false);
			fputs(",,,\n", f);
		}
	}
	fclose(f);
	printf("wrote     %s\n", path);
}

static void json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(f, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			fprintf(f, "\\u%04x", *s);
		else
			fputc(*s, f);
	}
	fputc('"', f);
}

static void json_point(FILE *f, const struct sample *s)
{
	fprintf(f, "{\"workload\": \"%s\", \"lock\": ", workload_name[s->wl]);
	json_str(f, s->lock->name);
	fprintf(f, ", \"cs_ns\": %u, \"threads\": %u, \"metric\": \"%s\"",
		s->cs_ns, s->threads, s->metric);
}

static void json_summary(FILE *f, struct summary m)
{
	fputs(", \"median\": ", f);
	put_num(f, m.med, true);
	fputs(", \"min\": ", f);
	put_num(f, m.min, true);
	fputs(", \"max\": ", f);
	put_num(f, m.max, true);
	fprintf(f, ", \"n\": %u}", m.n);
}

/* An rw lock or a semaphore: always built, always run. */
static void json_lock_brief(FILE *f, const struct lock_ops *ops, bool more)
{
	fprintf(f, "  {\"name\": ");
	json_str(f, ops->name);
	fprintf(f, ", \"what\": ");
	json_str(f, ops->what);
	fprintf(f, ", \"size\": %zu}%s\n", ops->size, more ? "," : "");
}

static void json_c2c(FILE *f, const char *name, const struct c2c *c)
{
	fprintf(f, ", \"%s\": {\"cpus\": ", name);
	if (c->cpu[0] >= 0)
		fprintf(f, "[%d, %d]", c->cpu[0], c->cpu[1]);
	else
		fputs("null", f);
	fprintf(f, ", \"pair\": \"%s\", \"round_trip_ns\": ", c2c_label(c));
	put_num(f, c->rtt_ns, true);
	fputs(", \"min_ns\": ", f);
	put_num(f, c->min_ns, true);
	fputs(", \"max_ns\": ", f);
	put_num(f, c->max_ns, true);
	fprintf(f, ", \"samples\": %u, \"trips_per_sample\": %u, "
		"\"near_below_ns\": %d, \"why_not\": ", c->samples, c->trips,
		C2C_NEAR_NS);
	if (c->why)
		json_str(f, c->why);
	else
		fputs("null", f);
	fputc('}', f);
}

static void json_stalls(FILE *f, const struct stalls *s)
{
	fprintf(f, ", \"stalls\": {\"seconds\": %.2f, \"threads\": %u, "
		"\"gap_ns\": %d, \"count\": %lu, \"longest_ns\": %llu, "
		"\"total_ns\": %llu, \"why_not\": ", s->seconds, s->threads,
		STALL_GAP_NS, s->count, (unsigned long long)s->longest_ns,
		(unsigned long long)s->total_ns);
	if (s->why)
		json_str(f, s->why);
	else
		fputs("null", f);
	fputc('}', f);
}

static void json_head(FILE *f)
{
	unsigned int i;

	fprintf(f, "{\n\"tool\": \"kmutex-bench\",\n\"machine\": {\"cpu\": ");
	json_str(f, mach.cpu);
	fprintf(f, ", \"cpus_online\": %ld, \"cpus_configured\": %ld, "
		"\"kernel\": ", mach.cpus_online, mach.cpus_conf);
	json_str(f, mach.kernel);
	fprintf(f, ", \"glibc\": ");
	json_str(f, mach.libc);
	fprintf(f, ", \"clocksource\": ");
	json_str(f, mach.clocksource);
	json_c2c(f, "c2c", &mach.c2c);
	json_c2c(f, "c2c_end", &mach.c2c_end);
	json_stalls(f, &mach.stalls);
	fprintf(f, ", \"load_before\": [%.2f, %.2f, %.2f], \"load_after\": "
		"[%.2f, %.2f, %.2f], \"cpu_share_self\": %.3f, "
		"\"cpu_share_others\": %.3f, \"cpu_share_steal\": %.3f},\n",
		mach.load_before[0], mach.load_before[1], mach.load_before[2],
		mach.load_after[0], mach.load_after[1], mach.load_after[2],
		mach.share_self, mach.share_others, mach.share_steal);
	fprintf(f, "\"settings\": {\"mode\": \"%s\", \"reps\": %u, "
		"\"seconds\": %g, \"warmup\": %g, \"cs_ns\": %g, "
		"\"private_ns\": %g, \"cs_rounds\": %u, \"private_steps\": %u, "
		"\"uncontended_samples\": %u, \"uncontended_iters\": %lu, "
		"\"rw_sem_seconds\": %g, \"debug_loops\": %ld, "
		"\"data_lines\": %u, \"data_ns_local\": %.2f, "
		"\"sections\": [%s%s%s], \"lru\": {\"capacity\": %d, "
		"\"keys\": %d, \"put_pct\": %d, \"seconds\": %g}, "
		"\"threads\": [", set.mode, set.reps, set.seconds, set.warmup,
		set.cs_ns, set.private_ns, set.cal.cs_rounds,
		set.cal.private_steps, set.lat_samples, set.lat_iters,
		set.rw_seconds, set.debug_loops, set.data_lines,
		set.cal.data_ns,
		set.sections & CS_EMPTY ? "\"empty\"" : "",
		set.sections & CS_TIMED ?
			(set.sections & CS_EMPTY ? ", \"timed\"" :
						   "\"timed\"") : "",
		set.sections & CS_DATA ?
			(set.sections & (CS_EMPTY | CS_TIMED) ? ", \"data\"" :
								"\"data\"") : "",
		LRU_CAPACITY, LRU_KEYS, LRU_PUT_PCT, set.rw_seconds);
	for (i = 0; i < set.nr_threads; i++)
		fprintf(f, "%s%u", i ? ", " : "", set.threads[i]);
	fprintf(f, "]},\n\"locks\": [\n");
	for (i = 0; i < nr_all_locks; i++) {
		const struct lock_ops *ops = all_locks[i];

		fprintf(f, "  {\"name\": ");
		json_str(f, ops->name);
		fprintf(f, ", \"what\": ");
		json_str(f, ops->what);
		fprintf(f, ", \"kind\": \"%s\", \"size\": ",
			lock_kind_name[ops->kind]);
		if (ops->skipped) {
			fprintf(f, "null, \"built\": false, \"skipped\": ");
			json_str(f, ops->skipped);
		} else {
			fprintf(f, "%zu, \"built\": true, \"selected\": %s",
				ops->size, selected(ops) ? "true" : "false");
		}
		fprintf(f, "}%s\n", i + 1 < nr_all_locks ? "," : "");
	}
	fprintf(f, "],\n\"rw_locks\": [\n");
	for (i = 0; i < nr_all_rwlocks; i++)
		json_lock_brief(f, &all_rwlocks[i]->base, i + 1 < nr_all_rwlocks);
	fprintf(f, "],\n\"semaphores\": [\n");
	for (i = 0; i < nr_all_sems; i++)
		json_lock_brief(f, &all_sems[i]->base, i + 1 < nr_all_sems);
	fprintf(f, "],\n");
}

static void write_json(void)
{
	const struct lock_ops *pt;
	const char *sep = "";
	char path[4200];
	FILE *f = open_out("results.json", path, sizeof(path));
	size_t i;

	if (!f)
		return;
	json_head(f);
	fprintf(f, "\"samples\": [\n");
	for (i = 0; i < nr_samples; i++) {
		fputs(i ? ",\n  " : "  ", f);
		json_point(f, &samples[i]);
		fprintf(f, ", \"rep\": %u, \"value\": ", samples[i].rep);
		put_num(f, samples[i].value, true);
		if (samples[i].pair != PAIR_NONE) {
			fprintf(f, ", \"pair\": \"%s\", \"pair_rtt_ns\": ",
				pair_name[samples[i].pair]);
			put_num(f, samples[i].rtt_ns, true);
			fputs(", \"pair_rtt_after_ns\": ", f);
			put_num(f, samples[i].rtt_after_ns, true);
		}
		fputc('}', f);
	}
	fprintf(f, "\n],\n\"summaries\": [\n");
	for (i = 0; i < nr_samples; i++) {
		const struct sample *s = &samples[i];

		if (!group_first(s))
			continue;
		fputs(sep, f);
		sep = ",\n";
		fputs("  ", f);
		json_point(f, s);
		json_summary(f, sample_summary(s->wl, s->lock, s->cs_ns,
					       s->threads, s->metric));
	}
	fprintf(f, "\n],\n\"ratios_vs_pthread\": [\n");
	sep = "";
	for (i = 0; i < nr_samples; i++) {
		const struct sample *s = &samples[i];

		pt = baseline_of(s->wl);
		if (!pt || !group_first(s) || s->lock == pt)
			continue;
		fputs(sep, f);
		sep = ",\n";
		fputs("  ", f);
		json_point(f, s);
		json_summary(f, sample_ratio(s->wl, s->lock, pt, s->cs_ns,
					     s->threads, s->metric));
	}
	fprintf(f, "\n],\n\"targets\": [\n");
	for (i = 0; i < nr_targets; i++) {
		fprintf(f, "  {\"what\": ");
		json_str(f, targets[i].what);
		fprintf(f, ", \"value\": ");
		put_num(f, targets[i].value, true);
		/* "met": null where the run could not judge it (n/a). */
		fprintf(f, ", \"limit\": %g, \"at_most\": %s, \"met\": %s}%s\n",
			targets[i].limit, targets[i].at_most ? "true" : "false",
			!targets[i].judged ? "null" :
			targets[i].met ? "true" : "false",
			i + 1 < nr_targets ? "," : "");
	}
	fprintf(f, "]\n}\n");
	fclose(f);
	printf("wrote     %s\n", path);
}

/* ---- plots ------------------------------------------------------------ */

/* One panel per critical section run: empty, timed, data-heavy. */
static void plot_throughput(FILE *f)
{
	unsigned int c, i, t, panels = 0;

	for (c = 0; c < 3; c++)
		panels += !!(set.sections & (1u << c));
	fprintf(f, "set terminal svg size %u,480 dynamic noenhanced "
		"font 'sans,11'\n"
		"set output '%s/throughput.svg'\n"
		"set multiplot layout 1,%u title 'kmutex-bench: contended "
		"throughput (median, min-max over %u reps), %s CPU pair'\n"
		"set logscale x 2\nset xlabel 'threads'\n"
		"set ylabel 'M acquisitions/s'\nset yrange [0:*]\n"
		"set key top right\nset grid\n", 550 * panels, set.out,
		panels, set.reps, c2c_label(&mach.c2c));
	for (c = 0; c < 3; c++) {
		unsigned int cs = c == 1 ? (unsigned int)set.cs_ns : 0;
		enum workload wl = c == 2 ? WL_CONTENDED_DATA : WL_CONTENDED;
		const char *sep = "plot ";

		if (!(set.sections & (1u << c)))
			continue;
		if (c == 2)
			fprintf(f, "set title 'data-heavy: a walk through %u "
				"shared lines'\n", set.data_lines);
		else if (cs)
			fprintf(f, "set title 'critical section ~%u ns on %d "
				"shared lines'\n", cs, SHARED_LINES);
		else
			fprintf(f, "set title 'critical section empty'\n");
		for (i = 0; i < set.nr_locks; i++) {
			if (set.locks[i]->kind == LOCK_FLOOR)
				continue;
			fprintf(f, "%s'-' using 1:2:3:4 with yerrorlines "
				"title '%s'", sep, set.locks[i]->name);
			sep = ", \\\n     ";
		}
		fputc('\n', f);
		for (i = 0; i < set.nr_locks; i++) {
			if (set.locks[i]->kind == LOCK_FLOOR)
				continue;
			for (t = 0; t < set.nr_threads; t++) {
				struct summary s = sample_summary(wl,
					set.locks[i], cs, set.threads[t],
					"mops");

				if (s.n)
					fprintf(f, "%u %g %g %g\n",
						set.threads[t], s.med, s.min,
						s.max);
			}
			fprintf(f, "e\n");
		}
	}
	fprintf(f, "unset multiplot\n");
}

static void plot_wait(FILE *f)
{
	static const char *const metric[] = {
		"wait_p50_ns", "wait_p99_ns", "wait_max_ns",
	};
	static const char *const title[] = { "p50", "p99", "max" };
	unsigned int i, k, p, x;

	fprintf(f, "set terminal svg size 1100,480 dynamic noenhanced "
		"font 'sans,11'\n"
		"set output '%s/wait.svg'\n"
		"set multiplot layout 1,2 title 'kmutex-bench: wait for one "
		"acquisition, critical section ~%.0f ns (median over %u "
		"reps)'\n"
		"unset logscale\nset logscale y 10\nset ylabel 'microseconds'\n"
		"set yrange [*:*]\nset xlabel ''\nset xtics rotate by -30\n"
		"set key center right\nset grid\nset style data points\n",
		set.out, set.cs_ns, set.reps);
	for (p = 0; p < 2; p++) {
		unsigned int t = p ? 8 : 4;

		fprintf(f, "set title '%u threads'\nset xtics (", t);
		for (i = 0, x = 0; i < set.nr_locks; i++) {
			if (set.locks[i]->kind == LOCK_FLOOR)
				continue;
			fprintf(f, "%s'%s' %u", x ? ", " : "",
				set.locks[i]->name, x);
			x++;
		}
		fprintf(f, ")\nset xrange [-0.5:%u.5]\nplot ", x ? x - 1 : 0);
		for (k = 0; k < 3; k++)
			fprintf(f, "%s'-' using 1:2 title '%s'", k ? ", " : "",
				title[k]);
		fputc('\n', f);
		for (k = 0; k < 3; k++) {
			for (i = 0, x = 0; i < set.nr_locks; i++) {
				struct summary s;

				if (set.locks[i]->kind == LOCK_FLOOR)
					continue;
				s = sample_summary(WL_FAIRNESS, set.locks[i],
						   (unsigned int)set.cs_ns, t,
						   metric[k]);
				if (s.n && s.med > 0)
					fprintf(f, "%u %g\n", x, s.med / 1e3);
				x++;
			}
			fprintf(f, "e\n");
		}
	}
	fprintf(f, "unset multiplot\n");
}

static void write_plots(void)
{
	char path[4200], cmd[4300];
	FILE *f;

	if (!(set.workloads & (SEL_CONTENDED | SEL_FAIRNESS)))
		return;
	if (system("command -v gnuplot >/dev/null 2>&1")) {
		printf("plots     skipped (install gnuplot)\n");
		return;
	}
	f = open_out("plot.gp", path, sizeof(path));
	if (!f)
		return;
	if (set.workloads & SEL_CONTENDED)
		plot_throughput(f);
	if (set.workloads & SEL_FAIRNESS)
		plot_wait(f);
	fclose(f);
	snprintf(cmd, sizeof(cmd), "gnuplot '%s' 2>&1", path);
	if (system(cmd)) {
		printf("plots     gnuplot failed on %s\n", path);
		return;
	}
	if (set.workloads & SEL_CONTENDED)
		printf("wrote     %s/throughput.svg\n", set.out);
	if (set.workloads & SEL_FAIRNESS)
		printf("wrote     %s/wait.svg\n", set.out);
}

void report_files(void)
{
	printf("\n");
	if (mkdir(set.out, 0777) && errno != EEXIST) {
		fprintf(stderr, "kmutex-bench: %s: %s\n", set.out,
			strerror(errno));
		return;
	}
	write_csv();
	write_json();
	write_plots();
}
