// SPDX-License-Identifier: MIT
/*
 * ticks.c - the rate of policy_ticks() (the TSC on x86, cntvct_el0 on
 * aarch64; elsewhere it is now_ns() itself).
 *
 * x86 calibrates against now_ns() from readings made where a clock read
 * costs nothing, a thread that waits for a lock (the mutex's slow path
 * entry, until there is a rate; lock_stat's wait start, until the rate
 * is exact): the first one, then every later one over a longer
 * baseline (1 ms to 1 s for the first rate), until the baseline is
 * 100 ms (about 1e-5 of error from the reads' jitter).  A reading whose
 * two ticks reads, on either side of the clock read, are far apart (a
 * preemption between them) is dropped, and one whose rate disagrees
 * with the one we have (a suspend between the readings) starts over.  aarch64 reads the rate from cntfrq_el0.  Until
 * calibrated: 4 ticks per ns for bounds (ticks_from_ns()), and no
 * conversion (ticks_to_ns() fails: lock_stat reads the clock instead).
 * A fork() while a thread calibrates leaves the child uncalibrated (its
 * busy flag set): harmless, as above.
 */
#include "ticks.h"

#define TICKS_BASE_MIN_NS	1000000ull	/* first rate */
#define TICKS_BASE_MAX_NS	100000000ull	/* then done */
#define TICKS_READ_MAX		4000ull	/* ticks a reading may span */

static struct {
	int busy;		/* a thread is calibrating */
	bool done;
	uint64_t ticks, ns;	/* the first reading */
	uint64_t base;		/* the current rate's baseline, ns */
} cal;

/* 32.32 fixed point: ns per tick (0: none yet), ticks per ns */
static uint64_t ns_per_tick;
static uint64_t ticks_per_ns = POLICY_TICKS_NS ? 1ull << 32 : 4ull << 32;

/* @v * @frac / 2^32, without 128-bit arithmetic (32-bit targets). */
static uint64_t mul_frac(uint64_t v, uint64_t frac)
{
	uint64_t whole = frac >> 32, part = frac & 0xffffffffu;

	return v * whole + (v >> 32) * part +
	       (((v & 0xffffffffu) * part) >> 32);
}

static void ticks_set(uint64_t dticks, uint64_t dns)
{
	/* Calibration only: double keeps the quotients simple. */
	__atomic_store_n(&ns_per_tick, (uint64_t)((double)dns / dticks *
			 4294967296.0), __ATOMIC_RELAXED);
	__atomic_store_n(&ticks_per_ns, (uint64_t)((double)dticks / dns *
			 4294967296.0), __ATOMIC_RELAXED);
}

/* Start again from this reading (keeping the rate, if there is one). */
static void ticks_first(uint64_t ticks, uint64_t ns)
{
	cal.ticks = ticks;
	cal.ns = ns;
	cal.base = 0;
}

/* Whether @dticks in @dns is within 1% of the rate we have. */
static bool ticks_agree(uint64_t dticks, uint64_t dns)
{
	double r = (double)dns / dticks * 4294967296.0 /
		   (double)__atomic_load_n(&ns_per_tick, __ATOMIC_RELAXED);

	return r > 0.99 && r < 1.01;
}

static void ticks_calibrate_clock(void)
{
	uint64_t a = policy_ticks(), ns = now_ns(), b = policy_ticks();
	uint64_t dns;

	if (b - a > TICKS_READ_MAX)
		return;		/* preempted between the reads */
	a += (b - a) / 2;
	if (!cal.ns || a <= cal.ticks) {
		ticks_first(a, ns);	/* the first, or another CPU's count */
		return;
	}
	dns = ns - cal.ns;
	if (dns < TICKS_BASE_MIN_NS || dns <= cal.base)
		return;
	/*
	 * A first rate from a baseline of at most 1 s; a longer one, which
	 * a suspend may have crossed (the TSC may go on where the clock
	 * stops), only if it agrees with the rate we have.
	 */
	if (cal.base ? !ticks_agree(a - cal.ticks, dns) :
	    dns > 10 * TICKS_BASE_MAX_NS) {
		ticks_first(a, ns);
		return;
	}
	cal.base = dns;
	ticks_set(a - cal.ticks, dns);
	if (dns >= TICKS_BASE_MAX_NS)
		__atomic_store_n(&cal.done, true, __ATOMIC_RELAXED);
}

/**
 * ticks_calibrate - take a reading for the rate of policy_ticks()
 * @refine: go on until the rate is exact (lock_stat, which converts
 *	waits with it), not only until there is one (the mutex's bound)
 *
 * Call where a clock read costs nothing: in a wait.  Cheap once done.
 * Not under Valgrind: Helgrind and DRD take the atomics that order the
 * rate's store and its loads for a race.
 */
void ticks_calibrate(bool refine)
{
	if (POLICY_TICKS_NS || vg_running ||
	    __atomic_load_n(&cal.done, __ATOMIC_RELAXED) ||
	    (!refine && __atomic_load_n(&ns_per_tick, __ATOMIC_RELAXED)))
		return;
#if defined(__aarch64__)
	{
		uint64_t hz;

		__asm__ __volatile__("mrs %0, cntfrq_el0" : "=r"(hz));
		if (hz) {
			ticks_set(hz, 1000000000);
			__atomic_store_n(&cal.done, true, __ATOMIC_RELAXED);
			return;
		}
	}
#endif
	if (__atomic_exchange_n(&cal.busy, 1, __ATOMIC_ACQUIRE))
		return;
	ticks_calibrate_clock();
	__atomic_store_n(&cal.busy, 0, __ATOMIC_RELEASE);
}

/**
 * ticks_from_ns - a bound of @ns in ticks
 * @ns: nanoseconds
 *
 * Return: @ns in ticks; until calibrated, at 4 ticks per ns (a bound a
 * few times too long).
 */
uint64_t ticks_from_ns(uint64_t ns)
{
	return mul_frac(ns, __atomic_load_n(&ticks_per_ns, __ATOMIC_RELAXED));
}

/**
 * ticks_to_ns - @ticks in nanoseconds, if the rate is known
 * @ticks: an interval of policy_ticks()
 * @ns: where the result goes
 *
 * Return: false until calibrated (*@ns untouched).
 */
bool ticks_to_ns(uint64_t ticks, uint64_t *ns)
{
	uint64_t m = __atomic_load_n(&ns_per_tick, __ATOMIC_RELAXED);

	if (POLICY_TICKS_NS) {
		*ns = ticks;
		return true;
	}
	if (!m)
		return false;
	*ns = mul_frac(ticks, m);
	return true;
}
