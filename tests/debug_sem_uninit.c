// SPDX-License-Identifier: MIT
/*
 * debug_sem_uninit - a semaphore in zeroed memory, never initialised:
 * "DEBUG_LOCKS_WARN_ON", then it works (count 0, as the memory said).
 */
#include <linux/semaphore.h>

#include "debug_harness.h"

struct pool {
	long jobs;
	struct semaphore ready;
};

DEBUG_FN void pool_post(struct pool *p)
{
	up(&p->ready);
}

static void bug(void)
{
	struct pool *p = calloc(1, sizeof(*p));

	CHECK(p);
	pool_post(p);
	pool_post(p);		/* set up by the checker now */
	CHECK_EQ(down_trylock(&p->ready), 0);
	down(&p->ready);
	CHECK_EQ(down_trylock(&p->ready), 1);
	free(p);
}

DEBUG_EXPECT_REPORT(bug, "WARNING: DEBUG_LOCKS_WARN_ON(sem->magic != sem)",
		    "up(): the semaphore at", "was never initialised",
		    "pool_post+")
