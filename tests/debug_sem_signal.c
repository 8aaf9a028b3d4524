// SPDX-License-Identifier: MIT
/*
 * debug_sem_signal - down() on a semaphore in a signal handler: it may
 * sleep there, "BUG: sleeping function called from invalid context (in
 * signal handler)".  up() and down_trylock() in a handler never sleep
 * and are not reported (the kernel allows them in interrupt context).
 */
#include <linux/semaphore.h>

#include "debug_harness.h"

static DEFINE_SEMAPHORE(slots, 4);
static volatile int handled;

DEBUG_FN void take_slot(void)
{
	down(&slots);
	up(&slots);
}

DEBUG_FN void on_usr1(int sig)
{
	CHECK_EQ(sig, SIGUSR1);
	if (handled == 0) {
		CHECK_EQ(down_trylock(&slots), 0);	/* fine */
		up(&slots);				/* fine */
	}
	take_slot();
	handled++;
}

static void bug(void)
{
	CHECK(signal(SIGUSR1, on_usr1) != SIG_ERR);
	take_slot();			/* outside a handler: fine */
	raise(SIGUSR1);
	raise(SIGUSR1);			/* reported once */
	CHECK_EQ(handled, 2);
	CHECK_EQ(slots.count, 4);
}

DEBUG_EXPECT_REPORT(bug, "BUG: sleeping function called from invalid "
		    "context (in signal handler)", "\"slots\"",
		    "in signal handler: signal 10", "may sleep on a semaphore",
		    "init at tests/debug_sem_signal.c:12", "take_slot+",
		    "on_usr1+")
