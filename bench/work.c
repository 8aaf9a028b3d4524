// SPDX-License-Identifier: MIT
/*
 * work.c - calibrate the work loops by the clock.
 *
 * The core's speed here can change about 2x every few milliseconds (a
 * neighbour on the host), so one timing would do: take the fastest of
 * many short tries, which is the core running at full speed.
 */
#include <math.h>

#include "clock.h"
#include "work.h"

#define CAL_TRIES	40
#define CAL_ITERS	20000u

static double fastest_round_ns(void)
{
	static struct shared_lines lines;
	double best = INFINITY;
	int t;

	for (t = 0; t < CAL_TRIES; t++) {
		uint64_t t0 = now_ns();

		shared_work(&lines, CAL_ITERS);
		best = fmin(best, (double)(now_ns() - t0) / CAL_ITERS);
	}
	return best;
}

static double fastest_step_ns(void)
{
	volatile uint64_t sink;
	double best = INFINITY;
	int t;

	for (t = 0; t < CAL_TRIES; t++) {
		uint64_t t0 = now_ns();

		sink = private_work((uint64_t)t, CAL_ITERS);
		best = fmin(best, (double)(now_ns() - t0) / CAL_ITERS);
	}
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
