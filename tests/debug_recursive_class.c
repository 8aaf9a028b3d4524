// SPDX-License-Identifier: MIT
/*
 * debug_recursive_class - two mutexes initialised at one mutex_init()
 * line are one class; nesting them without mutex_lock_nested() is
 * "possible recursive locking detected" (another thread may nest them
 * the other way), though nothing deadlocks here.
 */
#include <linux/mutex.h>

#include "debug_harness.h"

struct obj {
	struct mutex lock;
	int value;
};

static struct obj o1, o2;

DEBUG_FN void obj_init(struct obj *o)
{
	mutex_init(&o->lock);
}

DEBUG_FN void move_value(struct obj *from, struct obj *to)
{
	mutex_lock(&from->lock);
	mutex_lock(&to->lock);
	to->value += from->value;
	from->value = 0;
	mutex_unlock(&to->lock);
	mutex_unlock(&from->lock);
}

static void bug(void)
{
	obj_init(&o1);
	obj_init(&o2);
	move_value(&o1, &o2);
	move_value(&o2, &o1);	/* same class pair: not reported again */
}

DEBUG_EXPECT_REPORT(bug, "WARNING: possible recursive locking detected",
		    "\"&o->lock\"", "(init at tests/debug_recursive_class.c:",
		    "move_value+", "missing lock nesting notation")
