// SPDX-License-Identifier: MIT
/*
 * debug_hung_mutex - KMUTEX_DEBUG_HUNG=1: a thread waits on a mutex that
 * another holds for 4 s: "INFO: task waiter:TID blocked for more than 1
 * seconds.", naming the mutex, its owner, every thread's held locks
 * and where the wait started.
 */
#include <linux/mutex.h>

#include "debug_hung.h"

static DEFINE_MUTEX(big_lock);
static DEFINE_MUTEX(outer);
static volatile int held;

static void *holder(void *arg)
{
	pthread_setname_np(pthread_self(), "holder");
	mutex_lock(&big_lock);
	__atomic_store_n(&held, 1, __ATOMIC_RELEASE);
	hung_sleep_ms(HUNG_HOLD_MS);
	mutex_unlock(&big_lock);
	return arg;
}

DEBUG_FN void wait_for_big_lock(void)
{
	mutex_lock(&outer);
	mutex_lock(&big_lock);
	mutex_unlock(&big_lock);
	mutex_unlock(&outer);
}

static void *waiter(void *arg)
{
	pthread_setname_np(pthread_self(), "waiter");
	wait_for_big_lock();
	return arg;
}

static void bug(void)
{
	pthread_t h, w;

	CHECK(pthread_create(&h, NULL, holder, NULL) == 0);
	while (!__atomic_load_n(&held, __ATOMIC_ACQUIRE))
		hung_sleep_ms(1);
	CHECK(pthread_create(&w, NULL, waiter, NULL) == 0);
	pthread_join(w, NULL);
	pthread_join(h, NULL);
}

HUNG_EXPECT_REPORT("1", bug, "INFO: task waiter:",
		   "in mutex_lock(&big_lock) at tests/debug_hung_mutex.c:",
		   "for the mutex:\n  \"big_lock\" (init at ",
		   ", held by holder/",
		   "Showing all locks held in the system:",
		   "1 lock held by holder/", "1 lock held by waiter/",
		   "\"outer\"", "wait_for_big_lock+")
