// SPDX-License-Identifier: MIT
/*
 * debug_cycle_long - a cycle over three classes (A->B, B->C, C->A), each
 * link made by its own thread on its own instances: the graph is over
 * classes (one per mutex_init() line), so instances never taken together
 * still close the cycle.
 */
#include <linux/mutex.h>

#include "debug_harness.h"

struct res {
	struct mutex lock;
};

static struct res a[3], b[3], c[3];

DEBUG_FN void res_a_init(struct res *r) { mutex_init(&r->lock); }
DEBUG_FN void res_b_init(struct res *r) { mutex_init(&r->lock); }
DEBUG_FN void res_c_init(struct res *r) { mutex_init(&r->lock); }

DEBUG_FN void nest(struct res *outer, struct res *inner)
{
	mutex_lock(&outer->lock);
	mutex_lock(&inner->lock);
	mutex_unlock(&inner->lock);
	mutex_unlock(&outer->lock);
}

DEBUG_FN void *link_ab(void *arg) { nest(&a[0], &b[0]); return arg; }
DEBUG_FN void *link_bc(void *arg) { nest(&b[1], &c[1]); return arg; }
DEBUG_FN void *link_ca(void *arg)
{
	nest(&c[2], &a[2]);
	nest(&c[0], &a[1]);	/* same classes: not reported again */
	return arg;
}

static void run(void *(*fn)(void *))
{
	pthread_t t;

	CHECK(pthread_create(&t, NULL, fn, NULL) == 0);
	pthread_join(t, NULL);
}

static void bug(void)
{
	int i;

	for (i = 0; i < 3; i++) {
		res_a_init(&a[i]);
		res_b_init(&b[i]);
		res_c_init(&c[i]);
	}
	run(link_ab);
	run(link_bc);
	run(link_ca);
}

DEBUG_EXPECT_REPORT(bug,
		    "WARNING: possible circular locking dependency detected",
		    "\"&r->lock\"", "Chain exists of", "link_ab+", "link_bc+",
		    "link_ca+", "nest+", "-> #2:", "*** DEADLOCK ***")
