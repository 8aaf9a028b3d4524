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
		    double private_ns)
{
	cal->round_ns = fastest_round_ns();
	cal->step_ns = fastest_step_ns();
	cal->cs_rounds = work_cs_rounds(cal, cs_ns);
	cal->private_steps = private_ns <= 0 ? 0 :
		(unsigned int)fmax(1, lround(private_ns / cal->step_ns));
}
