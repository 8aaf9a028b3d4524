// SPDX-License-Identifier: MIT
/*
 * debug_clean_fork - fork() with a mutex held, the child unlocking it
 * (the pthread_atfork pattern), while other threads lock and unlock:
 * the child is a new thread with a new tid holding the parent's locks,
 * and the checker must follow without a report (nor hang on its own
 * lock, which another thread may have held at the fork).
 */
#include <linux/mutex.h>

#include "debug_harness.h"

static DEFINE_MUTEX(before_fork);
static DEFINE_MUTEX(busy);
static volatile int stop;

static void *spinner(void *arg)
{
	while (!__atomic_load_n(&stop, __ATOMIC_RELAXED)) {
		mutex_lock(&busy);
		mutex_unlock(&busy);
	}
	return arg;
}

static void clean(void)
{
	pthread_t t;
	int i, status;

	CHECK(pthread_create(&t, NULL, spinner, NULL) == 0);
	for (i = 0; i < 20; i++) {
		pid_t pid;

		mutex_lock(&before_fork);
		pid = fork();
		CHECK(pid >= 0);
		mutex_unlock(&before_fork);
		if (pid == 0) {
			/* Not busy: the spinner, gone here, may hold it. */
			mutex_lock(&before_fork);
			mutex_unlock(&before_fork);
			_exit(0);
		}
		CHECK(waitpid(pid, &status, 0) == pid);
		CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	}
	__atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
	pthread_join(t, NULL);
}

DEBUG_EXPECT_CLEAN(clean)
