// SPDX-License-Identifier: MIT
/*
 * debug_nest_lock_chain - the nesting [outer, y1, y2] validated under
 * mutex_lock_nest_lock(), then taken again without it (plain
 * mutex_lock()s): "possible recursive locking detected".  lockdep folds
 * a nest_lock acquisition into the held entry of its class, so the
 * later plain nesting is a chain of its own and is checked; a chain
 * cache keyed on class ids alone took it for the one seen before.
 */
#include <linux/mutex.h>

#include "debug_harness.h"

static DEFINE_MUTEX(outer);

struct item {
	struct mutex lock;
};

static struct item y1, y2;

DEBUG_FN void item_init(struct item *it)
{
	mutex_init(&it->lock);	/* one class for every item */
}

DEBUG_FN void nest_under_outer(void)
{
	mutex_lock(&outer);
	mutex_lock_nest_lock(&y1.lock, &outer);
	mutex_lock_nest_lock(&y2.lock, &outer);
	mutex_unlock(&y2.lock);
	mutex_unlock(&y1.lock);
	mutex_unlock(&outer);
}

DEBUG_FN void nest_plain(void)
{
	mutex_lock(&outer);
	mutex_lock(&y1.lock);
	mutex_lock(&y2.lock);		/* the bug */
	mutex_unlock(&y2.lock);
	mutex_unlock(&y1.lock);
	mutex_unlock(&outer);
}

static void bug(void)
{
	item_init(&y1);
	item_init(&y2);
	nest_under_outer();
	nest_under_outer();		/* silent */
	nest_plain();
	nest_plain();			/* reported once */
}

DEBUG_EXPECT_REPORT(bug, "WARNING: possible recursive locking detected",
		    "\"&it->lock\"", "nest_plain+",
		    "missing lock nesting notation")
