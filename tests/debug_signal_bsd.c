// SPDX-License-Identifier: MIT
/*
 * debug_signal_bsd - a mutex taken (by mutex_trylock) in a handler
 * installed with signal(): "inconsistent lock state".
 */
#include <linux/mutex.h>

#include "debug_harness.h"

static DEFINE_MUTEX(stats_lock);
static volatile int handled;

DEBUG_FN void on_alarm(int sig)
{
	CHECK_EQ(sig, SIGUSR2);
	if (mutex_trylock(&stats_lock))
		mutex_unlock(&stats_lock);
	handled++;
}

static void bug(void)
{
	CHECK(signal(SIGUSR2, on_alarm) == SIG_DFL);
	CHECK(signal(SIGUSR2, on_alarm) == on_alarm);
	raise(SIGUSR2);
	raise(SIGUSR2);
	CHECK_EQ(handled, 2);
}

DEBUG_EXPECT_REPORT(bug, "WARNING: inconsistent lock state",
		    "\"stats_lock\"", "on_alarm+", "mutex_trylock(&stats_lock)")
