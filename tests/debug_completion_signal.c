// SPDX-License-Identifier: MIT
/*
 * debug_completion_signal - wait_for_completion_timeout() in a signal
 * handler: "BUG: sleeping function called from invalid context (in
 * signal handler)".  complete() and try_wait_for_completion() in a
 * handler do not sleep and are not reported.
 */
#include <linux/completion.h>

#include "debug_harness.h"

static volatile int handled;

DEBUG_FN void wait_ready(struct completion *ready)
{
	CHECK(wait_for_completion_timeout(ready, 1000) > 0);
}

static struct completion ready;

DEBUG_FN void on_usr1(int sig)
{
	CHECK_EQ(sig, SIGUSR1);
	complete(&ready);			/* fine */
	CHECK(try_wait_for_completion(&ready));	/* fine */
	complete(&ready);
	wait_ready(&ready);
	handled++;
}

static void bug(void)
{
	struct sigaction sa;

	init_completion(&ready);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	sigemptyset(&sa.sa_mask);
	CHECK(sigaction(SIGUSR1, &sa, NULL) == 0);
	complete(&ready);
	wait_ready(&ready);		/* outside a handler: fine */
	raise(SIGUSR1);
	raise(SIGUSR1);			/* reported once */
	CHECK_EQ(handled, 2);
	CHECK(!completion_done(&ready));
}

DEBUG_EXPECT_REPORT(bug, "BUG: sleeping function called from invalid "
		    "context (in signal handler)", "\"&ready\"",
		    "may sleep on a completion",
		    "wait_for_completion_timeout(ready) at "
		    "tests/debug_completion_signal.c:16",
		    "init at tests/debug_completion_signal.c:35",
		    "wait_ready+", "on_usr1+")
