/* SPDX-License-Identifier: MIT */
/*
 * policy_count.h - what the mutex policy timed, counted per thread.
 *
 * Only the library variant built with -DMUTEX_POLICY_COUNT=1 (make
 * builds it for the tests named count_*.c, which include this file)
 * counts; the real library has neither the counters nor the symbol.
 * The policy times one slow-path cycle in MUTEX_TIME_EVERY while the
 * lock moves, every cycle near the keep line (src/mutex.c): a bug that
 * times every cycle or none changes no lock's behaviour, only its speed,
 * so only counting finds it.
 */
#ifndef _KMUTEX_SRC_POLICY_COUNT_H
#define _KMUTEX_SRC_POLICY_COUNT_H

struct kmutex_policy_count {
	/* Slow-path acquisitions; [1] while timing 1 in MUTEX_TIME_EVERY. */
	unsigned long took[2];
	/* Of those, the ones that started a timed cycle. */
	unsigned long timed[2];
	unsigned long samples;	/* W/C ratios the policy took */
	unsigned long looks;	/* of MUTEX_SAMPLES samples each */
	unsigned int every;	/* MUTEX_TIME_EVERY */
	unsigned int per_look;	/* MUTEX_SAMPLES */
};

extern __thread struct kmutex_policy_count kmutex_policy_count;

#endif /* _KMUTEX_SRC_POLICY_COUNT_H */
