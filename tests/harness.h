/* SPDX-License-Identifier: MIT */
/*
 * harness.h - what every kmutex test uses: checks that fail loudly, a
 * watchdog that turns a hang (a lost wake-up, a deadlock) into a
 * failure, thread helpers and a time scale.
 *
 * A test is a program: exit 0 = pass, 1 = fail, 77 = skipped (with the
 * reason on stdout).  tests/run runs them all.
 */
#ifndef _KMUTEX_TESTS_HARNESS_H
#define _KMUTEX_TESTS_HARNESS_H

#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define CHECK(cond)							\
	do {								\
		if (!(cond)) {						\
			fprintf(stderr, "FAIL %s:%d: %s\n", __FILE__,	\
				__LINE__, #cond);			\
			exit(1);					\
		}							\
	} while (0)

#define CHECK_EQ(a, b)							\
	do {								\
		long long __a = (long long)(a), __b = (long long)(b);	\
		if (__a != __b) {					\
			fprintf(stderr, "FAIL %s:%d: %s == %s: "	\
				"%lld != %lld\n", __FILE__, __LINE__,	\
				#a, #b, __a, __b);			\
			exit(1);					\
		}							\
	} while (0)

#define SKIP(...)							\
	do {								\
		printf("SKIP: " __VA_ARGS__);				\
		printf("\n");						\
		exit(77);						\
	} while (0)

static inline uint64_t test_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static inline void test_sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/*
 * Stress durations are multiplied by KMUTEX_TEST_SCALE (a float, default
 * 1) so the same test runs short in a sanitizer and long when hunting.
 */
static inline double test_scale(void)
{
	const char *s = getenv("KMUTEX_TEST_SCALE");

	return s ? atof(s) : 1.0;
}

static inline uint64_t test_duration_ns(double seconds)
{
	return (uint64_t)(seconds * test_scale() * 1e9);
}

static void *__test_watchdog_fn(void *arg)
{
	unsigned int seconds = (unsigned int)(uintptr_t)arg;

	sleep(seconds);
	fprintf(stderr, "FAIL: watchdog: still running after %u s "
		"(a hang: deadlock or lost wake-up)\n", seconds);
	_exit(1);
	return NULL;
}

/* Fail the test if it is still running after @seconds (scaled). */
static inline void test_watchdog(unsigned int seconds)
{
	pthread_t t;
	double s = seconds * (test_scale() > 1 ? test_scale() : 1);

	pthread_create(&t, NULL, __test_watchdog_fn,
		       (void *)(uintptr_t)(unsigned int)s);
	pthread_detach(t);
}

/* Start @n threads running fn(arg + i * size) and wait for them all. */
static inline void test_run_threads(int n, void *(*fn)(void *), void *arg,
				    size_t size)
{
	pthread_t t[n];
	int i;

	for (i = 0; i < n; i++)
		CHECK(pthread_create(&t[i], NULL, fn,
				     (char *)arg + i * size) == 0);
	for (i = 0; i < n; i++)
		pthread_join(t[i], NULL);
}

#endif /* _KMUTEX_TESTS_HARNESS_H */
