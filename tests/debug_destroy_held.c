// SPDX-License-Identifier: MIT
/*
 * debug_destroy_held - mutex_destroy() of a mutex that is held:
 * DEBUG_LOCKS_WARN_ON(mutex_is_locked(lock)).
 */
#include <linux/mutex.h>

#include "debug_harness.h"

static struct mutex m;

DEBUG_FN __no_context_analysis void destroy_while_held(void)
{
	mutex_init(&m);
	mutex_lock(&m);
	mutex_destroy(&m);
}

static void bug(void)
{
	destroy_while_held();
	destroy_while_held();	/* reported once */
}

DEBUG_EXPECT_REPORT(bug, "WARNING: DEBUG_LOCKS_WARN_ON(mutex_is_locked(lock))",
		    "\"&m\"",
		    "mutex_destroy(&m) at tests/debug_destroy_held.c:16",
		    "destroy_while_held+")
