// SPDX-License-Identifier: MIT
/*
 * debug_recursive - a thread takes a lock it holds, a real deadlock,
 * reported ("possible recursive locking detected") before the thread
 * blocks: a mutex locked twice, and write after read on one rwsem (the
 * writer waits for its own reader).  The second lock is interruptible
 * (killable) and a helper thread sends signals, so that the program can
 * go on after the report (as a real one would not); the bug is done
 * twice and reported once.
 */
#include <linux/mutex.h>
#include <linux/rwsem.h>

#include "debug_harness.h"

static DEFINE_MUTEX(lock_a);
static DECLARE_RWSEM(cfg_sem);
static pthread_t main_thread;
static int done;

DEBUG_FN void take_twice(void)
{
	mutex_lock(&lock_a);
	CHECK_EQ(mutex_lock_interruptible(&lock_a), -EINTR);
	mutex_unlock(&lock_a);
}

DEBUG_FN void read_then_write(void)
{
	down_read(&cfg_sem);
	CHECK_EQ(down_write_killable(&cfg_sem), -EINTR);
	up_read(&cfg_sem);
}

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

/* @deadlock twice (reported once), signals ending each wait. */
static void twice_kicked(void (*deadlock)(void))
{
	pthread_t t;

	test_handle_signal(SIGUSR1, on_usr1, 0);
	main_thread = pthread_self();
	CHECK(pthread_create(&t, NULL, kicker, NULL) == 0);
	deadlock();
	deadlock();		/* the same problem: not reported again */
	__atomic_store_n(&done, 1, __ATOMIC_RELEASE);
	pthread_join(t, NULL);
}

static void mutex_bug(void)
{
	twice_kicked(take_twice);
	CHECK(!mutex_is_locked(&lock_a));
}

static void rwsem_bug(void)
{
	twice_kicked(read_then_write);
	CHECK(!rwsem_is_locked(&cfg_sem));
}

#define TITLE	"WARNING: possible recursive locking detected"
DEBUG_EXPECT_REPORTS(
	DEBUG_CASE(mutex_bug, TITLE, "is trying to acquire lock:\n  \"lock_a\"",
		   "but the thread is already holding lock:\n  \"lock_a\"",
		   "take_twice+",
		   "*** DEADLOCK ***",
		   "mutex_lock_interruptible(&lock_a) at "
		   "tests/debug_recursive.c:24"),
	DEBUG_CASE(rwsem_bug, TITLE, "\"cfg_sem\"", "read_then_write+",
		   "down_read(&cfg_sem) at tests/debug_recursive.c:30",
		   "down_write_killable(&cfg_sem) at "
		   "tests/debug_recursive.c:31"))
