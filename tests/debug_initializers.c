// SPDX-License-Identifier: MIT
/*
 * debug_initializers - in the debugging build, the static initialisers
 * used as members of a static struct (kernel style: .sem =
 * __SEMAPHORE_INITIALIZER(obj.sem, 2), ...) make objects that pass the
 * checks: each one's magic is its own address (else the first use is
 * reported: "DEBUG_LOCKS_WARN_ON(x->magic != x)"), and a mutex, a
 * semaphore, an rwsem, a completion and a DEFINE_PERCPU_RWSEM used
 * right, from several threads, produce no report.
 */
#include <linux/completion.h>
#include <linux/mutex.h>
#include <linux/percpu-rwsem.h>
#include <linux/rwsem.h>
#include <linux/semaphore.h>

#include "debug_harness.h"

#define NTHREADS	4
#define ROUNDS		2000

static struct object {
	struct mutex lock;
	struct semaphore sem;
	struct rw_semaphore rw;
	struct completion done;
	long n_lock, n_sem, n_rw, n_pcpu;	/* each under its own lock */
} obj = {
	.lock = __MUTEX_INITIALIZER(obj.lock),
	.sem = __SEMAPHORE_INITIALIZER(obj.sem, 2),
	.rw = __RWSEM_INITIALIZER(obj.rw),
	.done = COMPLETION_INITIALIZER(obj.done),
};

DEFINE_PERCPU_RWSEM(debug_init_pcpu);

static void *worker(void *arg)
{
	int i;

	for (i = 0; i < ROUNDS; i++) {
		mutex_lock(&obj.lock);
		obj.n_lock++;
		mutex_unlock(&obj.lock);
		down(&obj.sem);		/* two at a time */
		__atomic_add_fetch(&obj.n_sem, 1, __ATOMIC_RELAXED);
		up(&obj.sem);
		down_write(&obj.rw);
		obj.n_rw++;
		up_write(&obj.rw);
		down_read(&obj.rw);
		up_read(&obj.rw);
		percpu_down_write(&debug_init_pcpu);
		obj.n_pcpu++;
		percpu_up_write(&debug_init_pcpu);
		percpu_down_read(&debug_init_pcpu);
		percpu_up_read(&debug_init_pcpu);
	}
	complete(&obj.done);
	return arg;
}

static void use_them(void)
{
	pthread_t t[NTHREADS];
	int i;

	for (i = 0; i < NTHREADS; i++)
		CHECK(pthread_create(&t[i], NULL, worker, NULL) == 0);
	for (i = 0; i < NTHREADS; i++)
		wait_for_completion(&obj.done);
	for (i = 0; i < NTHREADS; i++)
		CHECK(pthread_join(t[i], NULL) == 0);
	CHECK_EQ(obj.n_lock, (long)NTHREADS * ROUNDS);
	CHECK_EQ(obj.n_sem, (long)NTHREADS * ROUNDS);
	CHECK_EQ(obj.n_rw, (long)NTHREADS * ROUNDS);
	CHECK_EQ(obj.n_pcpu, (long)NTHREADS * ROUNDS);
	CHECK(!mutex_is_locked(&obj.lock));
}

DEBUG_EXPECT_CLEAN(use_them)
