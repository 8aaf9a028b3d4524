// SPDX-License-Identifier: MIT
/*
 * debug_init_held - mutex_init() of a mutex that is held:
 * DEBUG_LOCKS_WARN_ON(mutex_is_locked(lock)).
 */
#include <linux/mutex.h>

#include "debug_harness.h"

static struct mutex m;

/* One mutex_init() line: one class, however often it runs. */
DEBUG_FN void m_init(void)
{
	mutex_init(&m);
}

DEBUG_FN void reinit_while_held(void)
{
	mutex_lock(&m);
	m_init();
	mutex_unlock(&m);	/* not held any more: bad unlock, reported */
}

static void bug(void)
{
	m_init();
	reinit_while_held();
	reinit_while_held();	/* reported once */
	mutex_lock(&m);
	mutex_unlock(&m);
}

DEBUG_EXPECT_REPORT(bug, "WARNING: DEBUG_LOCKS_WARN_ON(mutex_is_locked(lock))",
		    "\"&m\"", "mutex_init(&m) at tests/debug_init_held.c:15",
		    "reinit_while_held+", "held by ")
