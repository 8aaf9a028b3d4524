// SPDX-License-Identifier: MIT
/*
 * debug_nest_lock_covered - lockdep's rule for mutex_lock_nest_lock():
 * a lock taken while a lock of its class and the nest lock are held
 * adds no dependency.  outer; y1 under outer; other; y2 under outer:
 * lockdep records outer -> y, outer -> other, y -> other and nothing for
 * y2, so no cycle y -> other -> y; silent.
 */
#include <linux/mutex.h>

#include "debug_harness.h"

static DEFINE_MUTEX(outer);
static DEFINE_MUTEX(other);

struct item {
	struct mutex lock;
};

static struct item y1, y2;

DEBUG_FN void item_init(struct item *it)
{
	mutex_init(&it->lock);	/* one class for every item */
}

static void clean(void)
{
	int i;

	item_init(&y1);
	item_init(&y2);
	for (i = 0; i < 2; i++) {
		mutex_lock(&outer);
		mutex_lock_nest_lock(&y1.lock, &outer);
		mutex_lock(&other);
		mutex_lock_nest_lock(&y2.lock, &outer);
		mutex_unlock(&y2.lock);
		mutex_unlock(&other);
		mutex_unlock(&y1.lock);
		mutex_unlock(&outer);
	}
}

DEBUG_EXPECT_CLEAN(clean)
