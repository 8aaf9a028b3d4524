// SPDX-License-Identifier: MIT
/*
 * policy_ticks.c - the count the mutex's move-or-keep policy measures
 * with (policy_ticks(), src/cpu.h: the TSC on x86, cntvct_el0 on
 * aarch64, else the monotonic clock) advances at one steady rate.
 *
 * The policy divides two intervals measured in it (W/C) and bounds a
 * cycle with a rate calibrated against clock_gettime() (src/ticks.c,
 * with which lock_stat converts its waits): both are wrong if the count
 * stands still or runs at a rate that changes (a cycle counter that
 * follows the CPU's frequency).  Five intervals of about 10 ms each: every one advanced,
 * and their rates against CLOCK_MONOTONIC agree within 25%.  A reading
 * is a count between two clock reads less than 50 us apart (retried:
 * a preemption between them would skew it).
 */
#include "harness.h"
#include "../src/cpu.h"

#define INTERVALS	5

struct reading {
	uint64_t ns, ticks;
};

static struct reading read_pair(void)
{
	struct reading r;
	int tries;

	for (tries = 0; tries < 1000; tries++) {
		uint64_t a = test_now_ns();

		r.ticks = policy_ticks();
		r.ns = test_now_ns();
		if (r.ns - a < 50000) {
			r.ns = a + (r.ns - a) / 2;
			return r;
		}
	}
	fprintf(stderr, "FAIL: no two clock reads within 50 us in 1000\n");
	exit(1);
}

int main(void)
{
	double rate[INTERVALS], lo, hi;
	struct reading a, b;
	int i;

	test_watchdog(60);
	a = read_pair();
	lo = hi = 0;
	for (i = 0; i < INTERVALS; i++) {
		test_sleep_ms(10);
		b = read_pair();
		CHECK(b.ns > a.ns);
		CHECK(b.ticks > a.ticks);
		rate[i] = (double)(b.ticks - a.ticks) / (double)(b.ns - a.ns);
		printf("interval %d: %.3f ms, %llu ticks, %.4f ticks/ns\n", i,
		       (b.ns - a.ns) / 1e6,
		       (unsigned long long)(b.ticks - a.ticks), rate[i]);
		if (!i || rate[i] < lo)
			lo = rate[i];
		if (!i || rate[i] > hi)
			hi = rate[i];
		a = b;
	}
	printf("rates %.4f-%.4f ticks/ns (POLICY_TICKS_NS %d)\n", lo, hi,
	       POLICY_TICKS_NS);
	CHECK(lo > 0);
	CHECK(hi / lo < 1.25);
	return 0;
}
