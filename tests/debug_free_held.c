// SPDX-License-Identifier: MIT
/*
 * debug_free_held - free() of an object whose mutex the calling thread
 * holds: the debugging build's free() hook reports "held lock freed",
 * naming the lock and the function that frees it.  The freed lock then
 * leaves the thread's held locks (its memory is gone).
 */
#include <linux/mutex.h>

#include "debug_harness.h"

struct session {
	long id;
	struct mutex lock;
};

static struct session *session_new(void)
{
	struct session *s = calloc(1, sizeof(*s));

	CHECK(s);
	mutex_init(&s->lock);
	return s;
}

DEBUG_FN __no_context_analysis void session_close(struct session *s)
{
	mutex_lock(&s->lock);
	s->id = -1;
	free(s);		/* still locked */
}

static void bug(void)
{
	static DEFINE_MUTEX(other);

	free(session_new());	/* not held: fine */
	session_close(session_new());
	session_close(session_new());	/* reported once */
	mutex_lock(&other);
	mutex_unlock(&other);
	debug_check_no_locks_held();	/* the freed locks are forgotten */
}

DEBUG_EXPECT_REPORT(bug, "WARNING: held lock freed!", "\"&s->lock\"",
		    "init at tests/debug_free_held.c:22", "session_close+",
		    "mutex_lock(&s->lock) at tests/debug_free_held.c:28")
