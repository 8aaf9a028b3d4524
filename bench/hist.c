// SPDX-License-Identifier: MIT
/* hist.c - merging wait-time histograms and reading percentiles off them. */
#include "hist.h"

void hist_merge(struct hist *dst, const struct hist *src)
{
	unsigned int i;

	for (i = 0; i < HIST_BUCKETS; i++)
		dst->bucket[i] += src->bucket[i];
	dst->count += src->count;
	if (src->max > dst->max)
		dst->max = src->max;
}

/* The smallest value and the width of bucket @i. */
static void hist_bucket_range(unsigned int i, uint64_t *lo, uint64_t *width)
{
	unsigned int e, sub;

	if (i < HIST_LINEAR) {
		*lo = i;
		*width = 1;
		return;
	}
	i -= HIST_LINEAR;
	e = i / (1u << HIST_SUB_BITS) + 6;
	sub = i % (1u << HIST_SUB_BITS);
	*width = 1ull << (e - HIST_SUB_BITS);
	*lo = (1ull << e) + sub * *width;
}

uint64_t hist_percentile(const struct hist *h, double p)
{
	uint64_t want, seen = 0, lo, width;
	unsigned int i;

	if (!h->count)
		return 0;
	want = (uint64_t)(p * (double)h->count);
	if (want >= h->count)
		return h->max;
	for (i = 0; i < HIST_BUCKETS; i++) {
		seen += h->bucket[i];
		if (seen > want) {
			hist_bucket_range(i, &lo, &width);
			lo += width / 2;
			return lo < h->max ? lo : h->max;
		}
	}
	return h->max;
}
