// SPDX-License-Identifier: MIT
/*
 * debug_destroyed - locking a mutex after mutex_destroy():
 * DEBUG_LOCKS_WARN_ON, naming the mutex.
 */
#include <linux/mutex.h>

#include "debug_harness.h"

struct conn {
	struct mutex lock;
};

static struct conn c;

DEBUG_FN void conn_close(struct conn *x)
{
	mutex_destroy(&x->lock);
}

DEBUG_FN void conn_use(struct conn *x)
{
	mutex_lock(&x->lock);
	mutex_unlock(&x->lock);
}

static void bug(void)
{
	mutex_init(&c.lock);
	conn_use(&c);
	conn_close(&c);
	conn_use(&c);
	conn_use(&c);		/* reported once */
}

DEBUG_EXPECT_REPORT(bug, "WARNING: DEBUG_LOCKS_WARN_ON(lock->magic != lock)",
		    "\"&c.lock\"", "was destroyed", "conn_use+",
		    "init at tests/debug_destroyed.c:29")
