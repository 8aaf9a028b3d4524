// SPDX-License-Identifier: MIT
/*
 * c2c.c - where the benchmark ran: the round trip of one cache line
 * between the two CPUs it uses.
 *
 * Two threads, pinned to the first two CPUs this process may run on,
 * pass a counter back and forth on one cache line: "ping" writes an odd
 * value, "pong" answers with the next even one.  Each round trip moves
 * the line to the other CPU and back.  A machine's two CPUs can be near
 * (same L3: ~70-130 ns) or far (separate L3 complexes or sockets:
 * 350-450 ns), and a lock policy tuned on one kind can reverse on the
 * other (issue 10), so every run says which kind it had.
 *
 * Both threads spin with plain loads and no pause, as core-to-core
 * latency tools do: a pause would add its own delay to every hop.  The
 * figure is the median of short samples (the host can slow a vCPU for a
 * few ms), with the fastest beside it.
 */
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "clock.h"

#define C2C_SAMPLES	31
#define C2C_TRIPS	1000		/* round trips per sample */
#define C2C_WARM	200		/* round trips before the samples */
/*
 * c2c_quick(), before every point of the contended and lru workloads:
 * about 1 ms on either kind of pair, thread starts included, and enough
 * to tell ~100 ns from ~400 ns.
 */
#define C2C_QUICK_SAMPLES	5
#define C2C_QUICK_TRIPS		200
#define C2C_QUICK_WARM		50
#define C2C_TIMEOUT_NS	2000000000ull	/* give up: a CPU never ran us */

struct c2c_run {
	unsigned long ball __attribute__((aligned(64)));
	int stop __attribute__((aligned(64)));	/* ping gave up or is done */
	int pinned;				/* pong is on its CPU */
	int cpu[2];
	unsigned int samples, trips, warm;	/* samples <= C2C_SAMPLES */
	const char *why;			/* set by ping on failure */
	double ns[C2C_SAMPLES];
};

bool bench_pin_self(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return !pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

static void *pong_main(void *arg)
{
	struct c2c_run *r = arg;
	unsigned long v;

	if (!bench_pin_self(r->cpu[1])) {
		__atomic_store_n(&r->pinned, -1, __ATOMIC_RELEASE);
		return NULL;
	}
	__atomic_store_n(&r->pinned, 1, __ATOMIC_RELEASE);
	for (;;) {
		while (!((v = __atomic_load_n(&r->ball, __ATOMIC_ACQUIRE)) &
			 1))
			if (__atomic_load_n(&r->stop, __ATOMIC_RELAXED))
				return NULL;
		__atomic_store_n(&r->ball, v + 1, __ATOMIC_RELEASE);
	}
}

/* Wait for pong's answer @want; false past @deadline. */
static bool wait_ball(struct c2c_run *r, unsigned long want,
		      uint64_t deadline)
{
	unsigned int spins = 0;

	while (__atomic_load_n(&r->ball, __ATOMIC_ACQUIRE) != want)
		if (!(++spins & 0xffff) && now_ns() > deadline)
			return false;
	return true;
}

/* @n round trips from ball value @v; false on timeout. */
static bool trips(struct c2c_run *r, unsigned long *v, unsigned int n,
		  uint64_t deadline)
{
	while (n--) {
		__atomic_store_n(&r->ball, *v + 1, __ATOMIC_RELEASE);
		*v += 2;
		if (!wait_ball(r, *v, deadline))
			return false;
	}
	return true;
}

static void *ping_main(void *arg)
{
	struct c2c_run *r = arg;
	uint64_t deadline = now_ns() + C2C_TIMEOUT_NS;
	unsigned long v = 0;
	unsigned int s;
	int p;

	if (!bench_pin_self(r->cpu[0])) {
		r->why = "cannot pin a thread to the first CPU";
		return NULL;
	}
	while (!(p = __atomic_load_n(&r->pinned, __ATOMIC_ACQUIRE)))
		if (now_ns() > deadline)
			break;
	if (p != 1) {
		r->why = "cannot pin a thread to the second CPU";
		return NULL;
	}
	if (!trips(r, &v, r->warm, deadline)) {
		r->why = "timed out: the second CPU did not answer";
		return NULL;
	}
	for (s = 0; s < r->samples; s++) {
		uint64_t t0 = now_ns();

		if (!trips(r, &v, r->trips, deadline)) {
			r->why = "timed out: the second CPU did not answer";
			return NULL;
		}
		r->ns[s] = (double)(now_ns() - t0) / r->trips;
	}
	return NULL;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The first two CPUs in this process's affinity mask; false if fewer. */
static bool pick_cpus(int cpu[2])
{
	cpu_set_t set;
	int i, n = 0;

	if (sched_getaffinity(0, sizeof(set), &set))
		return false;
	for (i = 0; i < CPU_SETSIZE && n < 2; i++)
		if (CPU_ISSET(i, &set))
			cpu[n++] = i;
	return n == 2;
}

static void c2c_run(struct c2c *c, unsigned int samples, unsigned int nr,
		    unsigned int warm)
{
	struct c2c_run *r;
	pthread_t ping, pong;

	memset(c, 0, sizeof(*c));
	c->rtt_ns = c->min_ns = c->max_ns = NAN;
	c->cpu[0] = c->cpu[1] = -1;
	if (!pick_cpus(c->cpu)) {
		c->cpu[0] = c->cpu[1] = -1;
		c->why = "one CPU";
		return;
	}
	r = aligned_alloc(64, sizeof(*r));
	if (!r) {
		c->why = "out of memory";
		return;
	}
	memset(r, 0, sizeof(*r));
	r->cpu[0] = c->cpu[0];
	r->cpu[1] = c->cpu[1];
	r->samples = samples;
	r->trips = nr;
	r->warm = warm;
	if (pthread_create(&pong, NULL, pong_main, r)) {
		c->why = "cannot start a thread";
		free(r);
		return;
	}
	if (pthread_create(&ping, NULL, ping_main, r)) {
		r->why = "cannot start a thread";
	} else {
		pthread_join(ping, NULL);
	}
	__atomic_store_n(&r->stop, 1, __ATOMIC_RELAXED);
	pthread_join(pong, NULL);
	c->why = r->why;
	if (!c->why) {
		qsort(r->ns, samples, sizeof(double), cmp_double);
		c->samples = samples;
		c->trips = nr;
		c->rtt_ns = r->ns[samples / 2];
		c->min_ns = r->ns[0];
		c->max_ns = r->ns[samples - 1];
	}
	free(r);
}

void c2c_measure(struct c2c *c)
{
	c2c_run(c, C2C_SAMPLES, C2C_TRIPS, C2C_WARM);
}

/*
 * KMUTEX_BENCH_FAKE_PAIRS=nnff (say): instead of measuring, c2c_quick()
 * answers near (100 ns) for an 'n', far (400 ns) for anything else, in
 * turn, for tests of the tables' split by kind (tests/bench_smoke.sh).
 */
const char *c2c_fake;

static bool c2c_faked(struct c2c *c)
{
	static unsigned int k;
	size_t n;

	if (!c2c_fake)
		c2c_fake = getenv("KMUTEX_BENCH_FAKE_PAIRS");
	n = c2c_fake ? strlen(c2c_fake) : 0;
	if (!n)
		return false;
	memset(c, 0, sizeof(*c));
	c->cpu[1] = 1;
	c->samples = 1;
	c->rtt_ns = c2c_fake[k++ % n] == 'n' ? 100 : 400;
	c->min_ns = c->max_ns = c->rtt_ns;
	return true;
}

void c2c_quick(struct c2c *c)
{
	if (!c2c_faked(c))
		c2c_run(c, C2C_QUICK_SAMPLES, C2C_QUICK_TRIPS, C2C_QUICK_WARM);
}

const char *c2c_label(const struct c2c *c)
{
	if (c->why || isnan(c->rtt_ns))
		return "n/a";
	return c->rtt_ns < C2C_NEAR_NS ? "near" : "far";
}
