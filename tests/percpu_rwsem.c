// SPDX-License-Identifier: MIT
/*
 * percpu_rwsem.c - struct percpu_rw_semaphore (<linux/percpu-rwsem.h>).
 *
 * percpu_init_rwsem (0, and -ENOMEM when the allocation fails: this
 * program's own posix_memalign() fails on request), the trylock with and
 * without a writer, a reader unlocking on another thread (so on another
 * CPU's counter than it locked on), exclusion under oversubscription
 * (8 readers and 3 writers on 2 CPUs for a few seconds: no reader beside
 * a writer, no two writers, and a counter only writers update, without
 * atomics, comes out exact), a writer not starved by a stream of
 * readers, a waiting writer blocking new readers, the statically
 * defined form, and percpu_rwsem_assert_held evaluating its argument.
 */
#include <linux/percpu-rwsem.h>

#include <malloc.h>

#include "harness.h"

DEFINE_STATIC_PERCPU_RWSEM(static_sem);

/*
 * The library's allocation, which this test can make fail.  Valgrind
 * replaces the program's allocator functions with its own, so there the
 * override is not called: @alloc_calls tells.
 */
static int fail_alloc, alloc_calls;

int posix_memalign(void **p, size_t align, size_t size)
{
	__atomic_fetch_add(&alloc_calls, 1, __ATOMIC_RELAXED);
	if (__atomic_load_n(&fail_alloc, __ATOMIC_RELAXED))
		return ENOMEM;
	*p = memalign(align, size);
	return *p ? 0 : ENOMEM;
}

static struct percpu_rw_semaphore sem;
/*
 * Read locks one thread holds at once below: TSan's deadlock detector,
 * which sees a percpu rwsem as a lock (kmutex/hooks.h), holds 64 at
 * most per thread and aborts beyond.
 */
#ifdef __SANITIZE_THREAD__
#define NESTED_READS	50
#else
#define NESTED_READS	100
#endif

static int stop;
static int readers_in, writers_in;
static long plain_counter, writes_done, reads_done;

static __no_context_analysis void *reader(void *arg)
{
	(void)arg;
	while (!__atomic_load_n(&stop, __ATOMIC_RELAXED)) {
		percpu_down_read(&sem);
		__atomic_fetch_add(&readers_in, 1, __ATOMIC_RELAXED);
		CHECK(__atomic_load_n(&writers_in, __ATOMIC_RELAXED) == 0);
		__atomic_fetch_sub(&readers_in, 1, __ATOMIC_RELAXED);
		percpu_up_read(&sem);
		__atomic_fetch_add(&reads_done, 1, __ATOMIC_RELAXED);
	}
	return NULL;
}

static __no_context_analysis void *writer(void *arg)
{
	(void)arg;
	while (!__atomic_load_n(&stop, __ATOMIC_RELAXED)) {
		percpu_down_write(&sem);
		CHECK(__atomic_fetch_add(&writers_in, 1, __ATOMIC_RELAXED) == 0);
		CHECK(__atomic_load_n(&readers_in, __ATOMIC_RELAXED) == 0);
		plain_counter++;
		CHECK(__atomic_fetch_sub(&writers_in, 1, __ATOMIC_RELAXED) == 1);
		percpu_up_write(&sem);
		__atomic_fetch_add(&writes_done, 1, __ATOMIC_RELAXED);
	}
	return NULL;
}

static void exclusion(void)
{
	pthread_t r[8], w[3];
	uint64_t end;
	int i;

	for (i = 0; i < 8; i++)
		CHECK(pthread_create(&r[i], NULL, reader, NULL) == 0);
	for (i = 0; i < 3; i++)
		CHECK(pthread_create(&w[i], NULL, writer, NULL) == 0);
	end = test_now_ns() + test_duration_ns(2);	/* once all exist */
	while (test_now_ns() < end)
		test_sleep_ms(20);
	__atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
	for (i = 0; i < 8; i++)
		pthread_join(r[i], NULL);
	for (i = 0; i < 3; i++)
		pthread_join(w[i], NULL);
	CHECK_EQ(plain_counter, writes_done);
	CHECK(writes_done > 0 && reads_done > 0);
	printf("exclusion: %ld reads, %ld writes on 8+3 threads\n",
	       reads_done, writes_done);
}

/* A stream of readers (always one inside) must not starve a writer. */
static __no_context_analysis void *overlapping_reader(void *arg)
{
	(void)arg;
	while (!__atomic_load_n(&stop, __ATOMIC_RELAXED)) {
		percpu_down_read(&sem);
		test_sleep_ms(1);
		percpu_up_read(&sem);
	}
	return NULL;
}

static __no_context_analysis void starvation(void)
{
	pthread_t r[4];
	uint64_t t0;
	int i;

	__atomic_store_n(&stop, 0, __ATOMIC_RELAXED);
	for (i = 0; i < 4; i++)
		CHECK(pthread_create(&r[i], NULL, overlapping_reader, NULL) == 0);
	test_sleep_ms(50);
	t0 = test_now_ns();
	for (i = 0; i < 20; i++) {
		percpu_down_write(&sem);
		percpu_up_write(&sem);
	}
	/* Generous: 20 writes behind 1 ms readers take ~40 ms. */
	CHECK(test_now_ns() - t0 < 10000000000ull);
	__atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
	for (i = 0; i < 4; i++)
		pthread_join(r[i], NULL);
	printf("writer not starved by overlapping readers\n");
}

/* A reader that leaves from another thread (another CPU's counter). */
static __no_context_analysis void *up_read_elsewhere(void *arg)
{
	percpu_up_read(arg);
	return NULL;
}

/*
 * Leave one read hold of @s from another thread.  Under TSan, from this
 * one: TSan sees a percpu rwsem as a lock (kmutex/hooks.h) and keeps a
 * read lock released by another thread held by the thread that took
 * it, which its deadlock detector then reports against the writer's
 * order (it has no hand-over; docs/analysis-tools.md).
 */
static void leave_read(struct percpu_rw_semaphore *s)
{
	pthread_t u;

#ifdef __SANITIZE_THREAD__
	static bool said;

	if (!said)
		printf("SKIP: under tsan: readers leave on the thread that "
		       "entered (TSan has no hand-over of a lock)\n");
	said = true;
	up_read_elsewhere(s);
	(void)u;
#else
	CHECK(pthread_create(&u, NULL, up_read_elsewhere, s) == 0);
	pthread_join(u, NULL);
#endif
}

static int write_taken;

static __no_context_analysis void *take_write(void *arg)
{
	percpu_down_write(arg);
	__atomic_store_n(&write_taken, 1, __ATOMIC_RELEASE);
	percpu_up_write(arg);
	return NULL;
}

static __no_context_analysis void handshake(void)
{
	pthread_t t;
	int i;

	CHECK(percpu_down_read_trylock(&sem) == 1);
	CHECK(percpu_down_read_trylock(&sem) == 1);	/* readers share */
	percpu_rwsem_assert_held(&sem);
	percpu_up_read(&sem);
	/* A writer waits for the remaining reader ... */
	CHECK(pthread_create(&t, NULL, take_write, &sem) == 0);
	WAIT_UNTIL(__atomic_load_n(&sem.block, __ATOMIC_RELAXED), 10000);
	test_sleep_ms(20);
	CHECK(!__atomic_load_n(&write_taken, __ATOMIC_ACQUIRE));
	/* ... new readers may not come in while it waits ... */
	CHECK(percpu_down_read_trylock(&sem) == 0);
	/* ... and the reader leaving on another thread lets it in. */
	leave_read(&sem);
	pthread_join(t, NULL);
	CHECK(__atomic_load_n(&write_taken, __ATOMIC_ACQUIRE));
	/* Many unbalanced per-slot counts, balanced sum: free again. */
	for (i = 0; i < NESTED_READS; i++)
		percpu_down_read(&sem);
	for (i = 0; i < NESTED_READS; i++)
		leave_read(&sem);
	percpu_down_write(&sem);
	CHECK(percpu_down_read_trylock(&sem) == 0);
	percpu_up_write(&sem);
	printf("trylock, reader leaving elsewhere, waiting writer blocks readers\n");
}

static __no_context_analysis void statically_defined(void)
{
	int n = 0;
	struct percpu_rw_semaphore *p = &static_sem;

	percpu_down_read(&static_sem);
	percpu_rwsem_assert_held((n++, p));
	CHECK_EQ(n, 1);
	percpu_up_read(&static_sem);
	percpu_down_write(&static_sem);
	CHECK(percpu_down_read_trylock(&static_sem) == 0);
	percpu_up_write(&static_sem);
	CHECK(percpu_down_read_trylock(&static_sem) == 1);
	percpu_up_read(&static_sem);
	percpu_free_rwsem(&static_sem);		/* harmless */
	printf("DEFINE_STATIC_PERCPU_RWSEM\n");
}

int main(void)
{
	struct percpu_rw_semaphore other;
	int ret;

	test_watchdog(120);
	__atomic_store_n(&fail_alloc, 1, __ATOMIC_RELAXED);
	ret = percpu_init_rwsem(&other);
	if (ret == 0) {
		/* Only where the override was not called at all. */
		CHECK_EQ(__atomic_load_n(&alloc_calls, __ATOMIC_RELAXED), 0);
		percpu_free_rwsem(&other);
		printf("percpu_init_rwsem: -ENOMEM not checked (the "
		       "allocator is not interposable here: valgrind?)\n");
	} else {
		CHECK_EQ(ret, -ENOMEM);
		printf("percpu_init_rwsem: -ENOMEM\n");
	}
	__atomic_store_n(&fail_alloc, 0, __ATOMIC_RELAXED);
	CHECK_EQ(percpu_init_rwsem(&other), 0);
	percpu_free_rwsem(&other);
	percpu_free_rwsem(&other);
	printf("percpu_init_rwsem: 0\n");

	CHECK_EQ(percpu_init_rwsem(&sem), 0);
	handshake();
	statically_defined();
	exclusion();
	starvation();
	percpu_free_rwsem(&sem);
	return 0;
}
