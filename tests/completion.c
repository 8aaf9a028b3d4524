// SPDX-License-Identifier: MIT
/*
 * completion.c - struct completion: "wait until this has happened".
 *
 * Initialisation, complete() waking exactly one waiter and counting
 * when nobody waits (N complete()s let N waits pass, no more),
 * complete_all() letting everyone through until reinit_completion(),
 * try_wait_for_completion and completion_done (never sleeping),
 * wait_for_completion_timeout (0 no earlier than the timeout, else the
 * jiffies left, 1 to timeout), the interruptible and killable forms
 * (-EINTR with and without SA_RESTART, 0 when completed; plain waits go
 * on through signals), and that no completion is lost when complete()
 * meets a waiter that is timing out or being interrupted: a waiter that
 * reports failure leaves the completion pending, one that reports
 * success consumed it.  Under TSan the cases that signal sleeping
 * waiters are left out, saying so (fam_signals_reach_sleepers).
 */
#include <linux/completion.h>

#include "family.h"

static DECLARE_COMPLETION(static_done);

static long call_wait(struct fam_call *c)
{
	wait_for_completion(c->obj);
	return 0;
}

static long call_wait_interruptible(struct fam_call *c)
{
	return wait_for_completion_interruptible(c->obj);
}

static long call_wait_killable(struct fam_call *c)
{
	return wait_for_completion_killable(c->obj);
}

static long call_wait_timeout(struct fam_call *c)
{
	return (long)wait_for_completion_timeout(c->obj, c->arg);
}

static long call_wait_interruptible_timeout(struct fam_call *c)
{
	return wait_for_completion_interruptible_timeout(c->obj, c->arg);
}

static long call_complete(struct fam_call *c)
{
	complete(c->obj);
	return 0;
}

/* Consume every pending completion without waiting; how many. */
static int drain(struct completion *x)
{
	int n = 0;

	while (try_wait_for_completion(x) && n < 1000)
		n++;
	return n;
}

/* Not done, nobody waiting. */
static void check_idle(struct completion *x)
{
	CHECK(!completion_done(x));
	CHECK(!try_wait_for_completion(x));
	CHECK_EQ(fam_queued(FAM_LIST(x)), 0);
}

static void test_init(void)
{
	DECLARE_COMPLETION(local);
	DECLARE_COMPLETION_ONSTACK(onstack);
	struct completion x;

	check_idle(&static_done);
	check_idle(&local);
	check_idle(&onstack);
	memset(&x, 0xa5, sizeof(x));
	init_completion(&x);
	check_idle(&x);
	complete(&static_done);
	CHECK(completion_done(&static_done));
	wait_for_completion(&static_done);
	check_idle(&static_done);
}

/*
 * Completions count: N complete()s before any wait let exactly N waits
 * pass; try_wait consumes one, completion_done consumes none, neither
 * sleeps.
 */
static void test_counting(void)
{
	struct completion x;
	long sleeps;
	int i, n;

	init_completion(&x);
	complete(&x);
	CHECK(completion_done(&x));
	CHECK(completion_done(&x));	/* looking consumes nothing */
	CHECK(try_wait_for_completion(&x));
	CHECK(!completion_done(&x));
	CHECK(!try_wait_for_completion(&x));

	for (n = 1; n <= 5; n++) {
		for (i = 0; i < n; i++)
			complete(&x);
		for (i = 0; i < n; i++) {
			CHECK(completion_done(&x));
			switch (i % 4) {
			case 0:
				wait_for_completion(&x);
				break;
			case 1:
				CHECK_EQ(wait_for_completion_interruptible(&x),
					 0);
				break;
			case 2:
				CHECK(wait_for_completion_timeout(&x, 10) >= 1);
				break;
			case 3:
				CHECK(try_wait_for_completion(&x));
				break;
			}
		}
		check_idle(&x);
		/* The N + 1st wait does not pass. */
		CHECK_EQ(wait_for_completion_timeout(&x, 1), 0);
	}

	/* Never sleeping, done or not. */
	sleeps = test_thread_sleeps();
	for (i = 0; i < 100000; i++) {
		CHECK(!completion_done(&x));
		CHECK(!try_wait_for_completion(&x));
	}
	for (i = 0; i < 1000; i++)
		complete(&x);
	for (i = 0; i < 1000; i++)
		CHECK(try_wait_for_completion(&x));
	/* A 0 timeout is a try, too. */
	for (i = 0; i < 1000; i++)
		CHECK_EQ(wait_for_completion_timeout(&x, 0), 0);
	CHECK(test_thread_sleeps() - sleeps <= 5);
	check_idle(&x);
	complete(&x);
	CHECK_EQ(wait_for_completion_timeout(&x, 0), 1);
	check_idle(&x);
}

/*
 * complete() from another thread wakes a waiter; with several waiting,
 * exactly one, the first: the others stay blocked until more come.
 */
#define WAITERS	5

static int woken_order[WAITERS], woken;

static pthread_mutex_t woken_lock = PTHREAD_MUTEX_INITIALIZER;

/* The slot is written before the count that the main thread waits on. */
static void record_woken(struct fam_call *c)
{
	pthread_mutex_lock(&woken_lock);
	woken_order[woken] = c->id;
	__atomic_store_n(&woken, woken + 1, __ATOMIC_SEQ_CST);
	pthread_mutex_unlock(&woken_lock);
}

static int woken_count(void)
{
	return __atomic_load_n(&woken, __ATOMIC_SEQ_CST);
}

static void test_complete_one(void)
{
	long (*const fns[])(struct fam_call *) = {
		call_wait, call_wait_interruptible, call_wait_killable,
		call_wait_timeout, call_wait_interruptible_timeout,
	};
	struct fam_call c[WAITERS], d;
	struct completion x;
	int i;

	init_completion(&x);
	fam_start(&c[0], call_wait, &x, 0);
	fam_wait_queued(&c[0], FAM_LIST(&x), 1);
	fam_start(&d, call_complete, &x, 0);
	CHECK_EQ(fam_join(&d), 0);
	CHECK_EQ(fam_join(&c[0]), 0);
	check_idle(&x);

	woken = 0;
	for (i = 0; i < WAITERS; i++) {
		c[i] = (struct fam_call){ .fn = fns[i], .obj = &x,
					  .arg = 60000, .id = i,
					  .after = record_woken };
		CHECK(pthread_create(&c[i].thread, NULL, fam_call_thread,
				     &c[i]) == 0);
		fam_wait_queued(&c[i], FAM_LIST(&x), i + 1);
	}
	test_sleep_ms(20);
	CHECK_EQ(woken_count(), 0);
	for (i = 0; i < WAITERS; i++) {
		complete(&x);
		WAIT_UNTIL(woken_count() == i + 1, PROMPT_MS);
		/* One complete(), one waiter woken, in the order they came. */
		test_sleep_ms(20);
		CHECK_EQ(woken_count(), i + 1);
		CHECK_EQ(woken_order[i], i);
		CHECK_EQ(fam_queued(FAM_LIST(&x)), WAITERS - 1 - i);
		/* It was handed over, not left pending. */
		CHECK(!completion_done(&x));
	}
	for (i = 0; i < WAITERS; i++) {
		long ret = fam_join(&c[i]);

		if (fns[i] == call_wait_timeout ||
		    fns[i] == call_wait_interruptible_timeout)
			CHECK(ret >= 1 && ret <= 60000);
		else
			CHECK_EQ(ret, 0);
	}
	check_idle(&x);
}

/*
 * complete_all() wakes every waiter and lets every later wait pass, in
 * any form, until reinit_completion(); complete() on top changes
 * nothing.
 */
static void test_complete_all(void)
{
	long (*const fns[])(struct fam_call *) = {
		call_wait, call_wait_interruptible, call_wait_killable,
		call_wait_timeout, call_wait_interruptible_timeout,
	};
	struct fam_call c[WAITERS];
	struct completion x;
	int i, round;

	init_completion(&x);
	for (round = 0; round < 2; round++) {
		for (i = 0; i < WAITERS; i++) {
			fam_start(&c[i], fns[i], &x, 60000);
			fam_wait_queued(&c[i], FAM_LIST(&x), i + 1);
		}
		complete_all(&x);
		for (i = 0; i < WAITERS; i++) {
			long ret = fam_join(&c[i]);

			CHECK(i < 3 ? ret == 0 : ret >= 1 && ret <= 60000);
		}
		CHECK_EQ(fam_queued(FAM_LIST(&x)), 0);
		for (i = 0; i < 1000; i++) {
			CHECK(completion_done(&x));
			CHECK(try_wait_for_completion(&x));
			wait_for_completion(&x);
			CHECK_EQ(wait_for_completion_interruptible(&x), 0);
			CHECK_EQ(wait_for_completion_killable(&x), 0);
			CHECK_EQ(wait_for_completion_timeout(&x, 100), 100);
			CHECK_EQ(wait_for_completion_timeout(&x, 0), 1);
			CHECK_EQ(wait_for_completion_interruptible_timeout(&x,
				 100), 100);
		}
		complete(&x);
		complete_all(&x);
		CHECK(completion_done(&x));
		reinit_completion(&x);
		check_idle(&x);
		CHECK_EQ(wait_for_completion_timeout(&x, 1), 0);
		/* And it counts again. */
		complete(&x);
		CHECK_EQ(drain(&x), 1);
	}
	/* More waiters than the library wakes in one batch. */
	{
		struct fam_call many[20];

		for (i = 0; i < 20; i++) {
			fam_start(&many[i], call_wait, &x, 0);
			fam_wait_queued(&many[i], FAM_LIST(&x), i + 1);
		}
		complete_all(&x);
		for (i = 0; i < 20; i++)
			CHECK_EQ(fam_join(&many[i]), 0);
		reinit_completion(&x);
		check_idle(&x);
	}

	/* complete_all with nobody waiting. */
	complete_all(&x);
	fam_start(&c[0], call_wait, &x, 0);
	CHECK_EQ(fam_join(&c[0]), 0);
	reinit_completion(&x);
	check_idle(&x);
}

/*
 * wait_for_completion_timeout: 0 after no less than the timeout, else
 * the jiffies left (1 to timeout); the interruptible_timeout form too.
 */
static void test_timeout(void)
{
	unsigned long left;
	struct completion x;
	struct fam_call c;
	uint64_t t0, dt;
	long ret;

	init_completion(&x);
	t0 = test_now_ns();
	left = wait_for_completion_timeout(&x, 50);
	dt = test_now_ns() - t0;
	printf("wait_for_completion_timeout(50), never completed: %lu "
	       "after %.1f ms\n", left, dt / 1e6);
	CHECK_EQ(left, 0);
	CHECK(dt >= 50000000ull);
	CHECK(dt < 5000000000ull);
	check_idle(&x);

	t0 = test_now_ns();
	ret = wait_for_completion_interruptible_timeout(&x,
							msecs_to_jiffies(30));
	dt = test_now_ns() - t0;
	CHECK_EQ(ret, 0);
	CHECK(dt >= 30000000ull);
	CHECK(dt < 5000000000ull);
	check_idle(&x);

	/* Completed in time: the jiffies left, about timeout - elapsed. */
	fam_start(&c, call_wait_timeout, &x, 2000);
	fam_wait_queued(&c, FAM_LIST(&x), 1);
	test_sleep_ms(100);
	complete(&x);
	ret = fam_join(&c);
	dt = c.t1 - c.t0;
	printf("wait_for_completion_timeout(2000), completed after 100 ms: "
	       "%ld left after %.1f ms\n", ret, dt / 1e6);
	CHECK(ret >= 1 && ret <= 2000 - 100);
	CHECK(ret >= 2000 - (long)(dt / 1000000) - 1);
	check_idle(&x);
	fam_start(&c, call_wait_interruptible_timeout, &x, 2000);
	fam_wait_queued(&c, FAM_LIST(&x), 1);
	test_sleep_ms(100);
	complete(&x);
	ret = fam_join(&c);
	CHECK(ret >= 1 && ret <= 2000 - 100);
	check_idle(&x);

	/* Done already: the whole timeout is left, without waiting. */
	complete(&x);
	CHECK_EQ(wait_for_completion_timeout(&x, 1234), 1234);
	complete(&x);
	CHECK_EQ(wait_for_completion_interruptible_timeout(&x, 1234), 1234);
	check_idle(&x);

	/* A timeout that is not a timeout. */
	fam_start(&c, call_wait_timeout, &x, MAX_SCHEDULE_TIMEOUT);
	fam_wait_queued(&c, FAM_LIST(&x), 1);
	complete(&x);
	CHECK(fam_join(&c) >= 1);
	check_idle(&x);
}

/*
 * The interruptible and killable waits: -EINTR when a handler runs in
 * the waiting thread, with and without SA_RESTART, and the completion
 * that comes next is not swallowed by the waiter that left; 0 when
 * completed.  wait_for_completion and wait_for_completion_timeout go
 * on waiting through signals.
 */
static void test_signals(int flags)
{
	long (*const fns[])(struct fam_call *) = {
		call_wait_interruptible, call_wait_killable,
		call_wait_interruptible_timeout,
	};
	struct fam_call c, d;
	struct completion x;
	unsigned int i;

	fam_handle_sigusr1(flags);
	init_completion(&x);
	for (i = 0; i < 3; i++) {
		fam_interrupted_alone(fns[i], &x, FAM_LIST(&x), NULL);
		check_idle(&x);
		complete(&x);
		CHECK_EQ(drain(&x), 1);

		/* Interrupted ahead of another waiter: that one gets it. */
		fam_interrupted_ahead(fns[i], call_wait, &x, FAM_LIST(&x), &d);
		complete(&x);
		CHECK_EQ(fam_join(&d), 0);
		check_idle(&x);

		/* Completed: 0 (or the jiffies left). */
		fam_start(&c, fns[i], &x, 60000);
		fam_wait_queued(&c, FAM_LIST(&x), 1);
		complete(&x);
		if (fns[i] == call_wait_interruptible_timeout)
			CHECK(fam_join(&c) >= 1);
		else
			CHECK_EQ(fam_join(&c), 0);
		check_idle(&x);
	}

	fam_start(&c, call_wait, &x, 0);
	fam_wait_queued(&c, FAM_LIST(&x), 1);
	fam_signal_harmlessly(&c, 5);
	complete(&x);
	CHECK_EQ(fam_join(&c), 0);
	check_idle(&x);

	fam_start(&c, call_wait_timeout, &x, 300);
	fam_wait_queued(&c, FAM_LIST(&x), 1);
	fam_signal(&c, 5);
	CHECK_EQ(fam_join(&c), 0);
	CHECK(c.t1 - c.t0 >= 300000000ull);
	check_idle(&x);
}

/*
 * complete() at the very moment the waiter is interrupted: it runs while
 * the waiter's signal handler runs, after the kernel took it off its
 * futex and before it re-checks the wait list (fam_interrupt_during).
 * The waiter may return 0 (it kept the completion handed to it) or
 * -EINTR (then the completion is still pending, or went on to the next
 * waiter), never -EINTR with the completion gone.
 */
static void do_complete(void *x)
{
	complete(x);
}

static void test_complete_vs_signal(int flags)
{
	long (*const fns[])(struct fam_call *) = {
		call_wait_interruptible, call_wait_killable,
		call_wait_interruptible_timeout,
	};
	struct completion x;
	int round, kept = 0, passed = 0;

	fam_handle_sigusr1(flags);
	init_completion(&x);
	for (round = 0; round < 9; round++) {
		long (*fn)(struct fam_call *) = fns[round % 3];
		bool pending;
		long ret;

		ret = fam_given_during_signal(fn, &x, FAM_LIST(&x), do_complete);
		CHECK(ret == -EINTR || ret >= 0);
		pending = completion_done(&x);
		if ((ret >= 0) == pending) {
			fprintf(stderr, "FAIL: complete() crossing a signal: "
				"the waiter returned %ld and the completion "
				"is %s\n", ret, pending ? "still pending" :
				"gone");
			exit(1);
		}
		kept += ret >= 0;
		CHECK_EQ(drain(&x), pending);
		check_idle(&x);

		/* With a waiter behind it, which must not be left asleep. */
		ret = fam_given_during_signal_ahead(fn, call_wait, &x,
						    FAM_LIST(&x), do_complete);
		passed += ret == -EINTR;
		check_idle(&x);
	}
	printf("complete() crossing a signal: kept %d of 9, passed on %d "
	       "of 9\n", kept, passed);
}

/*
 * No completion lost when complete() meets a waiter that is giving up.
 * Each round a waiter waits with a 1 ms timeout (or until signalled),
 * and the main thread completes at about the moment it gives up.  If
 * the waiter reports failure, the completion must still be pending;
 * if it reports success, it must have consumed it.  The delay adapts
 * to sit on the boundary.
 */
struct race {
	struct completion x;
	int interrupt;
	int round, finished, stop;
	long ret;
	pthread_t thread;
};

static void *racer_thread(void *arg)
{
	struct race *r = arg;
	int round = 0;

	while (fam_next_round(&r->round, &r->stop, round)) {
		round++;
		if (r->interrupt)
			r->ret = wait_for_completion_interruptible(&r->x);
		else
			r->ret = (long)wait_for_completion_timeout(&r->x, 1);
		__atomic_store_n(&r->finished, round, __ATOMIC_SEQ_CST);
	}
	return NULL;
}

static void race(int interrupt, double seconds)
{
	struct race r = { .interrupt = interrupt };
	uint64_t end, delay = 900000;
	long rounds = 0, failed = 0;
	unsigned int rnd = 4321;

	init_completion(&r.x);
	CHECK(pthread_create(&r.thread, NULL, racer_thread, &r) == 0);
	end = test_now_ns() + test_duration_ns(seconds);
	/* A few rounds even on a machine too loaded to do many. */
	while (rounds < 20 || test_now_ns() < end) {
		int round = r.round + 1;
		bool ok, pending;

		__atomic_store_n(&r.round, round, __ATOMIC_RELEASE);
		POLL_UNTIL(fam_queued(FAM_LIST(&r.x)) == 1 ||
			   __atomic_load_n(&r.finished, __ATOMIC_SEQ_CST) ==
			   round, PROMPT_MS);
		fam_spin_ns(delay + fam_rand(&rnd) % 20000);
		if (interrupt) {
			fam_give_and_signal(do_complete, &r.x, &r.thread, 1,
					    &rnd);
			delay = fam_rand(&rnd) % 30000;
		} else {
			complete(&r.x);
		}
		WAIT_UNTIL(__atomic_load_n(&r.finished, __ATOMIC_SEQ_CST) ==
			   round, PROMPT_MS);
		if (interrupt)
			CHECK(r.ret == 0 || r.ret == -EINTR);
		else
			CHECK(r.ret >= 0 && r.ret <= 1);
		ok = interrupt ? r.ret == 0 : r.ret > 0;
		pending = completion_done(&r.x);
		if (ok == pending) {
			fprintf(stderr, "FAIL: round %ld: the waiter returned "
				"%ld and the completion is %s: %s\n", rounds,
				r.ret, pending ? "still pending" : "gone",
				pending ? "it was counted twice" :
				"it was lost");
			exit(1);
		}
		CHECK_EQ(drain(&r.x), !ok);
		check_idle(&r.x);
		if (!interrupt) {
			if (ok && delay < 3000000)
				delay += 10000;
			else if (!ok && delay >= 10000)
				delay -= 10000;
		}
		rounds++;
		failed += !ok;
	}
	__atomic_store_n(&r.stop, 1, __ATOMIC_RELEASE);
	CHECK(pthread_join(r.thread, NULL) == 0);
	printf("race (%s): %ld rounds, %ld given up, %ld completed\n",
	       interrupt ? "interrupted" : "timing out", rounds, failed,
	       rounds - failed);
}

int main(void)
{
	uint64_t t0 = test_now_ns();

	test_watchdog(60);
	test_init();
	test_counting();
	test_complete_one();
	test_complete_all();
	test_timeout();
	if (fam_signals_reach_sleepers("signals (-EINTR, SA_RESTART, waits "
				       "that go on through them)")) {
		test_signals(0);
		test_signals(SA_RESTART);
	}
	if (fam_signals_reach_sleepers("complete() crossing a signal")) {
		test_complete_vs_signal(0);
		test_complete_vs_signal(SA_RESTART);
	}
	fam_handle_sigusr1(0);
	race(0, 1.0);
	if (fam_signals_reach_sleepers("race with an interrupted waiter"))
		race(1, 0.7);
	printf("completion: all passed in %.1f s\n",
	       (test_now_ns() - t0) / 1e9);
	return 0;
}
