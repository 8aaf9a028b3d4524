/* SPDX-License-Identifier: MIT */
/*
 * work.h - the work done inside and between acquisitions, in loops whose
 * length is calibrated by the clock at startup (work.c).
 *
 *   critical section  rounds of plain increments of counters on
 *                     SHARED_LINES cache lines that every thread
 *                     touches, so each acquisition also pulls those
 *                     lines over, as real shared data does;
 *   data-heavy        a fixed amount of work, not a time: a walk
 *   critical section  through data_lines (default 24) shared cache
 *                     lines in a fixed shuffled order, each incremented
 *                     once, each naming the next (as a list or a tree
 *                     is walked).  Moving the lock to the other CPU
 *                     then moves every line, one after the other, which
 *                     costs more than the private work on any machine,
 *                     near CPU pairs included (issue 10).  Independent
 *                     increments would not: the core overlaps their
 *                     misses (24 lines from the other CPU of a near
 *                     pair cost ~70 ns that way, ~500 ns walked);
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

#define DATA_LINES_DEFAULT	24
#define DATA_LINES_MAX		64

struct data_lines {
	struct {
		volatile unsigned long v;
		unsigned int next;	/* the walk's next line; set once */
	} __attribute__((aligned(64))) line[DATA_LINES_MAX];
};

/* Zero the lines and link the first @lines into one shuffled cycle. */
void data_lines_init(struct data_lines *d, unsigned int lines);

/*
 * Walk @lines lines from line 0.  Where the next line is depends on the
 * one just fetched, so misses come one after the other.
 */
static inline void data_work(struct data_lines *d, unsigned int lines)
{
	unsigned int i = 0;

	while (lines--) {
		d->line[i].v++;
		i = d->line[i].next;
	}
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
	double data_ns;		/* one data_work() of data_lines, lines hot */
	unsigned int cs_rounds;	/* rounds for the requested critical section */
	unsigned int private_steps;
};

/*
 * Time the loops (fastest of many tries) and size them for the targets;
 * time data_work() on @data_lines lines, which is not sized.
 */
void work_calibrate(struct work_calibration *cal, double cs_ns,
		    double private_ns, unsigned int data_lines);

/* Rounds for a critical section of @cs_ns with @cal (0 for 0 ns). */
unsigned int work_cs_rounds(const struct work_calibration *cal, double cs_ns);

#endif /* _BENCH_WORK_H */
