/* SPDX-License-Identifier: MIT */
/*
 * annotated.h - the programs that tsan_annotations and
 * valgrind_annotations (and debug_valgrind_annotations) run under a race
 * checker, each as a case of the test program run again:
 *
 *   clean  shared data behind a mutex, a rwsem, a percpu rwsem, a
 *          semaphore and a completion, contended so the slow paths run:
 *          no report;
 *   race   the mutex program with one access moved outside the lock:
 *          a race report;
 *   abba   two mutexes taken in both orders (never at once, so nothing
 *          deadlocks): a lock-order report, from the checkers that have
 *          a lock-order detector;
 *   abba_percpu  the same with a percpu rwsem, written then the mutex,
 *          and the mutex then read: the percpu rwsem's reader fast path
 *          has no lock of its own inside, so only its hooks
 *          (kmutex/hooks.h, src/percpu_rwsem.c) tell the checker.
 *
 * The includer sets ANN_ITER (acquisitions per thread) and
 * ANN_YIELD_EVERY: under Valgrind the threads take turns on one CPU, so
 * the critical sections yield now and then (the others then find the
 * lock held and queue, and the slow paths and wake-ups run too); 0
 * yields never.
 */
#ifndef _KMUTEX_TESTS_ANNOTATED_H
#define _KMUTEX_TESTS_ANNOTATED_H

#include <linux/completion.h>
#include <linux/mutex.h>
#include <linux/percpu-rwsem.h>
#include <linux/rwsem.h>
#include <linux/semaphore.h>

#include "harness.h"

#define ANN_THREADS	4

static DEFINE_MUTEX(ann_lock);
static DECLARE_RWSEM(ann_rwsem);
static long ann_counter;		/* under ann_lock */
static long ann_table[8];	/* under ann_rwsem */
static bool ann_racy;		/* the "race" case: one increment unlocked */

static void *ann_mutex_worker(void *arg)
{
	long id = (long)arg;

	for (int i = 0; i < ANN_ITER; i++) {
		if (ann_racy && id == 0) {
			ann_counter++;	/* the access moved outside the lock */
			continue;
		}
		mutex_lock(&ann_lock);
		ann_counter++;
		if (ANN_YIELD_EVERY && i % ANN_YIELD_EVERY == id)
			sched_yield();	/* held: the others queue */
		mutex_unlock(&ann_lock);
		if (i % 16 == 0 && mutex_trylock(&ann_lock)) {
			ann_counter++;
			mutex_unlock(&ann_lock);
		}
	}
	return NULL;
}

static void *ann_rwsem_worker(void *arg)
{
	long id = (long)arg, sum = 0;

	for (int i = 0; i < ANN_ITER / 2; i++) {
		if (i % 8 == id) {
			down_write(&ann_rwsem);
			ann_table[i % 8]++;
			if (ANN_YIELD_EVERY)
				sched_yield();
			downgrade_write(&ann_rwsem);
			sum += ann_table[i % 8];
			up_read(&ann_rwsem);
		} else {
			down_read(&ann_rwsem);
			for (int j = 0; j < 8; j++)
				sum += ann_table[j];
			if (ANN_YIELD_EVERY && i % ANN_YIELD_EVERY == 0)
				sched_yield();
			up_read(&ann_rwsem);
		}
	}
	return (void *)sum;
}

/*
 * A percpu rwsem: its readers' fast path takes no lock inside, so only
 * its hooks keep Helgrind from seeing a race on ann_pdata.
 */
DEFINE_STATIC_PERCPU_RWSEM(ann_p);
static long ann_pdata[ANN_THREADS];	/* under ann_p */

static void *ann_percpu_worker(void *arg)
{
	long id = (long)arg, sum = 0;

	for (int i = 0; i < ANN_ITER / 8; i++) {
		if (i % ANN_THREADS == id) {
			percpu_down_write(&ann_p);
			ann_pdata[id]++;
			if (ANN_YIELD_EVERY)
				sched_yield();
			percpu_up_write(&ann_p);
			continue;
		}
		percpu_down_read(&ann_p);
		for (int j = 0; j < ANN_THREADS; j++)
			sum += ann_pdata[j];
		if (ANN_YIELD_EVERY && i % ANN_YIELD_EVERY == 0)
			sched_yield();
		percpu_up_read(&ann_p);
	}
	return (void *)sum;
}

/*
 * Hand-over: data written before up()/complete() is read after the
 * down()/wait it ends.  Static objects, and two waiters each, queued
 * before the first up()/complete(): the library meets them in its
 * slow path before any annotation has.
 */
static DEFINE_SEMAPHORE(ann_sem, 0);
static DECLARE_COMPLETION(ann_done);
static int ann_handed_sem, ann_handed_done;
static int ann_queued;

static void *ann_sem_waiter(void *arg)
{
	long id = (long)arg;

	__atomic_fetch_add(&ann_queued, 1, __ATOMIC_RELAXED);
	down(&ann_sem);
	CHECK_EQ(ann_handed_sem, 42);
	wait_for_completion(&ann_done);
	CHECK_EQ(ann_handed_done, 43);
	return (void *)id;
}

static void ann_handover(void)
{
	pthread_t t[2];

	for (long i = 0; i < 2; i++)
		CHECK(pthread_create(&t[i], NULL, ann_sem_waiter,
				     (void *)i) == 0);
	WAIT_UNTIL(__atomic_load_n(&ann_queued, __ATOMIC_RELAXED) == 2, 10000);
	test_sleep_ms(50);	/* let both queue on the semaphore */
	ann_handed_sem = 42;
	up(&ann_sem);
	up(&ann_sem);
	test_sleep_ms(50);	/* and on the completion */
	ann_handed_done = 43;
	complete_all(&ann_done);
	for (int i = 0; i < 2; i++)
		CHECK(pthread_join(t[i], NULL) == 0);
}

static void ann_run_threads(void *(*fn)(void *))
{
	pthread_t t[ANN_THREADS];

	for (long i = 0; i < ANN_THREADS; i++)
		CHECK(pthread_create(&t[i], NULL, fn, (void *)i) == 0);
	for (int i = 0; i < ANN_THREADS; i++)
		CHECK(pthread_join(t[i], NULL) == 0);
}

static int ann_case_clean(void)
{
	ann_run_threads(ann_mutex_worker);
	CHECK(ann_counter >= (long)ANN_THREADS * ANN_ITER);
	ann_run_threads(ann_rwsem_worker);
	ann_run_threads(ann_percpu_worker);
	ann_handover();
	return 0;
}

static int ann_case_race(void)
{
	ann_racy = true;
	ann_run_threads(ann_mutex_worker);
	return 0;
}

static struct mutex ann_a, ann_b;

static void *ann_ab(void *arg)
{
	mutex_lock(&ann_a);
	mutex_lock(&ann_b);
	mutex_unlock(&ann_b);
	mutex_unlock(&ann_a);
	return arg;
}

static void *ann_ba(void *arg)
{
	mutex_lock(&ann_b);
	mutex_lock(&ann_a);
	mutex_unlock(&ann_a);
	mutex_unlock(&ann_b);
	return arg;
}

static int ann_case_abba(void)
{
	pthread_t t;

	mutex_init(&ann_a);
	mutex_init(&ann_b);
	/* One after the other: the orders conflict, the threads never do. */
	CHECK(pthread_create(&t, NULL, ann_ab, NULL) == 0);
	CHECK(pthread_join(t, NULL) == 0);
	CHECK(pthread_create(&t, NULL, ann_ba, NULL) == 0);
	CHECK(pthread_join(t, NULL) == 0);
	mutex_destroy(&ann_a);
	mutex_destroy(&ann_b);
	return 0;
}

static DEFINE_MUTEX(ann_c);

static void *ann_pw_c(void *arg)
{
	percpu_down_write(&ann_p);
	mutex_lock(&ann_c);
	mutex_unlock(&ann_c);
	percpu_up_write(&ann_p);
	return arg;
}

static void *ann_c_pr(void *arg)
{
	mutex_lock(&ann_c);
	percpu_down_read(&ann_p);
	percpu_up_read(&ann_p);
	mutex_unlock(&ann_c);
	return arg;
}

static int ann_case_abba_percpu(void)
{
	pthread_t t;

	CHECK(pthread_create(&t, NULL, ann_pw_c, NULL) == 0);
	CHECK(pthread_join(t, NULL) == 0);
	CHECK(pthread_create(&t, NULL, ann_c_pr, NULL) == 0);
	CHECK(pthread_join(t, NULL) == 0);
	return 0;
}

/* Run case @name; -1 if there is no such case. */
static int ann_run_case(const char *name)
{
	if (!strcmp(name, "clean"))
		return ann_case_clean();
	if (!strcmp(name, "race"))
		return ann_case_race();
	if (!strcmp(name, "abba"))
		return ann_case_abba();
	if (!strcmp(name, "abba_percpu"))
		return ann_case_abba_percpu();
	return -1;
}

#endif /* _KMUTEX_TESTS_ANNOTATED_H */
