// SPDX-License-Identifier: MIT
/*
 * debug_percpu_cycle - a percpu_rw_semaphore's writers are in the lock
 * graph: the mutex "journal" then percpu_down_write(&tree) in one
 * thread, percpu_down_write(&tree) then "journal" in a later one is a
 * cycle, reported once, naming the percpu rwsem by its variable (the
 * class of its percpu_init_rwsem() line, not the library's).
 */
#include <linux/mutex.h>
#include <linux/percpu-rwsem.h>

#include "debug_harness.h"

static DEFINE_MUTEX(journal);
static struct percpu_rw_semaphore tree;

DEBUG_FN void *journal_then_tree(void *arg)
{
	mutex_lock(&journal);
	percpu_down_write(&tree);
	percpu_up_write(&tree);
	mutex_unlock(&journal);
	return arg;
}

DEBUG_FN void *tree_then_journal(void *arg)
{
	percpu_down_write(&tree);
	mutex_lock(&journal);
	mutex_unlock(&journal);
	percpu_up_write(&tree);
	return arg;
}

static void bug(void)
{
	pthread_t t;

	CHECK(percpu_init_rwsem(&tree) == 0);
	CHECK(pthread_create(&t, NULL, journal_then_tree, NULL) == 0);
	pthread_join(t, NULL);
	CHECK(pthread_create(&t, NULL, tree_then_journal, NULL) == 0);
	pthread_join(t, NULL);
	percpu_free_rwsem(&tree);
}

DEBUG_EXPECT_REPORT(bug,
		    "WARNING: possible circular locking dependency detected",
		    "\"journal\"", "&tree", "journal_then_tree+",
		    "tree_then_journal+",
		    "mutex_lock(&journal) at tests/debug_percpu_cycle.c:29")
