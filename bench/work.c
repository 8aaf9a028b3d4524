// SPDX-License-Identifier: MIT
/*
 * work.c - calibrate the work loops by the clock.
 *
 * The core's speed here can change about 2x every few milliseconds (a
 * neighbour on the host), so one timing would not do: take the fastest
 * of many short tries spread over CAL_NS of time, which is the core
 * running at full speed with the loop hot.
 */
#include <math.h>
#include <string.h>

#include "clock.h"
#include "work.h"

#define CAL_NS		40000000ull	/* per loop: 40 ms */
#define CAL_ITERS	10000u

static double fastest_round_ns(void)
{
	static struct shared_lines lines;
	uint64_t end = now_ns() + CAL_NS;
	double best = INFINITY;

	while (now_ns() < end) {
		uint64_t t0 = now_ns();

		shared_work(&lines, CAL_ITERS);
		best = fmin(best, (double)(now_ns() - t0) / CAL_ITERS);
	}
	return best;
}

/*
 * Sattolo's algorithm (a shuffle that leaves one cycle through all
 * lines), from a fixed seed: every run walks the same order, and the
 * order has no stride a hardware prefetcher could follow.
 */
void data_lines_init(struct data_lines *d, unsigned int lines)
{
	unsigned int perm[DATA_LINES_MAX], i, j, t;
	uint64_t x = 0x853c49e6748fea9bull;

	memset(d, 0, sizeof(*d));
	if (!lines)
		return;
	for (i = 0; i < lines; i++)
		perm[i] = i;
	for (i = lines - 1; i > 0; i--) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		j = (unsigned int)((x >> 33) % i);
		t = perm[i];
		perm[i] = perm[j];
		perm[j] = t;
	}
	for (i = 0; i < lines; i++)
		d->line[perm[i]].next = perm[(i + 1) % lines];
}

static double fastest_data_ns(unsigned int lines)
{
	static struct data_lines data;
	uint64_t end = now_ns() + CAL_NS / 4;
	double best = INFINITY;
	unsigned int i;

	data_lines_init(&data, lines);
	while (now_ns() < end) {
		uint64_t t0 = now_ns();

		for (i = 0; i < CAL_ITERS / 10; i++)
			data_work(&data, lines);
		best = fmin(best, (double)(now_ns() - t0) / (CAL_ITERS / 10));
	}
	return best;
}

static double fastest_step_ns(void)
{
	uint64_t end = now_ns() + CAL_NS, x = 1;
	volatile uint64_t sink;
	double best = INFINITY;

	while (now_ns() < end) {
		uint64_t t0 = now_ns();

		x = private_work(x, CAL_ITERS);
		best = fmin(best, (double)(now_ns() - t0) / CAL_ITERS);
	}
	sink = x;
	(void)sink;
	return best;
}

unsigned int work_cs_rounds(const struct work_calibration *cal, double cs_ns)
{
	if (cs_ns <= 0)
		return 0;
	return (unsigned int)fmax(1, lround(cs_ns / cal->round_ns));
}

void work_calibrate(struct work_calibration *cal, double cs_ns,
		    double private_ns, unsigned int data_lines)
{
	cal->round_ns = fastest_round_ns();
	cal->step_ns = fastest_step_ns();
	cal->data_ns = fastest_data_ns(data_lines);
	cal->cs_rounds = work_cs_rounds(cal, cs_ns);
	cal->private_steps = private_ns <= 0 ? 0 :
		(unsigned int)fmax(1, lround(private_ns / cal->step_ns));
}
