/* SPDX-License-Identifier: MIT */
/*
 * work.h - the work done inside and between acquisitions, in loops whose
 * length is calibrated by the clock at startup (work.c).
 *
 *   critical section  rounds of plain increments of counters on
 *                     SHARED_LINES cache lines that every thread
 *                     touches, so each acquisition also pulls those
 *                     lines over, as real shared data does;
 *   private work      steps of a linear congruential generator on a
 *                     register: time, without touching memory.
 */
#ifndef _BENCH_WORK_H
#define _BENCH_WORK_H

#include <stdint.h>

#define SHARED_LINES	4

struct shared_lines {
	struct {
		volatile unsigned long v;
	} __attribute__((aligned(64))) line[SHARED_LINES];
};

static inline void shared_work(struct shared_lines *s, unsigned int rounds)
{
	unsigned int i;

	while (rounds--)
		for (i = 0; i < SHARED_LINES; i++)
			s->line[i].v++;
}

static inline uint64_t private_work(uint64_t x, unsigned int steps)
{
	while (steps--) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		__asm__ __volatile__("" : "+r"(x));
	}
	return x;
}

struct work_calibration {
	double round_ns;	/* one round of shared_work(), lines hot */
	double step_ns;		/* one step of private_work() */
	unsigned int cs_rounds;	/* rounds for the requested critical section */
	unsigned int private_steps;
};

/* Time both loops (fastest of many tries) and size them for the targets. */
void work_calibrate(struct work_calibration *cal, double cs_ns,
		    double private_ns);

/* Rounds for a critical section of @cs_ns with @cal (0 for 0 ns). */
unsigned int work_cs_rounds(const struct work_calibration *cal, double cs_ns);

#endif /* _BENCH_WORK_H */
