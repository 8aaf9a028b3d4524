// SPDX-License-Identifier: MIT
/*
 * debug_signal - a mutex taken in a signal handler installed with
 * sigaction(SA_SIGINFO): "inconsistent lock state".
 */
#include <linux/mutex.h>

#include "debug_harness.h"

static DEFINE_MUTEX(log_lock);
static volatile int handled;

DEBUG_FN void log_line(void)
{
	mutex_lock(&log_lock);
	mutex_unlock(&log_lock);
}

DEBUG_FN void on_usr1(int sig, siginfo_t *si, void *uc)
{
	(void)si;
	(void)uc;
	CHECK_EQ(sig, SIGUSR1);
	log_line();
	handled++;
}

static void bug(void)
{
	struct sigaction sa, old;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_usr1;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	CHECK(sigaction(SIGUSR1, &sa, NULL) == 0);
	/* The program sees its own handler, not the checker's. */
	CHECK(sigaction(SIGUSR1, NULL, &old) == 0);
	CHECK(old.sa_sigaction == on_usr1 && (old.sa_flags & SA_SIGINFO));
	log_line();			/* outside a handler: fine */
	raise(SIGUSR1);
	raise(SIGUSR1);			/* reported once */
	CHECK_EQ(handled, 2);
	log_line();			/* outside again: fine */
}

DEBUG_EXPECT_REPORT(bug, "WARNING: inconsistent lock state", "\"log_lock\"",
		    "in signal handler: signal 10", "log_line+", "on_usr1+")
