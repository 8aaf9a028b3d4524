// SPDX-License-Identifier: MIT
/*
 * race_up_free.c - up() must be done with a semaphore once its unit can
 * be taken (issue 15, bug 2).
 *
 * The sequence, forced with the race points of the library variant
 * built for this test (src/race.h):
 *   1. up() sees count -1 (a waiter) and heads for wait_lock; stalled.
 *   2. The waiter gives up (a signal: -EINTR) and leaves: count 0.
 *   3. up() goes on and makes the unit visible; stalled again.
 *   4. The waiter's thread takes the unit with down_trylock() and frees
 *      the semaphore: here, munmap()s the page it lives on.
 *   5. up() returns.  Any touch of the semaphore after step 3 (as the
 *      old up() released wait_lock after publishing the unit) now
 *      faults, and the test dies with SIGSEGV.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <sys/mman.h>

#include <linux/semaphore.h>

#include "../src/race.h"
#include "harness.h"

static struct semaphore *sem;
static pthread_t upper, waiter;
static volatile int at_locking, left, freed;

static void hook(int point)
{
	if (!pthread_equal(pthread_self(), upper))
		return;
	if (point == KMUTEX_RACE_UP_LOCKING && !left) {
		at_locking = 1;
		/* Again and again: one that comes before it sleeps is lost. */
		while (!POLL_UNTIL(left, 2))
			CHECK(pthread_kill(waiter, SIGUSR1) == 0);
	}
	if (point == KMUTEX_RACE_UP_PUBLISHED) {
		/* Give the waiter's thread time to take it and free. */
		POLL_UNTIL(freed, 200);
	}
}

static void on_signal(int sig)
{
	(void)sig;
}

static void *up_thread(void *arg)
{
	(void)arg;
	/* Wait for the waiter to queue: count -1. */
	WAIT_UNTIL(__atomic_load_n(&sem->count, __ATOMIC_ACQUIRE) < 0, 5000);
	up(sem);
	return NULL;
}

int main(void)
{
	long page = sysconf(_SC_PAGESIZE);
	void *mem;
	int i;

	test_watchdog(60);
	kmutex_race_hook = hook;
	waiter = pthread_self();
	test_handle_signal(SIGUSR1, on_signal, 0);
	for (i = 0; i < 20; i++) {
		mem = mmap(NULL, page, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		CHECK(mem != MAP_FAILED);
		sem = mem;
		sema_init(sem, 0);
		at_locking = left = freed = 0;
		CHECK(pthread_create(&upper, NULL, up_thread, NULL) == 0);
		/* Queue, and stay until up() is stalled on its way in. */
		CHECK_EQ(down_interruptible(sem), -EINTR);
		CHECK(at_locking);
		left = 1;
		WAIT_UNTIL(down_trylock(sem) == 0, 5000);
		CHECK(munmap(mem, page) == 0);
		freed = 1;
		CHECK(pthread_join(upper, NULL) == 0);
	}
	return 0;
}
