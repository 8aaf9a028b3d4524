// SPDX-License-Identifier: MIT
/*
 * sem.c - semaphores handing work from one thread to another.
 *
 * Ping-pong: thread A ups s1 and downs s2, thread B downs s1 and ups s2;
 * A times every round trip (two hand-offs, each a wake-up when the other
 * thread is asleep).  A ends the run: it raises the stop flag and ups s1
 * once more, so B wakes, sees it and leaves.
 *
 * Producer/consumers: a bounded buffer of BUF_SLOTS tokens, two counting
 * semaphores (slots, items).  The producer downs slots and ups items; a
 * consumer downs items, ups slots and does private work.  The producer
 * counts and times its items (the buffer keeps it within BUF_SLOTS of
 * the consumers).  At the end the main thread ups items once per
 * consumer and slots once, so that every thread wakes and sees the stop.
 */
#include <stdio.h>
#include <stdlib.h>

#include "clock.h"
#include "crew.h"
#include "hist.h"
#include "run.h"
#include "sem_ops.h"
#include "work.h"

#define BUF_SLOTS	16
#define MAX_CONSUMERS	64

const struct sem_ops *const all_sems[] = {
	&kmutex_sem_ops,
	&posix_sem_ops,
};

const unsigned int nr_all_sems = sizeof(all_sems) / sizeof(all_sems[0]);

struct pingpong {
	const struct sem_ops *ops;
	void *s1, *s2;
	int stop __attribute__((aligned(64)));
};

static void *pong_main(void *arg)
{
	struct pingpong *pp = arg;

	for (;;) {
		pp->ops->down(pp->s1);
		if (__atomic_load_n(&pp->stop, __ATOMIC_ACQUIRE))
			break;
		pp->ops->up(pp->s2);
	}
	return NULL;
}

void run_pingpong(const struct sem_ops *ops, uint64_t warm_ns,
		  uint64_t run_ns, struct pingpong_res *res)
{
	struct pingpong pp = { .ops = ops };
	struct hist *h = calloc(1, sizeof(*h));
	uint64_t t0, end, t;
	pthread_t tid;

	if (!h) {
		perror("calloc");
		exit(1);
	}
	pp.s1 = lock_alloc(&ops->base);
	pp.s2 = lock_alloc(&ops->base);
	start_or_die(&tid, pong_main, &pp);
	t0 = now_ns();
	end = t0 + warm_ns + run_ns;
	do {
		t = now_ns();
		ops->up(pp.s1);
		ops->down(pp.s2);
		if (t - t0 >= warm_ns)
			hist_add(h, now_ns() - t);
	} while (t < end);
	__atomic_store_n(&pp.stop, 1, __ATOMIC_RELEASE);
	ops->up(pp.s1);
	join_or_die(ops->base.name, 2, tid);

	res->rounds = (unsigned long)h->count;
	res->rtt_p50_us = (double)hist_percentile(h, 0.50) / 1e3;
	res->rtt_p99_us = (double)hist_percentile(h, 0.99) / 1e3;
	lock_free(&ops->base, pp.s1);
	lock_free(&ops->base, pp.s2);
	free(h);
}

struct prodcons {
	int phase __attribute__((aligned(64)));
	const struct sem_ops *ops __attribute__((aligned(64)));
	void *slots, *items;
	unsigned int private_steps;
	unsigned long produced;		/* in the window */
	uint64_t t_start, t_stop;
	uint64_t sink[MAX_CONSUMERS];
};

struct consumer {
	struct prodcons *pc;
	unsigned int id;
};

static inline int pc_phase(struct prodcons *pc)
{
	return __atomic_load_n(&pc->phase, __ATOMIC_RELAXED);
}

static void *producer_main(void *arg)
{
	struct prodcons *pc = arg;
	const struct sem_ops *ops = pc->ops;
	unsigned long n = 0;
	int ph, seen = PHASE_WARM;

	for (;;) {
		ops->down(pc->slots);
		ph = pc_phase(pc);
		if (ph != seen) {
			if (ph == PHASE_RUN) {
				pc->t_start = now_ns();
				n = 0;
			} else {
				pc->t_stop = now_ns();
				break;
			}
			seen = ph;
		}
		ops->up(pc->items);
		n++;
	}
	pc->produced = n;
	return NULL;
}

static void *consumer_main(void *arg)
{
	struct consumer *c = arg;
	struct prodcons *pc = c->pc;
	const struct sem_ops *ops = pc->ops;
	uint64_t x = c->id;

	for (;;) {
		ops->down(pc->items);
		if (pc_phase(pc) == PHASE_STOP)
			break;
		ops->up(pc->slots);
		x = private_work(x, pc->private_steps);
	}
	pc->sink[c->id] = x;
	return NULL;
}

double run_prodcons(const struct sem_ops *ops, unsigned int consumers,
		    unsigned int private_steps, uint64_t warm_ns,
		    uint64_t run_ns)
{
	struct prodcons *pc = alloc_or_die(sizeof(*pc));
	struct consumer c[MAX_CONSUMERS];
	pthread_t tid[MAX_CONSUMERS + 1];
	unsigned int i;
	double mops = 0;

	if (consumers > MAX_CONSUMERS)
		consumers = MAX_CONSUMERS;
	pc->ops = ops;
	pc->private_steps = private_steps;
	pc->slots = lock_alloc(&ops->base);
	pc->items = lock_alloc(&ops->base);
	for (i = 0; i < BUF_SLOTS; i++)
		ops->up(pc->slots);
	for (i = 0; i < consumers; i++) {
		c[i] = (struct consumer){ pc, i };
		start_or_die(&tid[i], consumer_main, &c[i]);
	}
	start_or_die(&tid[consumers], producer_main, pc);
	run_phases(&pc->phase, warm_ns, run_ns);
	for (i = 0; i < consumers; i++)
		ops->up(pc->items);
	ops->up(pc->slots);
	for (i = 0; i <= consumers; i++)
		join_or_die(ops->base.name, consumers + 1, tid[i]);
	if (pc->t_stop > pc->t_start && pc->t_start)
		mops = (double)pc->produced /
		       ((double)(pc->t_stop - pc->t_start) / 1e3);
	lock_free(&ops->base, pc->slots);
	lock_free(&ops->base, pc->items);
	free(pc);
	return mops;
}
