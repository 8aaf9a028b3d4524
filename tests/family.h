/* SPDX-License-Identifier: MIT */
/*
 * family.h - helpers shared by the tests of the mutex's family: struct
 * semaphore, struct rw_semaphore and struct completion.
 *
 * The pattern they all need: a thread makes one blocking call (down(),
 * down_write_killable(), wait_for_completion_timeout() ...), the test
 * waits until that thread is asleep on the primitive's wait list, then
 * does something to it (releases, signals it, lets it time out) and
 * looks at what the call returned and how long it took.
 */
#ifndef _KMUTEX_TESTS_FAMILY_H
#define _KMUTEX_TESTS_FAMILY_H

#include "harness.h"
#include "../src/futex.h"

/* Generous bound on anything that should happen "at once". */
#define PROMPT_MS	5000

/*
 * A wait list with the lock that guards it (FAM_LIST(&sem), any of the
 * family and the mutex: each has wait_lock and wait_list).
 */
struct fam_list {
	int *wl;
	struct kmutex_list *head;
};

#define FAM_LIST(obj) \
	((struct fam_list){ &(obj)->wait_lock, &(obj)->wait_list })

/*
 * A list's wait_lock, taken as the library takes it (src/wait_lock.h: 0
 * free, 1 held, 2 held with sleepers, Drepper's "Futexes Are Tricky"
 * mutex #3), whose internal functions the archive does not export.
 */
static inline void fam_wait_lock(int *wl)
{
	int free = 0;

	if (__atomic_compare_exchange_n(wl, &free, 1, false, __ATOMIC_ACQUIRE,
					__ATOMIC_RELAXED))
		return;
	while (__atomic_exchange_n(wl, 2, __ATOMIC_ACQUIRE) != 0)
		futex_wait(wl, 2);
}

static inline void fam_wait_unlock(int *wl)
{
	if (__atomic_exchange_n(wl, 0, __ATOMIC_RELEASE) == 2)
		futex_wake(wl, 1);
}

/*
 * Length of a kmutex wait list, walked under its wait_lock: the nodes
 * live on the waiters' stacks, and one that has just left may already
 * be written over by its thread's next call (found by CI: a walk
 * without the lock followed such a node into unmapped memory, a rare
 * SIGSEGV of stress_completion_rounds).  With this thread's signals
 * blocked: a handler here that up()s or complete()s the object would
 * wait for the lock its own thread holds.  Exact once every waiter on
 * the list is asleep; for polling before that (a poll may make a
 * racing thread sleep on the lock a moment: the races stay races).
 */
static inline int fam_queued(struct fam_list l)
{
	struct kmutex_list *p;
	sigset_t all, old;
	int n = 0;

	sigfillset(&all);
	CHECK(pthread_sigmask(SIG_BLOCK, &all, &old) == 0);
	fam_wait_lock(l.wl);
	TEST_IGNORE_READS_BEGIN();	/* see harness.h */
	for (p = l.head->next; p != l.head; p = p->next)
		n++;
	TEST_IGNORE_READS_END();
	fam_wait_unlock(l.wl);
	CHECK(pthread_sigmask(SIG_SETMASK, &old, NULL) == 0);
	return n;
}

/* Signal handler runs, all threads: the handler only counts ... */
static int fam_signals;
/* ... unless fam_interrupt_during() asks it to hold on a moment. */
static int fam_handler_hold, fam_handler_in, fam_handler_release;

static inline uint64_t fam_now_ns(void)	/* async-signal-safe */
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static inline void fam_on_signal(int sig)
{
	uint64_t end;

	(void)sig;
	__atomic_fetch_add(&fam_signals, 1, __ATOMIC_SEQ_CST);
	if (!__atomic_load_n(&fam_handler_hold, __ATOMIC_SEQ_CST))
		return;
	__atomic_store_n(&fam_handler_in, 1, __ATOMIC_SEQ_CST);
	end = fam_now_ns() + PROMPT_MS * 1000000ull;
	while (!__atomic_load_n(&fam_handler_release, __ATOMIC_SEQ_CST) &&
	       fam_now_ns() < end)
		;
	__atomic_store_n(&fam_handler_in, 0, __ATOMIC_SEQ_CST);
}

/* Count SIGUSR1 handler runs; @flags is 0 or SA_RESTART. */
static inline void fam_handle_sigusr1(int flags)
{
	test_handle_signal(SIGUSR1, fam_on_signal, flags);
}

static inline int fam_signal_count(void)
{
	return __atomic_load_n(&fam_signals, __ATOMIC_SEQ_CST);
}

/*
 * Can the case named @what signal a thread asleep in the library's
 * futex(2) wait and see the handler run there?  Not under TSan (make
 * test-tsan): its own handler takes the signal and defers the test's to
 * the thread's next intercepted call, which a raw futex(2) is not, so
 * the wait goes on (SA_RESTART, or a wait that is not interruptible)
 * or ends before the handler ran (see signal_restart in tests/run).
 * There the case is left out, with a "SKIP: @what: why" line, and the
 * rest of the test runs.
 */
static inline bool fam_signals_reach_sleepers(const char *what)
{
#ifdef KMUTEX_TSAN
	printf("SKIP: %s: under TSan a handler does not run while its "
	       "thread sleeps in futex(2)\n", what);
	return false;
#else
	(void)what;
	return true;
#endif
}

/* One blocking call made by a thread of its own. */
struct fam_call {
	long (*fn)(struct fam_call *c);	/* the call; its result is ret */
	void *obj;			/* the primitive it works on */
	long arg;			/* e.g. a timeout in jiffies */
	int id;				/* free for the test */
	pthread_t thread;
	pid_t tid;
	int started;			/* about to make the call */
	int done;			/* the call returned */
	long ret;
	uint64_t t0, t1;		/* test_now_ns() around the call */
	int signals;			/* fam_signals when it returned */
	void (*after)(struct fam_call *c);	/* run after, if set */
};

static inline void *fam_call_thread(void *arg)
{
	struct fam_call *c = arg;

	c->tid = test_gettid();
	c->t0 = test_now_ns();
	__atomic_store_n(&c->started, 1, __ATOMIC_SEQ_CST);
	c->ret = c->fn(c);
	c->t1 = test_now_ns();
	c->signals = fam_signal_count();
	if (c->after)
		c->after(c);
	__atomic_store_n(&c->done, 1, __ATOMIC_SEQ_CST);
	return NULL;
}

static inline void fam_start(struct fam_call *c, long (*fn)(struct fam_call *),
			     void *obj, long arg)
{
	*c = (struct fam_call){ .fn = fn, .obj = obj, .arg = arg };
	CHECK(pthread_create(&c->thread, NULL, fam_call_thread, c) == 0);
}

static inline bool fam_done(struct fam_call *c)
{
	return __atomic_load_n(&c->done, __ATOMIC_SEQ_CST);
}

/*
 * Wait until @c is asleep with at least @n waiters on @l.  The thread
 * state alone could be a sleep on the internal wait_lock, and the list
 * alone could hold someone else: both together mean it is queued.
 */
static inline void fam_wait_queued(struct fam_call *c, struct fam_list l,
				   int n)
{
	WAIT_UNTIL(__atomic_load_n(&c->started, __ATOMIC_SEQ_CST), PROMPT_MS);
	WAIT_UNTIL(fam_queued(l) >= n && (fam_done(c) ||
		   test_thread_state(c->tid) == 'S'), PROMPT_MS);
	CHECK(!fam_done(c));
}

/* Wait (at most PROMPT_MS) for @c to return, then reap it: its ret. */
static inline long fam_join(struct fam_call *c)
{
	if (!POLL_UNTIL(fam_done(c), PROMPT_MS)) {
		fprintf(stderr, "FAIL: call %d did not return within %d ms: "
			"a lost wake-up?\n", c->id, PROMPT_MS);
		exit(1);
	}
	CHECK(pthread_join(c->thread, NULL) == 0);
	return c->ret;
}

/*
 * Signal @c's thread until its call returns.  A signal that lands before
 * the thread is inside its futex wait runs the handler without ending
 * the wait (nothing in userspace can see it), hence the retries.
 */
static inline void fam_interrupt(struct fam_call *c)
{
	uint64_t end = test_now_ns() + PROMPT_MS * 1000000ull;

	while (!fam_done(c)) {
		if (test_now_ns() > end) {
			fprintf(stderr, "FAIL: call %d still blocked %d ms "
				"into being signalled\n", c->id, PROMPT_MS);
			exit(1);
		}
		CHECK(pthread_kill(c->thread, SIGUSR1) == 0);
		POLL_UNTIL(fam_done(c), 10);
	}
}

/*
 * Signal @c's thread, asleep in its call, and run @fn(@arg) while the
 * handler runs.  The handler runs after the kernel has taken the thread
 * off its futex and before the call sees -EINTR, that is, between the
 * wake-up and the call's re-check of the wait list under its lock: what
 * @fn does (a release, a complete()) lands in that window every time,
 * instead of once in a thousand tries.  The handler is made to wait
 * until @fn has returned.
 */
static inline void fam_interrupt_during(struct fam_call *c,
					void (*fn)(void *), void *arg)
{
	__atomic_store_n(&fam_handler_release, 0, __ATOMIC_SEQ_CST);
	__atomic_store_n(&fam_handler_in, 0, __ATOMIC_SEQ_CST);
	__atomic_store_n(&fam_handler_hold, 1, __ATOMIC_SEQ_CST);
	CHECK(pthread_kill(c->thread, SIGUSR1) == 0);
	WAIT_UNTIL(__atomic_load_n(&fam_handler_in, __ATOMIC_SEQ_CST),
		   PROMPT_MS);
	fn(arg);
	__atomic_store_n(&fam_handler_release, 1, __ATOMIC_SEQ_CST);
	WAIT_UNTIL(!__atomic_load_n(&fam_handler_in, __ATOMIC_SEQ_CST),
		   PROMPT_MS);
	__atomic_store_n(&fam_handler_hold, 0, __ATOMIC_SEQ_CST);
}

/*
 * Signal @c's thread @n times, 5 ms apart, and wait until the handler
 * has run (at least once: a signal sent while the same one is still
 * pending is merged with it), or the call has returned.
 */
static inline void fam_signal(struct fam_call *c, int n)
{
	int before = fam_signal_count(), i;

	for (i = 0; i < n && !fam_done(c); i++) {
		CHECK(pthread_kill(c->thread, SIGUSR1) == 0);
		test_sleep_ms(5);
	}
	WAIT_UNTIL(fam_signal_count() > before || fam_done(c), PROMPT_MS);
}

/*
 * The same, for a call that must not be ended by signals and has no
 * timeout: it must still be blocked afterwards.
 */
static inline void fam_signal_harmlessly(struct fam_call *c, int n)
{
	fam_signal(c, n);
	test_sleep_ms(20);
	CHECK(!fam_done(c));
}

/*
 * A run lasts @seconds (scaled) from fam_start_clock(), called once all
 * its threads are created: on one CPU under TSan, whose pthread_create()
 * waits for the new thread to run, the last ones started a whole short
 * run after the first and never got a turn (family_stress), or none of
 * 8 workers started before the end (stress_mutex_signals).  Until then
 * fam_running() is true.
 */
static uint64_t fam_end_ns __attribute__((unused));
static double fam_run_seconds __attribute__((unused));

static inline bool fam_running(void)
{
	return test_now_ns() < __atomic_load_n(&fam_end_ns, __ATOMIC_RELAXED);
}

static inline void fam_hold_clock(double seconds)
{
	fam_run_seconds = seconds;
	__atomic_store_n(&fam_end_ns, UINT64_MAX, __ATOMIC_RELAXED);
}

static inline void fam_start_clock(void)
{
	__atomic_store_n(&fam_end_ns, test_now_ns() +
			 test_duration_ns(fam_run_seconds), __ATOMIC_RELAXED);
}

/* Spin for @ns nanoseconds (finer than a sleep, for racing a timeout). */
static inline void fam_spin_ns(uint64_t ns)
{
	uint64_t end = test_now_ns() + ns;

	while (test_now_ns() < end)
		;
}

/* A small, fast, per-caller pseudo-random generator (xorshift32). */
static inline unsigned int fam_rand(unsigned int *state)
{
	unsigned int x = *state ? *state : 2463534242u;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	return *state = x;
}

/*
 * Progress monitor: fails the test, naming @what, if @progress(@arg)
 * (a count of work done that only grows) stays the same for PROMPT_MS
 * while the test runs, which in a handoff test means a lost wake-up
 * (everyone asleep, nobody left to wake them).  Sooner and more telling
 * than the watchdog.
 */
struct fam_monitor {
	const char *what;
	unsigned long (*progress)(void *arg);
	void *arg;
	int stop;
	pthread_t thread;
};

static inline void *fam_monitor_thread(void *arg)
{
	struct fam_monitor *m = arg;
	unsigned long last = m->progress(m->arg);
	uint64_t moved = test_now_ns();

	while (!__atomic_load_n(&m->stop, __ATOMIC_ACQUIRE)) {
		unsigned long now = m->progress(m->arg);

		if (now != last) {
			last = now;
			moved = test_now_ns();
		} else if (test_now_ns() - moved > PROMPT_MS * 1000000ull) {
			fprintf(stderr, "FAIL: %s: no progress for %d ms "
				"(at %lu): a lost wake-up\n", m->what,
				PROMPT_MS, now);
			_exit(1);
		}
		test_sleep_ms(10);
	}
	return NULL;
}

static inline void fam_monitor_start(struct fam_monitor *m, const char *what,
				     unsigned long (*progress)(void *),
				     void *arg)
{
	*m = (struct fam_monitor){ .what = what, .progress = progress,
				   .arg = arg };
	CHECK(pthread_create(&m->thread, NULL, fam_monitor_thread, m) == 0);
}

static inline void fam_monitor_stop(struct fam_monitor *m)
{
	__atomic_store_n(&m->stop, 1, __ATOMIC_RELEASE);
	CHECK(pthread_join(m->thread, NULL) == 0);
}

/*
 * A signal storm: one thread sends SIGUSR1 to a random one of @n threads
 * every 20-60 microseconds until fam_storm_stop(), which must come before
 * any of them is reaped.  Install the handler first (fam_handle_sigusr1).
 */
struct fam_storm {
	pthread_t *threads;
	int n;
	int stop;
	long sent;
	pthread_t thread;
};

static inline void *fam_storm_thread(void *arg)
{
	struct fam_storm *s = arg;
	unsigned int rnd = 777;

	while (!__atomic_load_n(&s->stop, __ATOMIC_ACQUIRE)) {
		pthread_kill(s->threads[fam_rand(&rnd) % s->n], SIGUSR1);
		s->sent++;
		fam_spin_ns(20000 + fam_rand(&rnd) % 40000);
	}
	return NULL;
}

static inline void fam_storm_start(struct fam_storm *s, pthread_t *threads,
				   int n)
{
	*s = (struct fam_storm){ .threads = threads, .n = n };
	CHECK(pthread_create(&s->thread, NULL, fam_storm_thread, s) == 0);
}

static inline void fam_storm_stop(struct fam_storm *s)
{
	__atomic_store_n(&s->stop, 1, __ATOMIC_RELEASE);
	CHECK(pthread_join(s->thread, NULL) == 0);
}

/*
 * The signal tests of the primitives that are given to waiters
 * (semaphore: up(), completion: complete()).  @wait is an interruptible
 * (or killable) wait on @obj, whose wait list is @l; @plain a wait
 * that no signal ends.
 */

/*
 * @wait, interrupted while asleep alone: -EINTR, and the handler ran.
 * @queued(@obj), if set, checks the primitive while @wait sleeps.
 */
static inline void fam_interrupted_alone(long (*wait)(struct fam_call *),
					 void *obj, struct fam_list l,
					 void (*queued)(void *obj))
{
	int before = fam_signal_count();
	struct fam_call c;

	fam_start(&c, wait, obj, 60000);
	fam_wait_queued(&c, l, 1);
	if (queued)
		queued(obj);
	fam_interrupt(&c);
	CHECK_EQ(fam_join(&c), -EINTR);
	CHECK(c.signals > before);
}

/*
 * @wait interrupted with @plain (started in @d) queued behind it:
 * -EINTR, and @d is the one still queued; the caller gives, then joins @d.
 */
static inline void fam_interrupted_ahead(long (*wait)(struct fam_call *),
					 long (*plain)(struct fam_call *),
					 void *obj, struct fam_list l,
					 struct fam_call *d)
{
	struct fam_call c;

	fam_start(&c, wait, obj, 60000);
	fam_wait_queued(&c, l, 1);
	fam_start(d, plain, obj, 0);
	fam_wait_queued(d, l, 2);
	fam_interrupt(&c);
	CHECK_EQ(fam_join(&c), -EINTR);
	CHECK_EQ(fam_queued(l), 1);
}

/* @give(@obj) while @wait, alone, is in its handler: what @wait returned. */
static inline long fam_given_during_signal(long (*wait)(struct fam_call *),
					   void *obj, struct fam_list l,
					   void (*give)(void *))
{
	struct fam_call c;

	fam_start(&c, wait, obj, 60000);
	fam_wait_queued(&c, l, 1);
	fam_interrupt_during(&c, give, obj);
	return fam_join(&c);
}

/*
 * The same with @plain queued behind @wait, which must not be left
 * asleep: if @wait kept what was given (did not return -EINTR), @plain
 * is still waiting and gets a second @give.  What @wait returned.
 */
static inline long fam_given_during_signal_ahead(
	long (*wait)(struct fam_call *), long (*plain)(struct fam_call *),
	void *obj, struct fam_list l, void (*give)(void *))
{
	struct fam_call c, d;
	long ret;

	fam_start(&c, wait, obj, 60000);
	fam_wait_queued(&c, l, 1);
	fam_start(&d, plain, obj, 0);
	fam_wait_queued(&d, l, 2);
	fam_interrupt_during(&c, give, obj);
	ret = fam_join(&c);
	if (ret != -EINTR) {
		test_sleep_ms(5);
		CHECK(!fam_done(&d));
		give(obj);
	}
	CHECK_EQ(fam_join(&d), 0);
	return ret;
}

/*
 * The races' rounds: a racer waits until the main thread opens round
 * @seen + 1 (true) or stops the race (false).
 */
static inline bool fam_next_round(int *round, int *stop, int seen)
{
	while (__atomic_load_n(round, __ATOMIC_ACQUIRE) == seen &&
	       !__atomic_load_n(stop, __ATOMIC_ACQUIRE))
		sched_yield();
	return !__atomic_load_n(stop, __ATOMIC_ACQUIRE);
}

/*
 * Give once (@give(@obj)) and signal the @n racers, in a random order;
 * when the signals go first, now and then late enough for a racer to
 * lose what it was given.
 */
static inline void fam_give_and_signal(void (*give)(void *), void *obj,
				       pthread_t *racers, int n,
				       unsigned int *rnd)
{
	bool first = fam_rand(rnd) & 1;
	int i;

	if (first)
		give(obj);
	for (i = 0; i < n; i++)
		pthread_kill(racers[i], SIGUSR1);
	if (!first) {
		fam_spin_ns(fam_rand(rnd) % 100000);
		give(obj);
	}
}

#endif /* _KMUTEX_TESTS_FAMILY_H */
