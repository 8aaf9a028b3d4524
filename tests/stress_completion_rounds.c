// SPDX-License-Identifier: MIT
/*
 * stress_completion_rounds.c - complete_all() and reinit_completion() in
 * rounds, with 40 waiters on 2 CPUs.
 *
 * Each round the 40 threads are let go together and wait on the
 * completion, each with one of the forms of wait (plain, killable,
 * interruptible, with a timeout that never expires, interruptible with
 * one); the main thread calls complete_all(), at once in some rounds
 * and once all 40 sleep on the wait list in others, waits until every
 * waiter has returned, checks, and reinit_completion()s for the next
 * round.  In the second half a signal storm (handlers with SA_RESTART)
 * interrupts the interruptible forms.
 *
 * Checked: every waiter returns exactly once per round (a lost wake-up
 * fails the round's bound, the watchdog a hang); none times out; only
 * the interruptible forms return -EINTR, and only with the storm; after
 * complete_all() the completion stays done (try_wait_for_completion()
 * and completion_done() true, nothing queued) until reinit, and is not
 * done after it.
 */
#include <linux/completion.h>
#include <linux/semaphore.h>

#include "family.h"

#define WAITERS		40
#define LONG_WAIT	600000	/* jiffies (10 minutes): never reached */

static struct completion x;
static struct semaphore go;	/* one unit per waiter per round */
static int round_no, returned, stop, storming;

struct waiter {
	int id;
	long ok, eintr, bad;
};

static struct waiter w[WAITERS];

static long wait_once(int how)
{
	switch (how) {
	case 0:
		wait_for_completion(&x);
		return 0;
	case 1:
		return wait_for_completion_killable(&x);
	case 2:
		return wait_for_completion_interruptible(&x);
	case 3:
		return wait_for_completion_timeout(&x, LONG_WAIT) ? 0 : -ETIME;
	default: {
		long r = wait_for_completion_interruptible_timeout(&x,
								  LONG_WAIT);

		return r > 0 ? 0 : r == 0 ? -ETIME : r;
	}
	}
}

static void *waiter_thread(void *arg)
{
	struct waiter *me = arg;

	for (;;) {
		long r;
		int how;

		down(&go);
		if (__atomic_load_n(&stop, __ATOMIC_ACQUIRE))
			break;
		how = (me->id + __atomic_load_n(&round_no, __ATOMIC_ACQUIRE))
		      % 5;
		r = wait_once(how);
		if (r == 0)
			me->ok++;
		else if (r == -EINTR && (how == 2 || how == 4 || how == 1) &&
			 __atomic_load_n(&storming, __ATOMIC_ACQUIRE))
			me->eintr++;
		else
			me->bad++;
		__atomic_add_fetch(&returned, 1, __ATOMIC_SEQ_CST);
	}
	return NULL;
}

static unsigned long rounds_progress(void *arg)
{
	(void)arg;
	return (unsigned long)__atomic_load_n(&returned, __ATOMIC_SEQ_CST);
}

static void one_round(int r)
{
	int i;

	__atomic_store_n(&returned, 0, __ATOMIC_SEQ_CST);
	__atomic_store_n(&round_no, r, __ATOMIC_RELEASE);
	for (i = 0; i < WAITERS; i++)
		up(&go);
	if (r % 2)
		/* All asleep on the list first (or already interrupted). */
		POLL_UNTIL(fam_queued(FAM_LIST(&x)) +
			   __atomic_load_n(&returned, __ATOMIC_SEQ_CST) >=
			   WAITERS, PROMPT_MS);
	complete_all(&x);
	WAIT_UNTIL(__atomic_load_n(&returned, __ATOMIC_SEQ_CST) == WAITERS,
		   PROMPT_MS);
	CHECK(completion_done(&x));
	CHECK(try_wait_for_completion(&x));	/* done stays done */
	CHECK(completion_done(&x));
	CHECK_EQ(fam_queued(FAM_LIST(&x)), 0);
	reinit_completion(&x);
	CHECK(!completion_done(&x));
	CHECK(!try_wait_for_completion(&x));
}

int main(void)
{
	pthread_t t[WAITERS];
	struct fam_monitor m;
	struct fam_storm s;
	long ok = 0, eintr = 0, bad = 0;
	uint64_t end;
	int i, r = 0, storm_from = 0;

	test_watchdog(120);
	fam_handle_sigusr1(SA_RESTART);
	init_completion(&x);
	sema_init(&go, 0);
	for (i = 0; i < WAITERS; i++) {
		w[i].id = i;
		CHECK(pthread_create(&t[i], NULL, waiter_thread, &w[i]) == 0);
	}
	fam_monitor_start(&m, "complete_all rounds", rounds_progress, NULL);
	end = test_now_ns() + test_duration_ns(0.6);
	for (; test_now_ns() < end || r < 4; r++)
		one_round(r);
	storm_from = r;
	__atomic_store_n(&storming, 1, __ATOMIC_RELEASE);
	fam_storm_start(&s, t, WAITERS);
	end = test_now_ns() + test_duration_ns(0.6);
	for (; test_now_ns() < end || r < storm_from + 4; r++)
		one_round(r);
	fam_storm_stop(&s);
	fam_monitor_stop(&m);
	__atomic_store_n(&stop, 1, __ATOMIC_RELEASE);
	for (i = 0; i < WAITERS; i++)
		up(&go);
	for (i = 0; i < WAITERS; i++) {
		CHECK(pthread_join(t[i], NULL) == 0);
		ok += w[i].ok;
		eintr += w[i].eintr;
		bad += w[i].bad;
	}
	printf("complete_all rounds: %d rounds (%d with a signal storm: %ld "
	       "signals sent), %ld waits passed, %ld interrupted, %ld "
	       "wrong\n", r, r - storm_from, s.sent, ok, eintr, bad);
	CHECK_EQ(bad, 0);
	CHECK_EQ(ok + eintr, (long)r * WAITERS);
	CHECK_EQ(go.count, 0);
	return 0;
}
