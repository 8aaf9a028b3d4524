// SPDX-License-Identifier: MIT
/*
 * debug_clean_intr - a lock held across an interruptible wait that a
 * signal interrupts is no bug, nor one held across a wait that never
 * returns (the process exits meanwhile): no report.
 */
#include <linux/mutex.h>

#include "debug_harness.h"

static DEFINE_MUTEX(held_across);
static DEFINE_MUTEX(contended);
static DEFINE_MUTEX(forever_held);
static DEFINE_MUTEX(never_free);
static volatile int waiting, interrupted;

static void on_usr1(int sig)
{
	(void)sig;
}

/*
 * Not checked by clang -Wthread-safety: lock results checked by CHECK_EQ,
 * which the analysis cannot read.
 */
static __no_context_analysis void *waiter(void *arg)
{
	mutex_lock(&held_across);
	__atomic_store_n(&waiting, 1, __ATOMIC_RELEASE);
	CHECK_EQ(mutex_lock_interruptible(&contended), -EINTR);
	__atomic_store_n(&interrupted, 1, __ATOMIC_RELEASE);
	mutex_unlock(&held_across);
	/* Again, and this time it gets the lock. */
	mutex_lock(&held_across);
	CHECK_EQ(mutex_lock_killable(&contended), 0);
	mutex_unlock(&contended);
	mutex_unlock(&held_across);
	return arg;
}

/* Not checked by clang -Wthread-safety: exits holding locks on purpose. */
static __no_context_analysis void *stuck(void *arg)
{
	mutex_lock(&forever_held);
	(void)mutex_lock_interruptible(&never_free);	/* never returns */
	return arg;
}

/* Not checked by clang -Wthread-safety: exits holding a lock on purpose. */
static __no_context_analysis void clean(void)
{
	pthread_t t, s;

	test_handle_signal(SIGUSR1, on_usr1, SA_RESTART);
	mutex_lock(&contended);
	CHECK(pthread_create(&t, NULL, waiter, NULL) == 0);
	WAIT_UNTIL(__atomic_load_n(&waiting, __ATOMIC_ACQUIRE) &&
		   test_waiters(&contended.wait_list) == 1, 10000);
	while (!__atomic_load_n(&interrupted, __ATOMIC_ACQUIRE)) {
		pthread_kill(t, SIGUSR1);
		test_sleep_ms(5);
	}
	mutex_unlock(&contended);
	pthread_join(t, NULL);

	mutex_lock(&never_free);
	CHECK(pthread_create(&s, NULL, stuck, NULL) == 0);
	WAIT_UNTIL(test_waiters(&never_free.wait_list) == 1, 10000);
	/* exit() with s still waiting, holding forever_held: fine */
}

DEBUG_EXPECT_CLEAN(clean)
