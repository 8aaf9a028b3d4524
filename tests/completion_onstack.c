// SPDX-License-Identifier: MIT
/*
 * completion_onstack.c - once a waiter has seen its completion done, the
 * completion is the waiter's to free: complete() must not touch it any
 * more.
 *
 * The kernel's most common completion pattern depends on it:
 *
 *	DECLARE_COMPLETION_ONSTACK(done);
 *	submit(&work, &done);		// another thread: complete(&done)
 *	wait_for_completion(&done);
 *	return;				// done's memory is reused
 *
 * and so does polling completion_done() before freeing (the kernel's
 * completion_done() takes and drops the wait lock for exactly this
 * reason).  Each round here, the main thread waits (or polls
 * completion_done) and then at once "frees" the completion by filling it
 * with a canary, as a reused stack frame would; a complete() that still
 * writes to it afterwards (its wait_lock release) breaks the canary.
 */
#include <linux/completion.h>

#include "family.h"	/* from tests/: move this file there */

static struct completion x;
static int go, finished, stop;

static void *completer(void *arg)
{
	int round = 0;

	(void)arg;
	for (;;) {
		while (__atomic_load_n(&go, __ATOMIC_ACQUIRE) == round)
			if (__atomic_load_n(&stop, __ATOMIC_ACQUIRE))
				return NULL;
		round++;
		complete(&x);
		__atomic_store_n(&finished, round, __ATOMIC_RELEASE);
	}
}

static void rounds(bool poll, double seconds)
{
	unsigned char canary[sizeof(x)];
	uint64_t end = test_now_ns() + test_duration_ns(seconds);
	long n = 0, hits = 0;
	pthread_t t;

	memset(canary, 0xaa, sizeof(canary));
	go = finished = stop = 0;
	CHECK(pthread_create(&t, NULL, completer, NULL) == 0);
	/* A few rounds even when creating the thread took the window. */
	while ((test_now_ns() < end || n < 20) && !hits) {
		init_completion(&x);
		__atomic_store_n(&go, go + 1, __ATOMIC_RELEASE);
		if (poll)
			while (!completion_done(&x))
				;
		else
			wait_for_completion(&x);
		/* Done: the memory is the waiter's again. */
		memset(&x, 0xaa, sizeof(x));
		while (__atomic_load_n(&finished, __ATOMIC_ACQUIRE) != go)
			;
		if (memcmp(&x, canary, sizeof(x)))
			hits++;
		n++;
	}
	__atomic_store_n(&stop, 1, __ATOMIC_RELEASE);
	CHECK(pthread_join(t, NULL) == 0);
	printf("%s: %ld rounds, %ld with the completion written to after "
	       "it was the waiter's again\n", poll ? "completion_done" :
	       "wait_for_completion", n, hits);
	CHECK_EQ(hits, 0);
}

int main(void)
{
	test_watchdog(60);
	rounds(true, 2);
	rounds(false, 4);
	return 0;
}
