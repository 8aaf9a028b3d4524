// SPDX-License-Identifier: MIT
/*
 * debug_hung_short - no hung-task report for waits shorter than
 * KMUTEX_DEBUG_HUNG: a 0.2 s wait on a mutex, a semaphore and a
 * completion, with KMUTEX_DEBUG_HUNG=2.
 */
#include <linux/completion.h>
#include <linux/mutex.h>
#include <linux/semaphore.h>

#include "debug_hung.h"

static DEFINE_MUTEX(m);
static DEFINE_SEMAPHORE(sem, 0);
static DECLARE_COMPLETION(done);
static volatile int held;

static void *other(void *arg)
{
	mutex_lock(&m);
	__atomic_store_n(&held, 1, __ATOMIC_RELEASE);
	hung_sleep_ms(200);
	mutex_unlock(&m);
	hung_sleep_ms(200);
	up(&sem);
	hung_sleep_ms(200);
	complete(&done);
	return arg;
}

static void correct(void)
{
	pthread_t t;

	CHECK(pthread_create(&t, NULL, other, NULL) == 0);
	while (!__atomic_load_n(&held, __ATOMIC_ACQUIRE))
		hung_sleep_ms(1);
	mutex_lock(&m);
	mutex_unlock(&m);
	down(&sem);
	wait_for_completion(&done);
	pthread_join(t, NULL);
}

HUNG_EXPECT_CLEAN("2", correct)
