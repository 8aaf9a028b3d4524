// SPDX-License-Identifier: MIT
/*
 * debug_exit_held - a thread exits holding a mutex: "still has locks
 * held", from the thread-exit hook.
 */
#include <linux/mutex.h>

#include "debug_harness.h"

static DEFINE_MUTEX(forgotten);

DEBUG_FN __no_context_analysis void grab_and_leave(void)
{
	mutex_lock(&forgotten);
}

static void *leaver(void *arg)
{
	pthread_setname_np(pthread_self(), "leaver");
	grab_and_leave();
	return arg;
}

static void bug(void)
{
	pthread_t t;

	CHECK(pthread_create(&t, NULL, leaver, NULL) == 0);
	pthread_join(t, NULL);
}

DEBUG_EXPECT_REPORT(bug, "still has locks held!", "WARNING: leaver/",
		    "\"forgotten\"", "grab_and_leave+",
		    "the thread is exiting")
