// SPDX-License-Identifier: MIT
/* results.c - the samples, and their medians and per-rep ratios. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "run.h"
#include "rwlock_ops.h"
#include "sem_ops.h"

const char *const workload_name[NR_WORKLOADS] = {
	[WL_UNCONTENDED]	= "uncontended",
	[WL_UNCONTENDED_1T]	= "uncontended-1thread",
	[WL_CONTENDED]		= "contended",
	[WL_CONTENDED_DATA]	= "contended-data",
	[WL_FAIRNESS]		= "fairness",
	[WL_OVERSUB]		= "oversub",
	[WL_RWSEM_95]		= "rwsem-95",
	[WL_RWSEM_999]		= "rwsem-99.9",
	[WL_SEM_PINGPONG]	= "sem-pingpong",
	[WL_SEM_PRODCONS]	= "sem-prodcons",
	[WL_LRU]		= "lru",
	[WL_WW_16]		= "ww-4of16",
	[WL_WW_64]		= "ww-4of64",
	[WL_DEBUG]		= "debug",
};

const char *const pair_name[NR_PAIRS] = {
	[PAIR_NONE]	= "",
	[PAIR_NA]	= "n/a",
	[PAIR_NEAR]	= "near",
	[PAIR_FAR]	= "far",
	[PAIR_MIXED]	= "mixed",
};

struct sample *samples;
size_t nr_samples;
static size_t samples_cap;
unsigned int pair_points[NR_PAIRS];
double pair_rtt_min = NAN, pair_rtt_max = NAN;

void sample_add(enum workload wl, const struct lock_ops *lock,
		unsigned int cs_ns, unsigned int threads, unsigned int rep,
		const char *metric, double value)
{
	if (nr_samples == samples_cap) {
		samples_cap = samples_cap ? 2 * samples_cap : 1024;
		samples = realloc(samples, samples_cap * sizeof(*samples));
		if (!samples) {
			perror("realloc");
			exit(1);
		}
	}
	samples[nr_samples++] = (struct sample){
		.wl = wl, .lock = lock, .cs_ns = cs_ns, .threads = threads,
		.rep = rep, .metric = metric, .value = value,
		.pair = PAIR_NONE, .rtt_ns = NAN, .rtt_after_ns = NAN,
	};
}

enum pair c2c_pair(const struct c2c *c)
{
	const char *l = c2c_label(c);

	return !strcmp(l, "near") ? PAIR_NEAR :
	       !strcmp(l, "far") ? PAIR_FAR : PAIR_NA;
}

void samples_set_pair(size_t from, const struct c2c *before,
		      const struct c2c *after)
{
	enum pair a = c2c_pair(before), b = c2c_pair(after), p;
	size_t i;

	p = a == PAIR_NA || b == PAIR_NA ? PAIR_NA : a == b ? a : PAIR_MIXED;
	for (i = from; i < nr_samples; i++) {
		samples[i].pair = p;
		samples[i].rtt_ns = before->rtt_ns;
		samples[i].rtt_after_ns = after->rtt_ns;
	}
	pair_points[p]++;
	for (i = 0; i < 2; i++) {
		double v = i ? after->rtt_ns : before->rtt_ns;

		if (isnan(v))
			continue;
		if (!(v >= pair_rtt_min))
			pair_rtt_min = v;
		if (!(v <= pair_rtt_max))
			pair_rtt_max = v;
	}
}

unsigned int pairs_seen(enum workload wl, unsigned int cs_ns)
{
	unsigned int mask = 0;
	size_t i;

	for (i = 0; i < nr_samples; i++)
		if (samples[i].wl == wl && samples[i].cs_ns == cs_ns)
			mask |= 1u << samples[i].pair;
	return mask;
}

unsigned int pairs_split(enum workload wl, unsigned int cs_ns)
{
	unsigned int kinds = (1u << PAIR_NEAR) | (1u << PAIR_FAR) |
			     (1u << PAIR_MIXED);
	unsigned int mask = pairs_seen(wl, cs_ns) & kinds;

	if (__builtin_popcount(mask) < 2)
		return 0;
	return mask & ((1u << PAIR_NEAR) | (1u << PAIR_FAR));
}

unsigned int sample_reps(enum workload wl, const struct lock_ops *lock,
			 unsigned int cs_ns, unsigned int threads,
			 const char *metric, double *v)
{
	return sample_reps_pair(wl, lock, cs_ns, threads, metric, PAIR_ANY,
				v);
}

unsigned int sample_reps_pair(enum workload wl, const struct lock_ops *lock,
			      unsigned int cs_ns, unsigned int threads,
			      const char *metric, enum pair pair, double *v)
{
	unsigned int r, found = 0;
	size_t i;

	for (r = 0; r < set.reps; r++)
		v[r] = NAN;
	for (i = 0; i < nr_samples; i++) {
		const struct sample *s = &samples[i];

		if (s->wl == wl && s->lock == lock && s->cs_ns == cs_ns &&
		    s->threads == threads && !strcmp(s->metric, metric) &&
		    s->rep < set.reps &&
		    (pair == PAIR_ANY || s->pair == pair)) {
			v[s->rep] = s->value;
			found++;
		}
	}
	return found;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

struct summary summarize(const double *v)
{
	double sorted[MAX_REPS];
	struct summary s = { .med = NAN, .min = NAN, .max = NAN };
	unsigned int r;

	for (r = 0; r < set.reps; r++)
		if (!isnan(v[r]))
			sorted[s.n++] = v[r];
	if (!s.n)
		return s;
	qsort(sorted, s.n, sizeof(double), cmp_double);
	s.min = sorted[0];
	s.max = sorted[s.n - 1];
	s.med = s.n % 2 ? sorted[s.n / 2] :
			  (sorted[s.n / 2 - 1] + sorted[s.n / 2]) / 2;
	return s;
}

struct summary summarize_ratio(const double *a, const double *b)
{
	double q[MAX_REPS];
	unsigned int r;

	for (r = 0; r < set.reps; r++)
		q[r] = a[r] / b[r];	/* NAN where either is missing */
	return summarize(q);
}

struct summary sample_summary(enum workload wl, const struct lock_ops *lock,
			      unsigned int cs_ns, unsigned int threads,
			      const char *metric)
{
	return sample_summary_pair(wl, lock, cs_ns, threads, metric,
				   PAIR_ANY);
}

struct summary sample_summary_pair(enum workload wl,
				   const struct lock_ops *lock,
				   unsigned int cs_ns, unsigned int threads,
				   const char *metric, enum pair pair)
{
	double v[MAX_REPS];

	sample_reps_pair(wl, lock, cs_ns, threads, metric, pair, v);
	return summarize(v);
}

struct summary sample_ratio(enum workload wl, const struct lock_ops *a,
			    const struct lock_ops *b, unsigned int cs_ns,
			    unsigned int threads, const char *metric)
{
	return sample_ratio_pair(wl, a, b, cs_ns, threads, metric, PAIR_ANY);
}

/* The two locks of one point and rep share its label: one filter does. */
struct summary sample_ratio_pair(enum workload wl, const struct lock_ops *a,
				 const struct lock_ops *b, unsigned int cs_ns,
				 unsigned int threads, const char *metric,
				 enum pair pair)
{
	double va[MAX_REPS], vb[MAX_REPS];

	sample_reps_pair(wl, a, cs_ns, threads, metric, pair, va);
	sample_reps_pair(wl, b, cs_ns, threads, metric, pair, vb);
	return summarize_ratio(va, vb);
}

const struct lock_ops *baseline_of(enum workload wl)
{
	switch (wl) {
	case WL_RWSEM_95:
	case WL_RWSEM_999:
		return &pthread_rwlock_ops.base;
	case WL_SEM_PINGPONG:
	case WL_SEM_PRODCONS:
		return &posix_sem_ops.base;
	case WL_WW_16:
	case WL_WW_64:
		return &pthread_sorted_ops;
	case WL_DEBUG:
		return NULL;
	default:
		return selected(&pthread_default_ops);
	}
}
