// SPDX-License-Identifier: MIT
/*
 * uncontended.c - the cost of one lock+unlock pair nobody else wants.
 *
 * Many short timings of a loop of pairs (the lock's own inline calls, see
 * DEFINE_LOCK_LOOP), of which the median: the core's speed changes under
 * us, and a single long timing would average that into the figure.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "clock.h"
#include "run.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double uncontended_ns(const struct lock_ops *ops, unsigned int samples,
		      unsigned long iters)
{
	void *lock = lock_alloc(ops);
	double *ns = malloc(samples * sizeof(*ns)), med;
	unsigned int i;

	if (!ns) {
		perror("malloc");
		exit(1);
	}
	ops->loop(lock, iters);		/* warm the line and the code */
	for (i = 0; i < samples; i++) {
		uint64_t t0 = now_ns();

		ops->loop(lock, iters);
		ns[i] = (double)(now_ns() - t0) / (double)iters;
	}
	qsort(ns, samples, sizeof(*ns), cmp_double);
	med = ns[samples / 2];
	free(ns);
	lock_free(ops, lock);
	return med;
}

/*
 * glibc (since 2.34) skips the atomics of a default mutex while the
 * process has never had a second thread, which is not the situation a
 * mutex exists for: keep one alive, blocked in read(), while timing.
 */
static pthread_t sleeper;
static int sleeper_pipe[2];

static void *sleeper_main(void *arg)
{
	char c;

	(void)arg;
	while (read(sleeper_pipe[0], &c, 1) < 0)
		;
	return NULL;
}

void sleeper_start(void)
{
	if (pipe(sleeper_pipe) ||
	    pthread_create(&sleeper, NULL, sleeper_main, NULL)) {
		perror("sleeper thread");
		exit(1);
	}
}

void sleeper_stop(void)
{
	close(sleeper_pipe[1]);
	pthread_join(sleeper, NULL);
	close(sleeper_pipe[0]);
}
