// SPDX-License-Identifier: MIT
/*
 * signal_release.c - up() and complete() from a signal handler that
 * interrupts its own thread inside down(), up(), wait_for_completion()
 * or complete() on the same object (issue 15, bug 1).
 *
 * The kernel allows these calls in interrupt context; kmutex promises
 * the same for signal handlers (API.md, "Signal handlers").  A thread
 * that holds the object's wait_lock when its handler runs must not make
 * the handler wait for that lock: before the fix the thread hung within
 * some 15000 rounds.  Each part runs a few seconds with the CPUs
 * oversubscribed (worker, a second thread on the same object, and the
 * signalling main thread), under the watchdog, and checks that no unit
 * or completion was lost or made up.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>

#include <linux/completion.h>
#include <linux/semaphore.h>

#include "harness.h"

static struct semaphore sem;
static struct completion done;
static pthread_t worker_tid;
static volatile int stop;
static int in_completion;	/* which object the handler releases */

static unsigned long handler_ups;	/* only the handler writes these */
static unsigned long handler_completes;
static unsigned long handler_polls;

static void handler(int sig)
{
	int saved = errno;

	(void)sig;
	errno = 0;
	if (in_completion) {
		complete(&done);
		handler_completes++;
		/* Never sleep, never deadlock, here either. */
		if (completion_done(&done))
			handler_polls++;
	} else {
		up(&sem);
		handler_ups++;
	}
	CHECK(errno == 0);	/* up()/complete() keep errno */
	errno = saved;
}

/* Downs and ups of the two threads that use the semaphore. */
static unsigned long worker_downs, worker_ups, other_downs, other_ups;

/*
 * The worker takes units and gives some back itself, so that its
 * handler also lands inside its own up(), and it queues behind the
 * other thread, so that its down() really takes the slow path.
 */
static void *sem_worker(void *arg)
{
	unsigned long i;

	(void)arg;
	for (i = 0; !stop; i++) {
		/*
		 * down_timeout(0) on an empty semaphore spends most of its
		 * time under wait_lock: where the handler hurts most.
		 */
		if (down_timeout(&sem, 0) == 0)
			worker_downs++;
		if (i % 8 == 0) {
			up(&sem);
			worker_ups++;
			down(&sem);
			worker_downs++;
		}
	}
	return NULL;
}

static void *sem_other(void *arg)
{
	unsigned long i;

	(void)arg;
	for (i = 0; !stop; i++) {
		if (down_timeout(&sem, 1) == 0)
			other_downs++;
		if (i % 2 == 0) {
			up(&sem);
			other_ups++;
		}
	}
	return NULL;
}

static unsigned long completes_given, worker_taken, other_taken;

static void *completion_worker(void *arg)
{
	unsigned long i;

	(void)arg;
	for (i = 0; !stop; i++) {
		/* As in sem_worker: mostly under wait_lock. */
		if (wait_for_completion_timeout(&done, 0))
			worker_taken++;
		if (i % 8 == 0 && wait_for_completion_timeout(&done, 1000))
			worker_taken++;
	}
	return NULL;
}

static void *completion_other(void *arg)
{
	unsigned long i;

	(void)arg;
	for (i = 0; !stop; i++) {
		if (i % 2) {
			complete(&done);
			completes_given++;
		} else if (try_wait_for_completion(&done)) {
			other_taken++;
		}
		sched_yield();
	}
	return NULL;
}

/*
 * Signal the worker for @seconds (scaled), and on until at least
 * STORM_MIN signals went out: under memcheck, which runs one thread at a
 * time, a short scaled storm sends too few to test anything. Give up
 * after 60 s; return how many signals were sent.
 */
#define STORM_MIN 1000

static unsigned long storm(double seconds)
{
	uint64_t start = test_now_ns();
	uint64_t end = start + test_duration_ns(seconds);
	uint64_t cap = start + 60 * 1000000000ull;
	unsigned long sent = 0;

	while ((test_now_ns() < end || sent < STORM_MIN) &&
	       test_now_ns() < cap) {
		CHECK(pthread_kill(worker_tid, SIGUSR1) == 0);
		sent++;
		if (sent % 64 == 0)
			sched_yield();
	}
	return sent;
}

static void run_part(void *(*worker)(void *), void *(*other)(void *))
{
	pthread_t o;

	stop = 0;
	CHECK(pthread_create(&worker_tid, NULL, worker, NULL) == 0);
	CHECK(pthread_create(&o, NULL, other, NULL) == 0);
	CHECK(storm(2.0) >= STORM_MIN);
	stop = 1;
	/*
	 * Free a semaphore worker still in down(), so that it sees stop
	 * (counted by the caller); a completion worker times out instead.
	 */
	if (!in_completion) {
		up(&sem);
		up(&sem);
	}
	CHECK(pthread_join(worker_tid, NULL) == 0);
	CHECK(pthread_join(o, NULL) == 0);
}

static void test_semaphore(int flags)
{
	test_handle_signal(SIGUSR1, handler, flags);
	sema_init(&sem, 0);
	handler_ups = worker_downs = worker_ups = other_downs = other_ups = 0;
	in_completion = 0;
	run_part(sem_worker, sem_other);
	/* Units given (handler, both threads, the two above) = taken + left. */
	CHECK_EQ(handler_ups + worker_ups + other_ups + 2,
		 worker_downs + other_downs + sem.count);
	CHECK(handler_ups > 100);
	printf("semaphore%s: %lu ups in the handler, %lu downs\n",
	       flags ? " (SA_RESTART)" : "", handler_ups,
	       worker_downs + other_downs);
}

static void test_completion(int flags)
{
	test_handle_signal(SIGUSR1, handler, flags);
	init_completion(&done);
	handler_completes = handler_polls = 0;
	completes_given = worker_taken = other_taken = 0;
	in_completion = 1;
	run_part(completion_worker, completion_other);
	CHECK(handler_completes > 100);
	/* Completions given = taken + still pending. */
	CHECK_EQ(handler_completes + completes_given,
		 worker_taken + other_taken + done.done);
	printf("completion%s: %lu completes in the handler, %lu taken\n",
	       flags ? " (SA_RESTART)" : "", handler_completes,
	       worker_taken + other_taken);
}

int main(void)
{
	test_watchdog(60);
	test_semaphore(0);
	test_semaphore(SA_RESTART);
	test_completion(0);
	test_completion(SA_RESTART);
	return 0;
}
