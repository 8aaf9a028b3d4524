// SPDX-License-Identifier: MIT
/*
 * debug_rwsem_class - two rwsems of one class (one init_rwsem() line)
 * nested without down_write_nested(): "possible recursive locking
 * detected", naming both instances.  (With the subclass it is clean:
 * see debug_rwsem_clean.)
 */
#include <linux/rwsem.h>

#include "debug_harness.h"

struct dir {
	struct rw_semaphore sem;
};

static void dir_init(struct dir *d)
{
	init_rwsem(&d->sem);
}

DEBUG_FN void rename_in(struct dir *parent, struct dir *child)
{
	down_write(&parent->sem);
	down_write(&child->sem);
	up_write(&child->sem);
	up_write(&parent->sem);
}

static void bug(void)
{
	static struct dir a, b;

	dir_init(&a);
	dir_init(&b);
	rename_in(&a, &b);
	rename_in(&b, &a);	/* the same problem */
}

DEBUG_EXPECT_REPORT(bug, "WARNING: possible recursive locking detected",
		    "\"&d->sem\"", "down_write(&child->sem) at",
		    "down_write(&parent->sem) at", "rename_in+",
		    "init at tests/debug_rwsem_class.c:18",
		    "missing lock nesting notation")
