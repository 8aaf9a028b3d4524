/* SPDX-License-Identifier: MIT */
/*
 * hist.h - a log-linear histogram of wait times in ns: exact below 64 ns,
 * then 32 buckets per power of two (about 3% wide), and the exact
 * maximum.  One per thread, merged after the run.
 */
#ifndef _BENCH_HIST_H
#define _BENCH_HIST_H

#include <stdint.h>

#define HIST_SUB_BITS	5
#define HIST_LINEAR	64
#define HIST_BUCKETS	(HIST_LINEAR + (64 - 6) * (1 << HIST_SUB_BITS))

struct hist {
	uint64_t count;
	uint64_t max;
	uint64_t bucket[HIST_BUCKETS];
};

static inline unsigned int hist_index(uint64_t v)
{
	unsigned int e;

	if (v < HIST_LINEAR)
		return (unsigned int)v;
	e = 63 - (unsigned int)__builtin_clzll(v);	/* >= 6 */
	return HIST_LINEAR + (e - 6) * (1u << HIST_SUB_BITS) +
	       (unsigned int)((v >> (e - HIST_SUB_BITS)) &
			      ((1u << HIST_SUB_BITS) - 1));
}

static inline void hist_add(struct hist *h, uint64_t v)
{
	h->bucket[hist_index(v)]++;
	h->count++;
	if (v > h->max)
		h->max = v;
}

void hist_merge(struct hist *dst, const struct hist *src);

/* The value below which a fraction @p of the samples lie (bucket middle). */
uint64_t hist_percentile(const struct hist *h, double p);

#endif /* _BENCH_HIST_H */
