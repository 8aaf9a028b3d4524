// SPDX-License-Identifier: MIT
/* results.c - the samples, and their medians and per-rep ratios. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
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
	[WL_DEBUG]		= "debug",
};

struct sample *samples;
size_t nr_samples;
static size_t samples_cap;

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
	};
}

unsigned int sample_reps(enum workload wl, const struct lock_ops *lock,
			 unsigned int cs_ns, unsigned int threads,
			 const char *metric, double *v)
{
	unsigned int r, found = 0;
	size_t i;

	for (r = 0; r < set.reps; r++)
		v[r] = NAN;
	for (i = 0; i < nr_samples; i++) {
		const struct sample *s = &samples[i];

		if (s->wl == wl && s->lock == lock && s->cs_ns == cs_ns &&
		    s->threads == threads && !strcmp(s->metric, metric) &&
		    s->rep < set.reps) {
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
	double v[MAX_REPS];

	sample_reps(wl, lock, cs_ns, threads, metric, v);
	return summarize(v);
}

struct summary sample_ratio(enum workload wl, const struct lock_ops *a,
			    const struct lock_ops *b, unsigned int cs_ns,
			    unsigned int threads, const char *metric)
{
	double va[MAX_REPS], vb[MAX_REPS];

	sample_reps(wl, a, cs_ns, threads, metric, va);
	sample_reps(wl, b, cs_ns, threads, metric, vb);
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
	case WL_DEBUG:
		return NULL;
	default:
		return selected(&pthread_default_ops);
	}
}
