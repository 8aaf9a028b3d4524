// SPDX-License-Identifier: MIT
/*
 * debug_exit_held - a thread exits holding a lock (a mutex; a rwsem for
 * reading): "still has locks held", from the thread-exit hook.
 */
#include <linux/mutex.h>
#include <linux/rwsem.h>

#include "debug_harness.h"

static DEFINE_MUTEX(forgotten);
static DECLARE_RWSEM(forgotten_sem);

DEBUG_FN __no_context_analysis void grab_and_leave(void)
{
	mutex_lock(&forgotten);
}

DEBUG_FN __no_context_analysis void read_and_leave(void)
{
	down_read(&forgotten_sem);
}

static void *leaver(void *arg)
{
	void (*take)(void) = (void (*)(void))arg;

	pthread_setname_np(pthread_self(), "leaver");
	take();
	return NULL;
}

/* A thread named "leaver" runs @take, then exits. */
static void leave_holding(void (*take)(void))
{
	pthread_t t;

	CHECK(pthread_create(&t, NULL, leaver, (void *)take) == 0);
	pthread_join(t, NULL);
}

static void mutex_bug(void)
{
	leave_holding(grab_and_leave);
}

static void rwsem_bug(void)
{
	leave_holding(read_and_leave);
}

#define TITLE	"still has locks held!"
DEBUG_EXPECT_REPORTS(
	DEBUG_CASE(mutex_bug, TITLE, "WARNING: leaver/", "\"forgotten\"",
		   "grab_and_leave+", "the thread is exiting"),
	DEBUG_CASE(rwsem_bug, TITLE, "WARNING: leaver/", "\"forgotten_sem\"",
		   "read_and_leave+",
		   "down_read(&forgotten_sem) at tests/debug_exit_held.c:21",
		   "the thread is exiting"))
