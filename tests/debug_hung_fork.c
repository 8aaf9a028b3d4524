// SPDX-License-Identifier: MIT
/*
 * debug_hung_fork - KMUTEX_DEBUG_HUNG=1 across fork(): the parent's
 * monitor thread is running (a contended wait started it) when the
 * program forks; the child, which has no monitor, starts its own on its
 * first wait, and its 4 s wait is reported.  Neither side deadlocks at
 * the fork or at exit.
 */
#include <linux/mutex.h>

#include "debug_hung.h"

static DEFINE_MUTEX(shared_lock);
static volatile int held;

static void *hold(void *arg)
{
	long ms = (long)arg;

	mutex_lock(&shared_lock);
	__atomic_store_n(&held, 1, __ATOMIC_RELEASE);
	hung_sleep_ms(ms);
	mutex_unlock(&shared_lock);
	return NULL;
}

/* A wait on shared_lock while another thread holds it for @ms. */
static void contended_wait(long ms)
{
	pthread_t t;

	__atomic_store_n(&held, 0, __ATOMIC_RELAXED);
	CHECK(pthread_create(&t, NULL, hold, (void *)ms) == 0);
	while (!__atomic_load_n(&held, __ATOMIC_ACQUIRE))
		hung_sleep_ms(1);
	mutex_lock(&shared_lock);
	mutex_unlock(&shared_lock);
	pthread_join(t, NULL);
}

DEBUG_FN void child_waits(void)
{
	contended_wait(HUNG_HOLD_MS);
}

static void bug(void)
{
	int status;
	pid_t pid;

	contended_wait(100);		/* the parent's monitor runs now */
	pid = fork();
	CHECK(pid >= 0);
	if (pid == 0) {
		pthread_setname_np(pthread_self(), "forked");
		child_waits();
		exit(0);
	}
	CHECK(waitpid(pid, &status, 0) == pid);
	if (WIFSIGNALED(status))	/* KMUTEX_DEBUG=abort in the child */
		raise(WTERMSIG(status));
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

HUNG_EXPECT_REPORT("1", bug, "INFO: task forked:",
		   "\"shared_lock\" (init at tests/debug_hung_fork.c:",
		   "child_waits+")
