// SPDX-License-Identifier: MIT
/*
 * mutex_interruptible.c - mutex_lock_interruptible and
 * mutex_lock_killable: 0 with the lock held, or -EINTR without it when a
 * signal handler runs in the waiting thread, whether or not the handler
 * was installed with SA_RESTART.
 *
 * An interrupted waiter must leave the wait list cleanly: the count is
 * consistent afterwards and the waiters queued behind it still get the
 * lock.  The hardest case is a waiter signalled at the very moment the
 * unlock wakes it: it may return either 0 or -EINTR, but if it gives up,
 * the wake-up meant for it must pass on to the next waiter.
 */
#include <linux/mutex.h>

#include "harness.h"

/* Generous bound on anything that should happen "at once". */
#define PROMPT_MS	5000

enum how { PLAIN, INTERRUPTIBLE, KILLABLE };

static const char *const how_name[] = {
	[PLAIN] = "mutex_lock",
	[INTERRUPTIBLE] = "mutex_lock_interruptible",
	[KILLABLE] = "mutex_lock_killable",
};

static DEFINE_MUTEX(lock);
static int signals;		/* handler runs, all threads */
static int inside;		/* owners inside the lock: 0 or 1 */

struct waiter {
	pthread_t thread;
	enum how how;
	pid_t tid;
	int ret;
	int handled;		/* signals counted when it returned */
	int owned;		/* it ran a critical section */
	int done;
};

/*
 * While @gate is set, the handler stops until it is cleared: the waiter
 * is then held between "its futex wait returned EINTR" and "it leaves
 * the wait list", so that the unlock can be made to land exactly there.
 */
static int gate;

static void handler(int sig)
{
	(void)sig;
	__atomic_fetch_add(&signals, 1, __ATOMIC_SEQ_CST);
	while (__atomic_load_n(&gate, __ATOMIC_ACQUIRE))
		sched_yield();
}

/* With the lock held: alone inside, for a moment. */
static void critical_section(void)
{
	CHECK_EQ(__atomic_fetch_add(&inside, 1, __ATOMIC_SEQ_CST), 0);
	CHECK(mutex_is_locked(&lock));
	sched_yield();
	CHECK_EQ(__atomic_fetch_sub(&inside, 1, __ATOMIC_SEQ_CST), 1);
}

/*
 * Not checked by clang -Wthread-safety: lock results kept in a variable
 * set in a switch, which the analysis cannot read.
 */
static __no_context_analysis void *waiter_thread(void *arg)
{
	struct waiter *w = arg;
	int ret = 0;

	__atomic_store_n(&w->tid, test_gettid(), __ATOMIC_RELEASE);
	switch (w->how) {
	case PLAIN:
		mutex_lock(&lock);
		break;
	case INTERRUPTIBLE:
		ret = mutex_lock_interruptible(&lock);
		break;
	case KILLABLE:
		ret = mutex_lock_killable(&lock);
		break;
	}
	w->handled = __atomic_load_n(&signals, __ATOMIC_SEQ_CST);
	w->ret = ret;
	if (ret == 0) {
		critical_section();
		w->owned = 1;
		mutex_unlock(&lock);
	}
	__atomic_store_n(&w->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

static void start(struct waiter *w, enum how how)
{
	*w = (struct waiter){ .how = how };
	CHECK(pthread_create(&w->thread, NULL, waiter_thread, w) == 0);
}

/* Wait until @w is asleep on the wait list, behind @ahead others. */
static void wait_queued(struct waiter *w, int ahead)
{
	WAIT_UNTIL(__atomic_load_n(&w->tid, __ATOMIC_ACQUIRE), PROMPT_MS);
	WAIT_UNTIL(test_waiters(&lock.wait_list) > ahead, PROMPT_MS);
	WAIT_UNTIL(test_thread_state(w->tid) == 'S', PROMPT_MS);
	CHECK(lock.count < 0);
}

static void finish(struct waiter *w)
{
	if (!POLL_UNTIL(__atomic_load_n(&w->done, __ATOMIC_ACQUIRE),
			PROMPT_MS)) {
		fprintf(stderr, "FAIL: %s did not return within %d ms of the "
			"lock becoming free\n", how_name[w->how], PROMPT_MS);
		exit(1);
	}
	CHECK(pthread_join(w->thread, NULL) == 0);
}

/*
 * Signal @w until it returns.  A signal that lands before the thread is
 * inside its futex wait runs the handler without interrupting the wait
 * (nothing in userspace can see it), hence the retries.
 */
static void interrupt(struct waiter *w)
{
	uint64_t end = test_now_ns() + PROMPT_MS * 1000000ull;

	do {
		CHECK(pthread_kill(w->thread, SIGUSR1) == 0);
		if (POLL_UNTIL(__atomic_load_n(&w->done, __ATOMIC_ACQUIRE),
			       10))
			break;
	} while (test_now_ns() < end);
	finish(w);
}

static void check_free_lock(void)
{
	CHECK_EQ(lock.count, 1);
	CHECK_EQ(test_waiters(&lock.wait_list), 0);
	CHECK_EQ(inside, 0);
}

/* A free lock is simply taken, and a lock released while waiting too. */
static void check_gets_lock(enum how how)
{
	struct waiter w;

	start(&w, how);
	finish(&w);
	CHECK_EQ(w.ret, 0);
	CHECK(w.owned);
	check_free_lock();

	mutex_lock(&lock);
	start(&w, how);
	wait_queued(&w, 0);
	mutex_unlock(&lock);
	finish(&w);
	CHECK_EQ(w.ret, 0);
	CHECK(w.owned);
	check_free_lock();
}

/*
 * Holder H (this thread), W1 interrupted, W2 queued behind it with plain
 * mutex_lock: W1 gets -EINTR without the lock, the count still says
 * "held", and W2 gets the lock when H unlocks.
 */
static void check_interrupted(enum how how, int flags)
{
	struct waiter w1, w2;
	int before;

	test_handle_signal(SIGUSR1, handler, flags);
	mutex_lock(&lock);
	start(&w1, how);
	wait_queued(&w1, 0);
	start(&w2, PLAIN);
	wait_queued(&w2, 1);

	before = __atomic_load_n(&signals, __ATOMIC_SEQ_CST);
	interrupt(&w1);
	if (w1.ret != -EINTR)
		fprintf(stderr, "%s, handler flags %#x: returned %d\n",
			how_name[how], flags, w1.ret);
	CHECK_EQ(w1.ret, -EINTR);
	CHECK(!w1.owned);
	CHECK(w1.handled > before);
	CHECK(lock.count <= 0);		/* still held, by this thread */
	CHECK(mutex_is_locked(&lock));
	CHECK_EQ(test_waiters(&lock.wait_list), 1);	/* W2 only */
	CHECK(!__atomic_load_n(&w2.done, __ATOMIC_ACQUIRE));

	mutex_unlock(&lock);
	finish(&w2);
	CHECK_EQ(w2.ret, 0);
	CHECK(w2.owned);
	check_free_lock();
}

/* The signaller of the race: waits for the start, then signals W. */
struct racer {
	pthread_t thread;
	struct waiter *w;
	int go;
	unsigned int delay;
};

static void spin(unsigned int n)
{
	while (n--)
		__asm__ __volatile__("" ::: "memory");
}

static void *racer_thread(void *arg)
{
	struct racer *r = arg;

	while (!__atomic_load_n(&r->go, __ATOMIC_ACQUIRE))
		sched_yield();
	spin(r->delay);
	CHECK(pthread_kill(r->w->thread, SIGUSR1) == 0);
	return NULL;
}

enum race_mode {
	RACE_RESTART = 1,	/* handler installed with SA_RESTART */
	RACE_KILLABLE = 2,	/* W uses mutex_lock_killable */
	RACE_BARGE = 4,		/* the holder re-takes the lock at once */
	RACE_GATED = 8,		/* W is held in its handler (see gate) */
};

/*
 * Holder H (this thread) and, queued behind it in this order, W (which
 * the race will signal) and T (plain mutex_lock).
 */
/*
 * Not checked by clang -Wthread-safety: locks in one function, unlocks in
 * another.
 */
static __no_context_analysis void
race_setup(int mode, struct waiter *w, struct waiter *t)
{
	test_handle_signal(SIGUSR1, handler,
			   mode & RACE_RESTART ? SA_RESTART : 0);
	mutex_lock(&lock);
	start(w, mode & RACE_KILLABLE ? KILLABLE : INTERRUPTIBLE);
	wait_queued(w, 0);
	start(t, PLAIN);
	wait_queued(t, 1);
}

/*
 * Unlock; in RACE_BARGE take the lock back at once, as a running thread
 * may, before W or T can, and let it go after W has returned.  A waiter
 * that gives up while the lock is held so must leave the count saying
 * "waiters", or that last unlock is a fast one that wakes nobody.
 */
/*
 * Not checked by clang -Wthread-safety: locks in one function, unlocks in
 * another.
 */
static __no_context_analysis void
race_unlock(int mode, struct waiter *w, unsigned int hold)
{
	mutex_unlock(&lock);
	if (mode & RACE_BARGE) {
		mutex_lock(&lock);
		if (mode & RACE_GATED) {
			__atomic_store_n(&gate, 0, __ATOMIC_RELEASE);
			WAIT_UNTIL(__atomic_load_n(&w->done, __ATOMIC_ACQUIRE),
				   PROMPT_MS);
		}
		spin(hold);
		mutex_unlock(&lock);
	}
}

/* Whatever W got, T must get the lock after it. */
static int race_check(int mode, struct waiter *w, struct waiter *t)
{
	enum how how = w->how;

	finish(w);
	if (w->ret != 0 && w->ret != -EINTR) {
		fprintf(stderr, "%s returned %d\n", how_name[how], w->ret);
		exit(1);
	}
	CHECK_EQ(w->owned, w->ret == 0);
	if (!POLL_UNTIL(__atomic_load_n(&t->done, __ATOMIC_ACQUIRE),
			PROMPT_MS)) {
		fprintf(stderr, "FAIL: race mode %d: %s returned %d, and the "
			"waiter queued behind it never got the lock: a "
			"swallowed wake-up\n", mode, how_name[how], w->ret);
		exit(1);
	}
	finish(t);
	CHECK(t->owned);
	check_free_lock();
	return w->ret;
}

/*
 * The deterministic form of the race: W's futex wait has already ended
 * with EINTR (W is in its handler, held there by the gate) when the
 * unlock wakes it.  The unlock frees the lock and marks W woken, but W
 * gives up: the wake-up must go on to T.  With RACE_BARGE the holder has
 * taken the lock back before W leaves, so W must instead make sure the
 * holder's next unlock wakes T.
 */
static void race_gated(int mode)
{
	struct waiter w, t;
	int before;

	mode |= RACE_GATED;
	race_setup(mode, &w, &t);
	before = __atomic_load_n(&signals, __ATOMIC_SEQ_CST);
	__atomic_store_n(&gate, 1, __ATOMIC_RELEASE);
	CHECK(pthread_kill(w.thread, SIGUSR1) == 0);
	WAIT_UNTIL(__atomic_load_n(&signals, __ATOMIC_SEQ_CST) != before,
		   PROMPT_MS);
	race_unlock(mode, &w, 0);
	__atomic_store_n(&gate, 0, __ATOMIC_RELEASE);
	CHECK_EQ(race_check(mode, &w, &t), -EINTR);
}

/*
 * One free-running round: the unlock and a signal to W (from another
 * thread, after @kill_delay, while this one waits @unlock_delay) land
 * together.  W may return 0 (and own the lock for a moment) or -EINTR
 * (and not own it); either way T must then get the lock.
 */
static int race_once(int mode, unsigned int unlock_delay,
		     unsigned int kill_delay)
{
	struct waiter w, t;
	struct racer r;
	unsigned int i;

	race_setup(mode, &w, &t);
	r = (struct racer){ .w = &w, .delay = kill_delay };
	CHECK(pthread_create(&r.thread, NULL, racer_thread, &r) == 0);
	__atomic_store_n(&r.go, 1, __ATOMIC_RELEASE);
	/* On one CPU the others run only when this thread yields. */
	for (i = 0; i < (unlock_delay & 3); i++)
		sched_yield();
	spin(unlock_delay);
	race_unlock(mode, &w, kill_delay);
	CHECK(pthread_join(r.thread, NULL) == 0);
	return race_check(mode, &w, &t);
}

/* Adapt a delay by a sixteenth, at least 64 spins, within 2^20. */
static long adapt(long x, bool up)
{
	long step = (x < 0 ? -x : x) / 16;

	x += (up ? 1 : -1) * (step > 64 ? step : 64);
	return x > 1 << 20 ? 1 << 20 : x < -(1 << 20) ? -(1 << 20) : x;
}

/*
 * Which of the two wins depends on the machine, so the delays adapt: each
 * round that W got the lock moves the unlock a little later, each round
 * it was interrupted earlier, so that the rounds keep landing near the
 * boundary where both happen together, with some jitter around it.  The
 * round number picks the mode, so every combination comes round.
 */
static void race(double seconds)
{
	uint64_t end = test_now_ns() + test_duration_ns(seconds);
	long rounds = 0, intr = 0, bias = 0;
	unsigned int seed = 1;

	while (test_now_ns() < end || rounds < 1000) {
		int mode = rounds & 7, ret;
		unsigned int jitter_u, jitter_k;

		seed = seed * 1103515245u + 12345u;
		jitter_u = seed >> 16 & 511;
		jitter_k = seed >> 7 & 511;
		ret = race_once(mode, (bias > 0 ? bias : 0) + jitter_u,
				(bias < 0 ? -bias : 0) + jitter_k);
		bias = adapt(bias, ret == 0);
		intr += ret == -EINTR;
		rounds++;
	}
	printf("race: %ld rounds, %ld interrupted, %ld got the lock\n",
	       rounds, intr, rounds - intr);
}

int main(void)
{
	int i;

	test_watchdog(60);
	test_handle_signal(SIGUSR1, handler, 0);

	check_gets_lock(INTERRUPTIBLE);
	check_gets_lock(KILLABLE);

	check_interrupted(INTERRUPTIBLE, 0);
	check_interrupted(INTERRUPTIBLE, SA_RESTART);
	check_interrupted(KILLABLE, 0);
	check_interrupted(KILLABLE, SA_RESTART);

	for (i = 0; i < 200; i++)
		race_gated(i & (RACE_RESTART | RACE_KILLABLE | RACE_BARGE));
	race(2);
	check_free_lock();
	return 0;
}
