// SPDX-License-Identifier: MIT
/*
 * debug_cycle - ABBA: one thread takes alpha then beta, a later thread
 * beta then alpha.  They never overlap, nothing deadlocks, and still
 * "possible circular locking dependency detected": the orders were taken.
 */
#include <linux/mutex.h>

#include "debug_harness.h"

static DEFINE_MUTEX(alpha);
static DEFINE_MUTEX(beta);

DEBUG_FN void *take_alpha_beta(void *arg)
{
	pthread_setname_np(pthread_self(), "first");
	mutex_lock(&alpha);
	mutex_lock(&beta);
	mutex_unlock(&beta);
	mutex_unlock(&alpha);
	return arg;
}

DEBUG_FN void *take_beta_alpha(void *arg)
{
	int i;

	pthread_setname_np(pthread_self(), "second");
	for (i = 0; i < 2; i++) {	/* reported once */
		mutex_lock(&beta);
		mutex_lock(&alpha);
		mutex_unlock(&alpha);
		mutex_unlock(&beta);
	}
	return arg;
}

static void bug(void)
{
	pthread_t t;

	CHECK(pthread_create(&t, NULL, take_alpha_beta, NULL) == 0);
	pthread_join(t, NULL);
	CHECK(pthread_create(&t, NULL, take_beta_alpha, NULL) == 0);
	pthread_join(t, NULL);
}

DEBUG_EXPECT_REPORT(bug,
		    "WARNING: possible circular locking dependency detected",
		    "\"alpha\"", "\"beta\"", "take_alpha_beta+",
		    "take_beta_alpha+", "first made by first/",
		    "second/", "Possible unsafe locking scenario",
		    "*** DEADLOCK ***", "init at tests/debug_cycle.c:11")
