// SPDX-License-Identifier: MIT
/*
 * debug_freed - memory freed while a lock in it is held by another
 * thread: debug_check_no_locks_freed() reports "held lock freed".
 */
#include <linux/mutex.h>

#include "debug_harness.h"

struct session {
	long id;
	struct mutex lock;
};

static volatile int taken, done;

DEBUG_FN void session_init(struct session *s)
{
	mutex_init(&s->lock);
}

DEBUG_FN void *session_worker(void *arg)
{
	struct session *s = arg;

	mutex_lock(&s->lock);
	__atomic_store_n(&taken, 1, __ATOMIC_RELEASE);
	WAIT_UNTIL(__atomic_load_n(&done, __ATOMIC_ACQUIRE), 10000);
	/* The memory was "freed" (kept alive by the test): unlock anyway. */
	mutex_unlock(&s->lock);
	return NULL;
}

DEBUG_FN void session_free(struct session *s)
{
	debug_check_no_locks_freed(s, sizeof(*s));
}

static void bug(void)
{
	struct session *s = calloc(2, sizeof(*s));
	pthread_t t;

	CHECK(s);
	session_init(&s[0]);
	session_init(&s[1]);
	CHECK(pthread_create(&t, NULL, session_worker, &s[0]) == 0);
	pthread_setname_np(t, "worker");
	WAIT_UNTIL(__atomic_load_n(&taken, __ATOMIC_ACQUIRE), 10000);
	session_free(&s[1]);		/* not held: fine */
	session_free(&s[0]);
	session_free(&s[0]);		/* reported once */
	__atomic_store_n(&done, 1, __ATOMIC_RELEASE);
	pthread_join(t, NULL);
	free(s);
}

DEBUG_EXPECT_REPORT(bug, "WARNING: held lock freed!", "\"&s->lock\"",
		    "held by worker/", "session_worker+", "session_free+",
		    "init at tests/debug_freed.c:19")
