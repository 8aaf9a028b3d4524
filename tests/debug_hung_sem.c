// SPDX-License-Identifier: MIT
/*
 * debug_hung_sem - KMUTEX_DEBUG_HUNG=1: a down() on a semaphore with no
 * unit left, for 4 s, is reported, naming the semaphore.
 */
#include <linux/semaphore.h>

#include "debug_hung.h"

static struct semaphore slots;

static void *giver(void *arg)
{
	hung_sleep_ms(HUNG_HOLD_MS);
	up(&slots);
	return arg;
}

DEBUG_FN void take_slot(void)
{
	down(&slots);
}

static void bug(void)
{
	pthread_t g;

	pthread_setname_np(pthread_self(), "taker");
	sema_init(&slots, 0);
	CHECK(pthread_create(&g, NULL, giver, NULL) == 0);
	take_slot();
	pthread_join(g, NULL);
}

HUNG_EXPECT_REPORT("1", bug, "INFO: task taker:",
		   "for the semaphore:\n  \"&slots\" (init at "
		   "tests/debug_hung_sem.c:", "take_slot+")
