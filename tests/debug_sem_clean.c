// SPDX-License-Identifier: MIT
/*
 * debug_sem_clean - semaphores and completions used right produce no
 * report: a bounded queue (two counting semaphores and a mutex) between
 * more producers and consumers than CPUs, every down form, completions
 * waited for with every wait form, up() and complete() from a signal
 * handler (they never sleep), and a semaphore taken in both orders
 * around a mutex (semaphores are not in the order checks).
 */
#include <linux/completion.h>
#include <linux/mutex.h>
#include <linux/semaphore.h>

#include "debug_harness.h"

#define NPRODUCERS	6
#define NCONSUMERS	6
#define ITEMS		3000
#define QSIZE		8

static DEFINE_SEMAPHORE(free_slots, QSIZE);
static struct semaphore filled;
static DEFINE_MUTEX(queue_lock);
static long queue[QSIZE];
static unsigned int head, tail;
static long sum;
static DECLARE_COMPLETION(all_done);
static int consumers_left = NCONSUMERS;

/* Every form of down, in turn. */
static void take(struct semaphore *sem, long v)
{
	switch (v % 5) {
	case 0:
		down(sem);
		break;
	case 1:
		CHECK_EQ(down_interruptible(sem), 0);
		break;
	case 2:
		CHECK_EQ(down_killable(sem), 0);
		break;
	case 3:
		while (down_timeout(sem, 10))
			;
		break;
	default:
		while (down_trylock(sem))
			sched_yield();
	}
}

static void put(long v)
{
	take(&free_slots, v);
	mutex_lock(&queue_lock);
	queue[tail++ % QSIZE] = v;
	mutex_unlock(&queue_lock);
	up(&filled);
}

static void *producer(void *arg)
{
	long i, base = (long)(uintptr_t)arg * ITEMS;

	for (i = 0; i < ITEMS; i++)
		put(base + i);
	return NULL;
}

static void *consumer(void *arg)
{
	long n;

	for (n = 0; n < NPRODUCERS * ITEMS / NCONSUMERS; n++) {
		take(&filled, n);
		mutex_lock(&queue_lock);
		sum += queue[head++ % QSIZE];
		mutex_unlock(&queue_lock);
		up(&free_slots);
	}
	mutex_lock(&queue_lock);
	if (--consumers_left == 0)
		complete_all(&all_done);
	mutex_unlock(&queue_lock);
	return arg;
}

static struct completion kicked;
static DEFINE_SEMAPHORE(kick_sem, 0);

static void on_usr1(int sig)
{
	(void)sig;
	complete(&kicked);		/* never sleeps: fine */
	up(&kick_sem);			/* likewise */
	if (!down_trylock(&kick_sem))	/* likewise */
		up(&kick_sem);
}

static void handler_and_waits(void)
{
	init_completion(&kicked);
	test_handle_signal(SIGUSR1, on_usr1, 0);
	raise(SIGUSR1);
	wait_for_completion(&kicked);
	down(&kick_sem);
	raise(SIGUSR1);
	CHECK_EQ(wait_for_completion_interruptible(&kicked), 0);
	raise(SIGUSR1);
	CHECK_EQ(wait_for_completion_killable(&kicked), 0);
	raise(SIGUSR1);
	CHECK(wait_for_completion_interruptible_timeout(&kicked, 1000) > 0);
	CHECK_EQ(wait_for_completion_timeout(&kicked, 1), 0);
	CHECK(!try_wait_for_completion(&kicked));
	reinit_completion(&kicked);
	CHECK(!completion_done(&kicked));
}

/* Not in the order checks: both orders around a mutex are fine. */
static void both_orders(void)
{
	static DEFINE_SEMAPHORE(binary);

	down(&binary);
	mutex_lock(&queue_lock);
	mutex_unlock(&queue_lock);
	up(&binary);
	mutex_lock(&queue_lock);
	down(&binary);
	up(&binary);
	mutex_unlock(&queue_lock);
}

static void clean(void)
{
	pthread_t p[NPRODUCERS], c[NCONSUMERS];
	long i, n = (long)NPRODUCERS * ITEMS;

	sema_init(&filled, 0);
	for (i = 0; i < NCONSUMERS; i++)
		CHECK(pthread_create(&c[i], NULL, consumer, NULL) == 0);
	for (i = 0; i < NPRODUCERS; i++)
		CHECK(pthread_create(&p[i], NULL, producer,
				     (void *)(uintptr_t)i) == 0);
	wait_for_completion(&all_done);
	CHECK(completion_done(&all_done));
	for (i = 0; i < NPRODUCERS; i++)
		pthread_join(p[i], NULL);
	for (i = 0; i < NCONSUMERS; i++)
		pthread_join(c[i], NULL);
	CHECK_EQ(sum, n * (n - 1) / 2);
	CHECK_EQ(free_slots.count, QSIZE);
	handler_and_waits();
	both_orders();
}

DEBUG_EXPECT_CLEAN(clean)
