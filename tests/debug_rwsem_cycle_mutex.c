// SPDX-License-Identifier: MIT
/*
 * debug_rwsem_cycle_mutex - rwsems and mutexes are in one graph: the
 * mutex "journal" then a read lock of "tree" in one thread, a read lock
 * of "tree" then "journal" in a later one.  Only readers of the rwsem,
 * yet a writer waiting on "tree" between them would deadlock them: a
 * cycle.  The second order is taken twice, reported once.
 */
#include <linux/mutex.h>
#include <linux/rwsem.h>

#include "debug_harness.h"

static DEFINE_MUTEX(journal);
static DECLARE_RWSEM(tree);

DEBUG_FN void *journal_then_tree(void *arg)
{
	mutex_lock(&journal);
	down_read(&tree);
	up_read(&tree);
	mutex_unlock(&journal);
	return arg;
}

DEBUG_FN void *tree_then_journal(void *arg)
{
	down_read(&tree);
	mutex_lock(&journal);
	mutex_unlock(&journal);
	up_read(&tree);
	return arg;
}

static void bug(void)
{
	pthread_t t;

	CHECK(pthread_create(&t, NULL, journal_then_tree, NULL) == 0);
	pthread_join(t, NULL);
	CHECK(pthread_create(&t, NULL, tree_then_journal, NULL) == 0);
	pthread_join(t, NULL);
	CHECK(pthread_create(&t, NULL, tree_then_journal, NULL) == 0);
	pthread_join(t, NULL);
}

DEBUG_EXPECT_REPORT(bug,
		    "WARNING: possible circular locking dependency detected",
		    "\"journal\"", "\"tree\"", "journal_then_tree+",
		    "tree_then_journal+",
		    "mutex_lock(&journal) at tests/debug_rwsem_cycle_mutex.c:29")
