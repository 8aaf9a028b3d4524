// SPDX-License-Identifier: MIT
/*
 * debug_hung_completion - KMUTEX_DEBUG_HUNG=1: a wait_for_completion()
 * that nobody completes for 4 s is reported, naming the completion.
 */
#include <linux/completion.h>

#include "debug_hung.h"

static DECLARE_COMPLETION(setup_done);

static void *completer(void *arg)
{
	hung_sleep_ms(HUNG_HOLD_MS);
	complete(&setup_done);
	return arg;
}

DEBUG_FN void wait_for_setup(void)
{
	wait_for_completion(&setup_done);
}

static void bug(void)
{
	pthread_t c;

	pthread_setname_np(pthread_self(), "sleeper");
	CHECK(pthread_create(&c, NULL, completer, NULL) == 0);
	wait_for_setup();
	pthread_join(c, NULL);
}

HUNG_EXPECT_REPORT("1", bug, "INFO: task sleeper:",
		   "for the completion:\n  \"setup_done\" (init at "
		   "tests/debug_hung_completion.c:",
		   "wait_for_completion(&setup_done)", "no locks held by "
		   "sleeper/", "wait_for_setup+")
