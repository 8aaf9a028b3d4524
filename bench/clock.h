/* SPDX-License-Identifier: MIT */
/* clock.h - the clock everything is timed with, the spin-loop hint, sleep. */
#ifndef _BENCH_CLOCK_H
#define _BENCH_CLOCK_H

#include <stdint.h>
#include <time.h>

/* now_ns() and cpu_relax(): the library's own, so both time alike. */
#include "../src/cpu.h"

/* Sleep for @ns nanoseconds (the main thread, between phases). */
static inline void sleep_ns(uint64_t ns)
{
	struct timespec ts = {
		.tv_sec = (time_t)(ns / 1000000000u),
		.tv_nsec = (long)(ns % 1000000000u),
	};

	while (clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, &ts))
		;
}

#endif /* _BENCH_CLOCK_H */
