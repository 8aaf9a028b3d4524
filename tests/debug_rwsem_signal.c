// SPDX-License-Identifier: MIT
/*
 * debug_rwsem_signal - a read lock taken in a signal handler:
 * "inconsistent lock state".
 */
#include <linux/rwsem.h>

#include "debug_harness.h"

static DECLARE_RWSEM(state_sem);
static volatile int handled;

DEBUG_FN void peek_state(void)
{
	down_read(&state_sem);
	up_read(&state_sem);
}

DEBUG_FN void on_usr1(int sig)
{
	CHECK_EQ(sig, SIGUSR1);
	peek_state();
	handled++;
}

static void bug(void)
{
	CHECK(signal(SIGUSR1, on_usr1) != SIG_ERR);
	peek_state();			/* outside a handler: fine */
	raise(SIGUSR1);
	raise(SIGUSR1);			/* reported once */
	CHECK_EQ(handled, 2);
}

DEBUG_EXPECT_REPORT(bug, "WARNING: inconsistent lock state",
		    "\"state_sem\"", "in signal handler: signal 10",
		    "peek_state+", "on_usr1+",
		    "down_read(&state_sem) at tests/debug_rwsem_signal.c:15")
