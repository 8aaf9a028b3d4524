// SPDX-License-Identifier: MIT
/*
 * debug_rwsem_recursive_write - write after read on one rwsem in one
 * thread: a real deadlock (the writer waits for its own reader), which
 * is reported before the thread blocks.  down_write_killable() lets a
 * signal end the wait so that the test can go on.
 */
#include <linux/rwsem.h>

#include "debug_harness.h"

static DECLARE_RWSEM(cfg_sem);
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

DEBUG_FN void read_then_write(void)
{
	down_read(&cfg_sem);
	CHECK_EQ(down_write_killable(&cfg_sem), -EINTR);
	up_read(&cfg_sem);
}

static void bug(void)
{
	pthread_t t;

	test_handle_signal(SIGUSR1, on_usr1, 0);
	main_thread = pthread_self();
	CHECK(pthread_create(&t, NULL, kicker, NULL) == 0);
	read_then_write();
	read_then_write();	/* not reported again */
	__atomic_store_n(&done, 1, __ATOMIC_RELEASE);
	pthread_join(t, NULL);
	CHECK(!rwsem_is_locked(&cfg_sem));
}

DEBUG_EXPECT_REPORT(bug, "WARNING: possible recursive locking detected",
		    "\"cfg_sem\"", "read_then_write+",
		    "down_read(&cfg_sem) at tests/debug_rwsem_recursive_write.c:32",
		    "down_write_killable(&cfg_sem) at "
		    "tests/debug_rwsem_recursive_write.c:33")
