// SPDX-License-Identifier: MIT
/*
 * debug_rwsem_exit_held - a thread exits holding a read lock:
 * "still has locks held".
 */
#include <linux/rwsem.h>

#include "debug_harness.h"

static DECLARE_RWSEM(forgotten_sem);

DEBUG_FN __no_context_analysis void read_and_leave(void)
{
	down_read(&forgotten_sem);
}

static void *leaver(void *arg)
{
	pthread_setname_np(pthread_self(), "leaver");
	read_and_leave();
	return arg;
}

static void bug(void)
{
	pthread_t t;

	CHECK(pthread_create(&t, NULL, leaver, NULL) == 0);
	pthread_join(t, NULL);
}

DEBUG_EXPECT_REPORT(bug, "still has locks held!", "WARNING: leaver/",
		    "\"forgotten_sem\"", "read_and_leave+",
		    "down_read(&forgotten_sem) at "
		    "tests/debug_rwsem_exit_held.c:14", "the thread is exiting")
