// SPDX-License-Identifier: MIT
/*
 * debug_free_clean - free() of objects whose locks are not held is
 * quiet, also while the thread holds other locks, beside them in the
 * same allocation, from more threads than CPUs; so are free(NULL) and a
 * mutex unlocked and destroyed just before its memory goes.
 */
#include <linux/mutex.h>
#include <linux/rwsem.h>

#include "debug_harness.h"

#define NTHREADS	8
#define ROUNDS		20000

struct obj {
	struct mutex lock;
	struct rw_semaphore sem;
	long value;
};

static DECLARE_RWSEM(registry);

static void *churn(void *arg)
{
	struct obj *keep = calloc(2, sizeof(*keep));
	int k;

	CHECK(keep);
	mutex_init(&keep[0].lock);
	init_rwsem(&keep[1].sem);
	for (k = 0; k < ROUNDS; k++) {
		struct obj *o = malloc(sizeof(*o) + (size_t)(k % 64));

		CHECK(o);
		mutex_init(&o->lock);
		init_rwsem(&o->sem);
		down_read(&registry);
		mutex_lock(&keep[0].lock);	/* held while others go */
		mutex_lock(&o->lock);
		o->value = k;
		mutex_unlock(&o->lock);
		mutex_destroy(&o->lock);
		down_write(&o->sem);
		up_write(&o->sem);
		free(o);
		free(NULL);
		mutex_unlock(&keep[0].lock);
		up_read(&registry);
	}
	free(keep);
	return arg;
}

static void clean(void)
{
	pthread_t t[NTHREADS];
	int i;

	for (i = 0; i < NTHREADS; i++)
		CHECK(pthread_create(&t[i], NULL, churn, NULL) == 0);
	for (i = 0; i < NTHREADS; i++)
		pthread_join(t[i], NULL);
}

DEBUG_EXPECT_CLEAN(clean)
