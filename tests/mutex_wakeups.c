// SPDX-License-Identifier: MIT
/*
 * mutex_wakeups.c - no wake-up is ever lost.
 *
 * Ring: 2 to 16 threads pass the mutex round.  The holder waits until
 * every other thread is queued in mutex_lock, unlocks, and then does not
 * touch the mutex again until another thread has taken it.  So every
 * handoff rests on the one wake-up that unlock sends: if it is lost,
 * nothing else will ever wake a waiter, and the holder notices within a
 * few seconds instead of hanging.  (A lock that drops a wake-up now and
 * then, busted build 2, is caught within the first hundred handoffs.)
 *
 * Crowd: many threads lock and unlock with critical sections that
 * sometimes sleep, so that waiters pile up and are woken while others
 * come and go; the shared counter must equal the sum of the threads'
 * own counts, and every thread must finish (the watchdog turns a waiter
 * that sleeps for ever into a failure).
 */
#include <linux/mutex.h>

#include "harness.h"

/* How long a handoff may take before it counts as lost. */
#define HANDOFF_MS	5000
#define CROWD		16

static DEFINE_MUTEX(lock);

struct ring {
	int n;			/* threads in the ring */
	uint64_t end_ns;	/* stop passing the lock after this */
	int queued;		/* threads in mutex_lock, not yet owners */
	unsigned long gen;	/* acquisitions so far (atomic) */
	long total;		/* acquisitions, counted under the lock */
	int owner;		/* thread id + 1 of the owner, 0 if none */
	int stop;		/* set by an owner: leave the ring */
};

struct ring_thread {
	struct ring *r;
	int id;
	long got;
};

/* Take the lock as one of the queued. */
/*
 * Not checked by clang -Wthread-safety: locks in one function, unlocks in
 * another.
 */
static __no_context_analysis void ring_lock(struct ring_thread *t)
{
	struct ring *r = t->r;

	__atomic_fetch_add(&r->queued, 1, __ATOMIC_SEQ_CST);
	mutex_lock(&lock);
	__atomic_fetch_sub(&r->queued, 1, __ATOMIC_SEQ_CST);
	CHECK_EQ(r->owner, 0);
	r->owner = t->id + 1;
	r->total++;
	t->got++;
	__atomic_fetch_add(&r->gen, 1, __ATOMIC_SEQ_CST);
}

/*
 * Wait until all others are queued.  count < 0 and two waiters on the
 * list show that at least some are in; the yields give the last one
 * time to get from "queued" onto the list (if it has not, the handoff
 * still works, it is merely not a test of the wake-up).
 */
static void ring_wait_for_waiters(struct ring *r)
{
	int i;

	WAIT_UNTIL(__atomic_load_n(&r->queued, __ATOMIC_SEQ_CST) ==
		   r->n - 1 && lock.count < 0 &&
		   test_waiters(&lock.wait_list) >= (r->n > 2 ? 2 : 1),
		   HANDOFF_MS);
	for (i = 0; i < 3 && r->n > 2; i++)
		sched_yield();
}

/*
 * Not checked by clang -Wthread-safety: locks in one function, unlocks in
 * another.
 */
static __no_context_analysis void *ring_thread(void *arg)
{
	struct ring_thread *t = arg;
	struct ring *r = t->r;
	unsigned long gen;

	ring_lock(t);
	for (;;) {
		/*
		 * Three rounds at least, whatever the clock says: under TSan
		 * on one loaded CPU, forming a ring of 16 took 100-150 ms of
		 * a 0.4 s window, and one run made 9 handoffs in a ring of 8,
		 * so "every thread got the lock twice" failed with no lock
		 * at fault.  FIFO hands each thread 3 turns in 3 rounds.
		 */
		if (test_now_ns() >= r->end_ns && r->total >= 3 * r->n)
			r->stop = 1;
		if (r->stop)
			break;
		ring_wait_for_waiters(r);
		gen = __atomic_load_n(&r->gen, __ATOMIC_SEQ_CST);
		r->owner = 0;
		mutex_unlock(&lock);
		/* Only the wake-up just sent can move the ring on. */
		if (!POLL_UNTIL(__atomic_load_n(&r->gen, __ATOMIC_SEQ_CST) !=
				gen, HANDOFF_MS)) {
			fprintf(stderr, "FAIL: ring of %d, handoff %lu: no "
				"waiter got the lock %d ms after unlock: a "
				"lost wake-up\n", r->n, gen, HANDOFF_MS);
			exit(1);
		}
		ring_lock(t);
	}
	/* Leaving: the others, all queued, get it one after the other. */
	r->owner = 0;
	mutex_unlock(&lock);
	return NULL;
}

static long ring(int n, double seconds)
{
	struct ring_thread t[n];
	struct ring r = { .n = n };
	long sum = 0;
	int i;

	r.end_ns = test_now_ns() + test_duration_ns(seconds);
	for (i = 0; i < n; i++)
		t[i] = (struct ring_thread){ .r = &r, .id = i };
	test_run_threads(n, ring_thread, t, sizeof(t[0]));
	for (i = 0; i < n; i++) {
		sum += t[i].got;
		CHECK(t[i].got > 1);
	}
	printf("ring of %2d: %7ld handoffs\n", n, r.total);
	CHECK_EQ(sum, r.total);
	CHECK_EQ(r.gen, r.total);
	CHECK_EQ(lock.count, 1);
	CHECK_EQ(test_waiters(&lock.wait_list), 0);
	return r.total;
}

static uint64_t crowd_end_ns;
static long crowd_total;

static void *crowd_thread(void *arg)
{
	long *got = arg;
	struct timespec nap = { 0, 20000 };

	/* Once at least: a thread may first run after the window closed. */
	while (test_now_ns() < crowd_end_ns || !*got) {
		mutex_lock(&lock);
		long c = crowd_total;

		/* Sleep now and then with the lock held: waiters pile up. */
		if ((*got & 15) == 0)
			nanosleep(&nap, NULL);
		else if ((*got & 3) == 0)
			sched_yield();
		crowd_total = c + 1;
		mutex_unlock(&lock);
		(*got)++;
	}
	return NULL;
}

static void crowd(double seconds)
{
	long got[CROWD] = { 0 }, sum = 0;
	int i;

	crowd_end_ns = test_now_ns() + test_duration_ns(seconds);
	test_run_threads(CROWD, crowd_thread, got, sizeof(got[0]));
	for (i = 0; i < CROWD; i++) {
		sum += got[i];
		CHECK(got[i] > 0);
	}
	printf("crowd of %d: %ld acquisitions\n", CROWD, sum);
	CHECK_EQ(crowd_total, sum);
	CHECK_EQ(lock.count, 1);
}

int main(void)
{
	static const int sizes[] = { 2, 3, 4, 8, 16 };
	long handoffs = 0;
	unsigned int i;

	test_watchdog(30);
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		handoffs += ring(sizes[i], 0.8);
	printf("%ld handoffs in all\n", handoffs);
	crowd(1.5);
	return 0;
}
