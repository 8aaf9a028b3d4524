// SPDX-License-Identifier: MIT
/*
 * debug_rwsem_uninit - a rwsem in zeroed memory, never initialised:
 * "DEBUG_LOCKS_WARN_ON", then it works as an unlocked rwsem.
 */
#include <linux/rwsem.h>

#include "debug_harness.h"

struct cache {
	int hits;
	struct rw_semaphore sem;
};

DEBUG_FN void cache_hit(struct cache *c)
{
	down_read(&c->sem);
	c->hits++;
	up_read(&c->sem);
}

static void bug(void)
{
	struct cache *c = calloc(1, sizeof(*c));

	CHECK(c);
	cache_hit(c);
	cache_hit(c);		/* initialised by the checker now */
	down_write(&c->sem);
	up_write(&c->sem);
	CHECK_EQ(c->hits, 2);
	free(c);
}

DEBUG_EXPECT_REPORT(bug, "WARNING: DEBUG_LOCKS_WARN_ON(sem->magic != sem)",
		    "down_read(&c->sem) at tests/debug_rwsem_uninit.c:17",
		    "was never initialised", "cache_hit+")
