// SPDX-License-Identifier: MIT
/*
 * debug_recursive - a thread locks a mutex it holds: "possible recursive
 * locking detected", reported before the thread deadlocks.  The second
 * lock is interruptible and a helper thread sends signals, so that the
 * program can go on after the report (as a real one would not).
 */
#include <linux/mutex.h>

#include "debug_harness.h"

static DEFINE_MUTEX(lock_a);
static pthread_t main_thread;
static int done;

static void on_usr1(int sig)
{
	(void)sig;
}

static void *kicker(void *arg)
{
	while (!__atomic_load_n(&done, __ATOMIC_ACQUIRE)) {
		pthread_kill(main_thread, SIGUSR1);
		test_sleep_ms(20);
	}
	return arg;
}

DEBUG_FN void take_twice(void)
{
	mutex_lock(&lock_a);
	CHECK_EQ(mutex_lock_interruptible(&lock_a), -EINTR);
	mutex_unlock(&lock_a);
}

static void bug(void)
{
	pthread_t t;

	test_handle_signal(SIGUSR1, on_usr1, 0);
	main_thread = pthread_self();
	CHECK(pthread_create(&t, NULL, kicker, NULL) == 0);
	take_twice();
	take_twice();		/* the same problem: not reported again */
	__atomic_store_n(&done, 1, __ATOMIC_RELEASE);
	pthread_join(t, NULL);
}

DEBUG_EXPECT_REPORT(bug, "WARNING: possible recursive locking detected",
		    "\"lock_a\"", "take_twice+", "*** DEADLOCK ***",
		    "mutex_lock_interruptible(&lock_a) at "
		    "tests/debug_recursive.c:33")
