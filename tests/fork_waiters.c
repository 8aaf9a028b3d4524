// SPDX-License-Identifier: MIT
/*
 * fork_waiters.c - a child forked while threads of its parent wait on a
 * lock can use that lock (issue 15, edge 4).
 *
 * The child's copy of the wait list holds the nodes of the parent's
 * waiting threads, which the child does not have.  Before the fix the
 * first unlock in the child "woke" such a node and, with it marked
 * woken, no later unlock woke anyone: the child hung as soon as two of
 * its threads contended.  For each primitive: the parent's main thread
 * holds it, a second thread waits on it, and the parent forks; the
 * child releases it and then has three threads contend on it for a
 * while.  A child that hangs is killed by alarm() and fails the test.
 */
#include <pthread.h>
#include <sys/wait.h>

#include <linux/completion.h>
#include <linux/mutex.h>
#include <linux/rwsem.h>
#include <linux/semaphore.h>

#include "harness.h"

static DEFINE_MUTEX(m);
static DECLARE_RWSEM(rw);
static DEFINE_SEMAPHORE(sem, 0);
static DECLARE_COMPLETION(done);
static long shared;

enum prim { MUTEX, RWSEM, SEM, COMPLETION };
static enum prim prim;

static __no_context_analysis void take(void)
{
	switch (prim) {
	case MUTEX:
		mutex_lock(&m);
		break;
	case RWSEM:
		down_write(&rw);
		break;
	case SEM:
		down(&sem);
		break;
	case COMPLETION:
		wait_for_completion(&done);
		break;
	}
}

static __no_context_analysis void give(void)
{
	switch (prim) {
	case MUTEX:
		mutex_unlock(&m);
		break;
	case RWSEM:
		up_write(&rw);
		break;
	case SEM:
		up(&sem);
		break;
	case COMPLETION:
		complete(&done);
		break;
	}
}

static struct kmutex_list *wait_list(void)
{
	switch (prim) {
	case MUTEX:
		return &m.wait_list;
	case RWSEM:
		return &rw.wait_list;
	case SEM:
		return &sem.wait_list;
	default:
		return &done.wait_list;
	}
}

/* The parent's waiter: takes it once (after the fork, in the parent). */
static __no_context_analysis void *parent_waiter(void *arg)
{
	(void)arg;
	take();
	give();
	return NULL;
}

/* In the child: take and give back, many times, with the others. */
static __no_context_analysis void *contender(void *arg)
{
	int i;

	(void)arg;
	for (i = 0; i < 20000; i++) {
		take();
		shared++;
		give();
	}
	return NULL;
}

static __no_context_analysis void child(void)
{
	pthread_t t[2];
	int i;

	alarm(20);	/* a hang kills the child: the parent sees it */
	give();		/* the lock the forking thread held */
	for (i = 0; i < 2; i++)
		CHECK(pthread_create(&t[i], NULL, contender, NULL) == 0);
	contender(NULL);
	for (i = 0; i < 2; i++)
		CHECK(pthread_join(t[i], NULL) == 0);
	/* Exclusion held too (the semaphore and completion pass 1 unit). */
	CHECK_EQ(shared, 60000);
	_exit(0);
}

static __no_context_analysis void run(enum prim p, const char *name)
{
	pthread_t w;
	pid_t pid;
	int status;

	prim = p;
	shared = 0;
	if (p == MUTEX)
		mutex_lock(&m);
	if (p == RWSEM)
		down_write(&rw);
	/* The semaphore (count 0) and completion are "held" already. */
	CHECK(pthread_create(&w, NULL, parent_waiter, NULL) == 0);
	WAIT_UNTIL(test_waiters(wait_list()) >= 1, 5000);
	pid = fork();
	CHECK(pid >= 0);
	if (pid == 0)
		child();
	CHECK(waitpid(pid, &status, 0) == pid);
	printf("%s: child status %#x\n", name, status);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	give();		/* and the parent's waiter goes on */
	CHECK(pthread_join(w, NULL) == 0);
}

int main(void)
{
	test_watchdog(120);
	run(MUTEX, "mutex");
	run(RWSEM, "rwsem");
	run(SEM, "semaphore");
	run(COMPLETION, "completion");
	return 0;
}
