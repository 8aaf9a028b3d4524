// SPDX-License-Identifier: MIT
/*
 * stat_thread.c - lock statistics are kept per thread (src/stat_thread.c)
 * and must still add up: the waits of threads that exited before the
 * print are in it (their counts handed to the shared table at exit),
 * those of threads still alive too, and kmutex_stat_reset() clears the
 * counts of every thread, not only its caller's.
 *
 * Exact counts need waits that are certain to be contended: a
 * down_timeout() on a semaphore with no unit always sleeps, then times
 * out (contended, slept, not acquired).  Each thread waits WAITS times,
 * even threads at one call site and odd ones at another, so the call
 * sites must add up across threads too.
 */
#include <linux/semaphore.h>

#include "stat.h"

#define THREADS		6
#define WAITS		10
/* Threads THREADS/2..THREADS-1 (3, 4, 5) park and wait again. */
#define PARKED_EVEN	1
#define PARKED_ODD	2

static DEFINE_SEMAPHORE(stat_test_empty_sem, 0);	/* never up() */
static pthread_barrier_t parked, resume;

static __attribute__((noinline)) void wait_even(void)
{
	CHECK_EQ(down_timeout(&stat_test_empty_sem, 1), -ETIME);
}

static __attribute__((noinline)) void wait_odd(void)
{
	CHECK_EQ(down_timeout(&stat_test_empty_sem, 1), -ETIME);
}

static void waits(long i)
{
	int n;

	for (n = 0; n < WAITS; n++) {
		if (i % 2)
			wait_odd();
		else
			wait_even();
	}
}

/* Threads [0, THREADS/2) exit at once, the others park until told. */
static void *waiter(void *arg)
{
	long i = (long)arg;

	waits(i);
	if (i < THREADS / 2)
		return NULL;
	pthread_barrier_wait(&parked);
	pthread_barrier_wait(&resume);	/* main prints, maybe resets */
	waits(i);
	return NULL;
}

/* The semaphore's row as printed now: its 9 numbers, false if none. */
static bool row_now(char *row, size_t len, unsigned long long v[9])
{
	char *buf = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&buf, &size);
	bool found;

	CHECK(f);
	CHECK(kmutex_stat_print(f) >= 0);
	fclose(f);
	found = stat_csv_row(buf, "stat_test_empty_sem", "semaphore", row,
			     len, v);
	if (found) {
		stat_check_sane(row, v);
		/* Both call sites, each with its threads' waits. */
		CHECK(strstr(row, "\"wait_even+0x"));
		CHECK(strstr(row, "\"wait_odd+0x"));
	}
	free(buf);
	return found;
}

/* @even and @odd waits counted, at wait_even() and wait_odd(). */
static void check_count(unsigned long long even, unsigned long long odd)
{
	unsigned long long want = even + odd;
	unsigned long long v[9];
	char row[1024], site[64];

	CHECK(row_now(row, sizeof(row), v));
	if (v[0] != want)
		fprintf(stderr, "FAIL: %llu waits counted, %llu made: %s\n",
			v[0], want, row);
	CHECK_EQ(v[0], want);
	CHECK_EQ(v[2], want);		/* every one slept */
	CHECK_EQ(v[3], 0);		/* and none acquired */
	/* Each site has its threads' waits: "site",count,wait_ns. */
	snprintf(site, sizeof(site), "\",%llu,", even);
	CHECK(!strncmp(strchr(strstr(row, "\"wait_even+0x") + 1, '"'), site,
		       strlen(site)));
	snprintf(site, sizeof(site), "\",%llu,", odd);
	CHECK(!strncmp(strchr(strstr(row, "\"wait_odd+0x") + 1, '"'), site,
		       strlen(site)));
}

static int child(bool reset)
{
	unsigned long long v[9];
	pthread_t t[THREADS];
	char row[1024];
	long i;

	CHECK(pthread_barrier_init(&parked, NULL, THREADS - THREADS / 2 + 1)
	      == 0);
	CHECK(pthread_barrier_init(&resume, NULL, THREADS - THREADS / 2 + 1)
	      == 0);
	for (i = 0; i < THREADS; i++)
		CHECK(pthread_create(&t[i], NULL, waiter, (void *)i) == 0);
	for (i = 0; i < THREADS / 2; i++)
		pthread_join(t[i], NULL);	/* gone before the print */
	pthread_barrier_wait(&parked);
	/* Exited threads' counts and the parked ones' alike. */
	check_count(THREADS / 2 * WAITS, THREADS / 2 * WAITS);
	if (reset) {
		kmutex_stat_reset();
		CHECK(!row_now(row, sizeof(row), v));
	}
	pthread_barrier_wait(&resume);
	for (i = THREADS / 2; i < THREADS; i++)
		pthread_join(t[i], NULL);
	/* The parked threads waited again and exited. */
	check_count((reset ? 0 : THREADS / 2 * WAITS) + PARKED_EVEN * WAITS,
		    (reset ? 0 : THREADS / 2 * WAITS) + PARKED_ODD * WAITS);
	return 0;
}

int main(int argc, char **argv)
{
	char err[256], *s;

	if (argc > 1 && !strcmp(argv[1], "exit"))
		return child(false);
	if (argc > 1 && !strcmp(argv[1], "reset"))
		return child(true);
	test_watchdog(120);
	stat_tmp(err, sizeof(err), "err");
	CHECK_EQ(stat_child("exit", "/dev/null", "csv", err), 0);
	CHECK_EQ(stat_child("reset", "/dev/null", "csv", err), 0);
	s = stat_slurp(err);
	fputs(s, stdout);
	free(s);
	unlink(err);
	printf("PASS\n");
	return 0;
}
