// SPDX-License-Identifier: MIT
/*
 * mutex_trylock.c - mutex_trylock returns 1 when it takes the lock, 0
 * when anyone (another thread, or the caller itself) holds it, and never
 * sleeps.
 *
 * "Never sleeps" is checked by the kernel's own account: a million
 * failing trylocks against a lock held by another thread must add
 * (almost) no voluntary context switches to the calling thread, and
 * finish well within a generous time bound.
 */
#include <linux/mutex.h>

#include "harness.h"

#define TRIES 1000000

static DEFINE_MUTEX(lock);
static int holding, release;

static void *locker(void *arg)
{
	(void)arg;
	mutex_lock(&lock);
	mutex_unlock(&lock);
	return NULL;
}

static void *holder(void *arg)
{
	(void)arg;
	mutex_lock(&lock);
	__atomic_store_n(&holding, 1, __ATOMIC_RELEASE);
	/* Sleep in a way that does not touch the mutex. */
	while (!__atomic_load_n(&release, __ATOMIC_ACQUIRE))
		test_sleep_ms(1);
	mutex_unlock(&lock);
	return NULL;
}

/* Fails TRIES times in a row without sleeping. */
static void check_never_sleeps(void)
{
	long sleeps, fails = 0;
	uint64_t t0, took;
	int i;

	t0 = test_now_ns();
	sleeps = test_thread_sleeps();
	for (i = 0; i < TRIES; i++)
		fails += !mutex_trylock(&lock);
	sleeps = test_thread_sleeps() - sleeps;
	took = test_now_ns() - t0;
	printf("%d failed trylocks: %.1f ms, %ld voluntary context "
	       "switches\n", TRIES, took / 1e6, sleeps);
	CHECK_EQ(fails, TRIES);
	/* A sleeping trylock would switch once per call. */
	CHECK(sleeps <= 5);
	CHECK(took < 5000000000ull);
}

/*
 * Not checked by clang -Wthread-safety: lock results checked by CHECK_EQ,
 * which the analysis cannot read.
 */
__no_context_analysis int main(void)
{
	pthread_t t, w;

	test_watchdog(60);

	/* Free: taken; then held by self: refused, still held. */
	CHECK_EQ(mutex_trylock(&lock), 1);
	CHECK_EQ(lock.count, 0);
	CHECK_EQ(mutex_trylock(&lock), 0);
	CHECK_EQ(lock.count, 0);
	CHECK(mutex_is_locked(&lock));
	mutex_unlock(&lock);
	CHECK_EQ(lock.count, 1);

	/* Held by another thread: refused every time, without sleeping. */
	CHECK(pthread_create(&t, NULL, holder, NULL) == 0);
	WAIT_UNTIL(__atomic_load_n(&holding, __ATOMIC_ACQUIRE), 5000);
	check_never_sleeps();
	CHECK_EQ(lock.count, 0);	/* failed tries left no trace */

	/* Held with a waiter queued: refused, and the waiter stays marked. */
	CHECK(pthread_create(&w, NULL, locker, NULL) == 0);
	WAIT_UNTIL(test_waiters(&lock.wait_list) == 1, 5000);
	CHECK(lock.count < 0);
	check_never_sleeps();
	CHECK(lock.count < 0);
	__atomic_store_n(&release, 1, __ATOMIC_RELEASE);
	CHECK(pthread_join(t, NULL) == 0);
	CHECK(pthread_join(w, NULL) == 0);

	/* Released: taken again, and trylock + unlock leave it as it was. */
	CHECK_EQ(lock.count, 1);
	CHECK_EQ(mutex_trylock(&lock), 1);
	CHECK(mutex_is_locked(&lock));
	mutex_unlock(&lock);
	CHECK_EQ(lock.count, 1);
	CHECK(!mutex_is_locked(&lock));
	return 0;
}
