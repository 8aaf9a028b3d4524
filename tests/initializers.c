// SPDX-License-Identifier: MIT
/*
 * initializers - the static initialisers that kernel code writes inside
 * its own structures: __SEMAPHORE_INITIALIZER, __RWSEM_INITIALIZER and
 * COMPLETION_INITIALIZER as members of a static struct, and a global
 * DEFINE_PERCPU_RWSEM.  Each object starts in its documented state and
 * its wait list works: 4 threads (2 CPUs) block on it, all asleep and
 * two or more seen on the list, and are all let through (a list head
 * initialised wrong crashes or hangs here).
 */
#include <linux/completion.h>
#include <linux/percpu-rwsem.h>
#include <linux/rwsem.h>
#include <linux/semaphore.h>

#include "harness.h"

#define NTHREADS	4

static struct object {
	int id;
	struct semaphore sem;
	struct rw_semaphore rw;
	struct completion done;
} obj = {
	.id = 7,
	.sem = __SEMAPHORE_INITIALIZER(obj.sem, 2),
	.rw = __RWSEM_INITIALIZER(obj.rw),
	.done = COMPLETION_INITIALIZER(obj.done),
};

DEFINE_PERCPU_RWSEM(global_pcpu);

static int passed;
static pid_t tids[NTHREADS];
static int ntids;

/* Each thread says who it is before it blocks. */
static void arrive(void)
{
	int i = __atomic_fetch_add(&ntids, 1, __ATOMIC_RELAXED);

	__atomic_store_n(&tids[i], test_gettid(), __ATOMIC_RELEASE);
}

static bool all_asleep(struct kmutex_list *list)
{
	int i;

	if (__atomic_load_n(&ntids, __ATOMIC_RELAXED) < NTHREADS ||
	    test_waiters(list) < 2)
		return false;
	for (i = 0; i < NTHREADS; i++) {
		pid_t tid = __atomic_load_n(&tids[i], __ATOMIC_ACQUIRE);

		if (!tid || test_thread_state(tid) != 'S')
			return false;
	}
	return true;
}

static void *sem_thread(void *arg)
{
	arrive();
	down(&obj.sem);
	__atomic_add_fetch(&passed, 1, __ATOMIC_RELAXED);
	return arg;
}

static void *read_thread(void *arg)
{
	arrive();
	down_read(&obj.rw);
	__atomic_add_fetch(&passed, 1, __ATOMIC_RELAXED);
	up_read(&obj.rw);
	return arg;
}

static void *wait_thread(void *arg)
{
	arrive();
	wait_for_completion(&obj.done);
	__atomic_add_fetch(&passed, 1, __ATOMIC_RELAXED);
	return arg;
}

static void *pcpu_thread(void *arg)
{
	arrive();
	percpu_down_read(&global_pcpu);
	__atomic_add_fetch(&passed, 1, __ATOMIC_RELAXED);
	percpu_up_read(&global_pcpu);
	return arg;
}

static pthread_t threads[NTHREADS];

/* NTHREADS of @fn block on @list (the caller then lets them through). */
static void start_blocked(void *(*fn)(void *), struct kmutex_list *list)
{
	int i;

	__atomic_store_n(&passed, 0, __ATOMIC_RELAXED);
	memset(tids, 0, sizeof(tids));
	__atomic_store_n(&ntids, 0, __ATOMIC_RELAXED);
	for (i = 0; i < NTHREADS; i++)
		CHECK(pthread_create(&threads[i], NULL, fn, NULL) == 0);
	WAIT_UNTIL(all_asleep(list), 10000);
	CHECK_EQ(__atomic_load_n(&passed, __ATOMIC_RELAXED), 0);
}

/* They all got through, and left the list empty. */
static void join_passed(struct kmutex_list *list)
{
	int i;

	for (i = 0; i < NTHREADS; i++)
		CHECK(pthread_join(threads[i], NULL) == 0);
	CHECK_EQ(__atomic_load_n(&passed, __ATOMIC_RELAXED), NTHREADS);
	CHECK_EQ(test_waiters(list), 0);
}

static void check_semaphore(void)
{
	int i;

	CHECK_EQ(obj.id, 7);
	CHECK_EQ(down_trylock(&obj.sem), 0);	/* 2 units to start */
	CHECK_EQ(down_trylock(&obj.sem), 0);
	CHECK(down_trylock(&obj.sem) != 0);
	start_blocked(sem_thread, &obj.sem.wait_list);
	for (i = 0; i < NTHREADS; i++)
		up(&obj.sem);
	join_passed(&obj.sem.wait_list);
	up(&obj.sem);
	up(&obj.sem);
	CHECK_EQ(obj.sem.count, 2);
}

static void check_rwsem(void)
{
	CHECK(!rwsem_is_locked(&obj.rw));	/* free to start */
	down_write(&obj.rw);
	start_blocked(read_thread, &obj.rw.wait_list);
	up_write(&obj.rw);
	join_passed(&obj.rw.wait_list);
	CHECK(!rwsem_is_locked(&obj.rw));
	if (down_write_trylock(&obj.rw))
		up_write(&obj.rw);
	else
		CHECK(!"down_write_trylock() failed on a free rwsem");
}

static void check_completion(void)
{
	CHECK(!completion_done(&obj.done));	/* not done to start */
	CHECK(!try_wait_for_completion(&obj.done));
	start_blocked(wait_thread, &obj.done.wait_list);
	complete_all(&obj.done);
	join_passed(&obj.done.wait_list);
	CHECK(completion_done(&obj.done));
}

static void check_percpu(void)
{
	if (percpu_down_read_trylock(&global_pcpu))	/* free */
		percpu_up_read(&global_pcpu);
	else
		CHECK(!"percpu_down_read_trylock() failed on a free one");
	percpu_down_write(&global_pcpu);
	start_blocked(pcpu_thread, &global_pcpu.rwsem.wait_list);
	percpu_up_write(&global_pcpu);
	join_passed(&global_pcpu.rwsem.wait_list);
	if (percpu_down_read_trylock(&global_pcpu))
		percpu_up_read(&global_pcpu);
	else
		CHECK(!"percpu_down_read_trylock() failed after the writer");
}

int main(void)
{
	test_watchdog(60);
	check_semaphore();
	check_rwsem();
	check_completion();
	check_percpu();
	return 0;
}
