// SPDX-License-Identifier: MIT
/*
 * crew.c - the worker threads of one measurement window (see crew.h),
 * and the memory and thread helpers every driver uses.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "clock.h"
#include "crew.h"
#include "run.h"

#define WATCHDOG_S	30

void *alloc_or_die(size_t size)
{
	size_t sz = (size + 127) & ~(size_t)127;
	void *p = aligned_alloc(128, sz ? sz : 128);

	if (!p) {
		perror("aligned_alloc");
		exit(1);
	}
	memset(p, 0, sz);
	return p;
}

void *lock_alloc(const struct lock_ops *ops)
{
	void *p = alloc_or_die(ops->size);

	ops->init(p);
	return p;
}

void lock_free(const struct lock_ops *ops, void *lock)
{
	ops->destroy(lock);
	free(lock);
}

/*
 * Every worker finishes its operation in flight and stops: within
 * milliseconds for a sleeping lock, within a second for a spinlock whose
 * queue is full of preempted threads.  One that does not is a lost
 * wake-up or a deadlock in the lock: say so rather than hang.
 */
void join_or_die(const char *lock, unsigned int threads, pthread_t tid)
{
	struct timespec deadline;

	clock_gettime(CLOCK_REALTIME, &deadline);
	deadline.tv_sec += WATCHDOG_S;
	if (pthread_timedjoin_np(tid, NULL, &deadline) == ETIMEDOUT) {
		fprintf(stderr, "\nkmutex-bench: HUNG: a thread of %s (%u "
			"threads) still had not finished %d s after the window "
			"closed: a lost wake-up or a deadlock in the lock\n",
			lock, threads, WATCHDOG_S);
		exit(3);
	}
}

void start_or_die(pthread_t *tid, void *(*fn)(void *), void *arg)
{
	int err = pthread_create(tid, NULL, fn, arg);

	if (err) {
		fprintf(stderr, "pthread_create: %s\n", strerror(err));
		exit(1);
	}
}

void run_phases(int *phase, uint64_t warm_ns, uint64_t run_ns)
{
	sleep_ns(warm_ns);
	__atomic_store_n(phase, PHASE_RUN, __ATOMIC_RELAXED);
	sleep_ns(run_ns);
	__atomic_store_n(phase, PHASE_STOP, __ATOMIC_RELAXED);
}

static uint64_t thread_cpu_ns(void)
{
	struct rusage ru;

	getrusage(RUSAGE_THREAD, &ru);
	return (uint64_t)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) *
		       1000000000u +
	       (uint64_t)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000u;
}

static void *member_main(void *arg)
{
	struct member *m = arg;
	struct crew *c = m->crew;
	uint64_t cpu0;

	pthread_barrier_wait(&c->start);
	c->loop(m, PHASE_WARM);
	cpu0 = thread_cpu_ns();
	m->t_start = now_ns();
	c->loop(m, PHASE_RUN);
	m->t_stop = now_ns();
	m->cpu_ns = thread_cpu_ns() - cpu0;
	return NULL;
}

/* Join every member, and read the window off them. */
static void crew_join(struct crew *c, const char *lock, struct crew_sum *s)
{
	uint64_t first = UINT64_MAX, last = 0;
	unsigned int i;

	memset(s, 0, sizeof(*s));
	s->lo = ULONG_MAX;
	for (i = 0; i < c->n; i++) {
		struct member *m = crew_member(c, i);

		join_or_die(lock, c->n, m->tid);
		s->ops += m->ops;
		s->cpu_ns += m->cpu_ns;
		if (m->ops < s->lo)
			s->lo = m->ops;
		if (m->ops > s->hi)
			s->hi = m->ops;
		if (m->t_start && m->t_start < first)
			first = m->t_start;
		if (m->t_stop > last)
			last = m->t_stop;
	}
	s->seconds = last > first ? (double)(last - first) / 1e9 : 0;
}

void crew_run(struct crew *c, const struct crew_cfg *cfg,
	      struct member *first, size_t stride,
	      void (*loop)(struct member *m, int ph), const char *lock,
	      struct crew_sum *sum)
{
	unsigned int i, n = cfg->threads;

	c->phase = PHASE_WARM;
	c->loop = loop;
	c->first = first;
	c->stride = stride;
	c->n = n;
	pthread_barrier_init(&c->start, NULL, n + 1);
	for (i = 0; i < n; i++) {
		struct member *m = crew_member(c, i);

		m->crew = c;
		start_or_die(&m->tid, member_main, m);
	}
	pthread_barrier_wait(&c->start);
	run_phases(&c->phase, cfg->warm_ns, cfg->run_ns);
	crew_join(c, lock, sum);
	pthread_barrier_destroy(&c->start);
}
