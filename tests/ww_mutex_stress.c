// SPDX-License-Identifier: MIT
/*
 * ww_mutex_stress - 6 threads on 2 CPUs each lock random overlapping
 * sets of 3-5 of 8 ww_mutexes, in random order, in sorted order, and
 * one at a time with the set growing, with the kernel's backoff loop
 * (on -EDEADLK: unlock all, ww_mutex_lock_slow() the contended one,
 * start again), for both classes.  Checked: mutual exclusion (each
 * lock's owner word), that every transaction ends (a stall of the total
 * count fails the test long before the watchdog), and that no call
 * returns anything but 0 or -EDEADLK.  It must fail against the broken
 * builds 5 (a second owner) and 6 (nobody backs off: deadlock).
 */
#include <linux/ww_mutex.h>

#include "harness.h"

#define NLOCKS		8
#define NTHREADS	6

static DEFINE_WW_CLASS(ww_class);
static DEFINE_WD_CLASS(wd_class);

static struct ww_mutex locks[NLOCKS];
static int owner[NLOCKS];		/* thread number + 1 while held */
static struct ww_class *cls;
static int mode;			/* 0 random, 1 sorted, 2 one at a time */
static uint64_t deadline;
static unsigned long total, backoffs;
static int stop, running;

static unsigned int rnd(unsigned int *s)
{
	*s = *s * 1103515245u + 12345u;
	return *s >> 16;
}

/* k distinct locks in random order (or sorted, in mode 1). */
static int pick(unsigned int *seed, int *set)
{
	int k = 3 + (int)(rnd(seed) % 3), n = 0, i, j;

	while (n < k) {
		int x = (int)(rnd(seed) % NLOCKS);

		for (i = 0; i < n && set[i] != x; i++)
			;
		if (i == n)
			set[n++] = x;
	}
	if (mode == 1)
		for (i = 1; i < n; i++)
			for (j = i; j > 0 && set[j - 1] > set[j]; j--) {
				int t = set[j];

				set[j] = set[j - 1];
				set[j - 1] = t;
			}
	return n;
}

static void hold(int me, int x)
{
	int prev = __atomic_exchange_n(&owner[x], me, __ATOMIC_RELAXED);

	if (prev) {
		fprintf(stderr, "FAIL: lock %d held by threads %d and %d\n",
			x, prev - 1, me - 1);
		exit(1);
	}
}

static void release(int me, int x)
{
	CHECK_EQ(__atomic_exchange_n(&owner[x], 0, __ATOMIC_RELAXED), me);
	ww_mutex_unlock(&locks[x]);
}

static void transaction(int me, unsigned int *seed)
{
	struct ww_acquire_ctx ctx;
	int set[5], held[5], n, nheld = 0, i, ret, slow = -1;

	n = pick(seed, set);
	ww_acquire_init(&ctx, cls);
retry:
	for (i = 0; i < n; i++) {
		int x = set[i];

		if (x == slow) {
			slow = -1;	/* taken by ww_mutex_lock_slow() */
			continue;
		}
		ret = ww_mutex_lock(&locks[x], &ctx);
		if (ret == -EDEADLK) {
			while (nheld)
				release(me, held[--nheld]);
			__atomic_add_fetch(&backoffs, 1, __ATOMIC_RELAXED);
			ww_mutex_lock_slow(&locks[x], &ctx);
			hold(me, x);
			held[nheld++] = x;
			slow = x;
			goto retry;
		}
		CHECK_EQ(ret, 0);
		hold(me, x);
		held[nheld++] = x;
		if (mode == 2)
			sched_yield();	/* let the set grow slowly */
	}
	ww_acquire_done(&ctx);
	for (i = 0; i < 50; i++)	/* a short critical section */
		for (int j = 0; j < nheld; j++)
			CHECK_EQ(__atomic_load_n(&owner[held[j]],
						 __ATOMIC_RELAXED), me);
	while (nheld)
		release(me, held[--nheld]);
	ww_acquire_fini(&ctx);
}

static void *worker(void *arg)
{
	int me = (int)(intptr_t)arg + 1;
	unsigned int seed = (unsigned int)me * 7919u;

	/* One transaction at least, however late the thread starts. */
	do {
		transaction(me, &seed);
		__atomic_add_fetch(&total, 1, __ATOMIC_RELAXED);
	} while (!__atomic_load_n(&stop, __ATOMIC_RELAXED));
	__atomic_sub_fetch(&running, 1, __ATOMIC_RELAXED);
	return NULL;
}

static void run(struct ww_class *c, int m, double seconds)
{
	pthread_t t[NTHREADS];
	unsigned long last = 0, now;
	uint64_t last_change;
	int i;

	for (i = 0; i < NLOCKS; i++)
		ww_mutex_init(&locks[i], c);
	cls = c;
	mode = m;
	total = backoffs = 0;
	stop = 0;
	running = NTHREADS;
	for (i = 0; i < NTHREADS; i++)
		CHECK(pthread_create(&t[i], NULL, worker,
				     (void *)(intptr_t)i) == 0);
	/* From when all exist: creating them is slow under TSan. */
	deadline = test_now_ns() + test_duration_ns(seconds);
	last_change = test_now_ns();
	while (__atomic_load_n(&running, __ATOMIC_RELAXED)) {
		if (test_now_ns() >= deadline)
			__atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
		test_sleep_ms(20);
		now = __atomic_load_n(&total, __ATOMIC_RELAXED);
		if (now != last) {
			last = now;
			last_change = test_now_ns();
		} else if (test_now_ns() - last_change > 5000000000ull) {
			fprintf(stderr, "FAIL: %s class, mode %d: no "
				"transaction ended for 5 s (deadlock)\n",
				c->is_wait_die ? "wait-die" : "wound-wait", m);
			exit(1);
		}
	}
	for (i = 0; i < NTHREADS; i++)
		pthread_join(t[i], NULL);
	for (i = 0; i < NLOCKS; i++) {
		CHECK(!ww_mutex_is_locked(&locks[i]));
		ww_mutex_destroy(&locks[i]);
	}
	printf("%s, %s: %lu transactions, %lu backoffs\n",
	       c->is_wait_die ? "wait-die" : "wound-wait",
	       m == 0 ? "random order" : m == 1 ? "sorted" : "one at a time",
	       total, backoffs);
	fflush(stdout);
	CHECK(total >= NTHREADS);
}

int main(void)
{
	int m;

	test_watchdog(120);
	for (m = 0; m < 3; m++) {
		run(&wd_class, m, 0.4);
		run(&ww_class, m, 0.4);
	}
	return 0;
}
