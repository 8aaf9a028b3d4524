// SPDX-License-Identifier: MIT
/*
 * ww.c - transactions over a set of locks: each locks a random set of
 * WW_K of N objects, increments a counter in each, and unlocks them, as
 * a graphics driver locks the buffers of one job (the kernel's
 * reservation objects, what ww_mutex was made for).
 *
 *   kmutex-ww       a struct ww_mutex per object (wound-wait class);
 *                   the set is locked in its random order, with the
 *                   backoff loop of ww_mutex_lock(3) on -EDEADLK;
 *   pthread-sorted  a pthread_mutex_t per object; the set is sorted by
 *                   address first and locked in that order, the usual
 *                   way to lock a set without deadlock when the whole
 *                   set is known up front (which ww_mutex does not
 *                   need: see docs/ww_mutex.md).
 *
 * Throughput is transactions per second over the window; kmutex-ww also
 * counts its -EDEADLKs per transaction.  Each object is alone on its
 * cache lines; a holder field catches a lock that lets two in.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include <linux/ww_mutex.h>

#include "bench.h"
#include "crew.h"
#include "run.h"

static void no_op(void *p)
{
	(void)p;
}

/* The two ways, as lock_ops only to name them in the samples. */
const struct lock_ops kmutex_ww_ops = {
	.name	= "kmutex-ww",
	.what	= "kmutex struct ww_mutex, any order, backoff on -EDEADLK",
	.kind	= LOCK_SLEEPING,
	.size	= sizeof(struct ww_mutex),
	.init	= no_op,
	.destroy = no_op,
};

const struct lock_ops pthread_sorted_ops = {
	.name	= "pthread-sorted",
	.what	= "pthread_mutex_t (default), locked in address order",
	.kind	= LOCK_SLEEPING,
	.size	= sizeof(pthread_mutex_t),
	.init	= no_op,
	.destroy = no_op,
};

const unsigned int ww_objects[NR_WW_SIZES] = { 16, 64 };
const unsigned int ww_threads[NR_WW_THREADS] = { 2, 4, 8, 16 };

static DEFINE_WW_CLASS(bench_ww_class);

struct ww_obj {
	struct ww_mutex ww;
	pthread_mutex_t pm;
	volatile unsigned long v;
	int holder;
} __attribute__((aligned(128)));

struct ww_window {
	struct crew crew;
	const struct lock_ops *ops __attribute__((aligned(64)));
	struct ww_obj *obj;
	unsigned int n, private_steps;
	bool broken;
};

struct ww_worker {
	struct member m;
	struct ww_window *win;
	unsigned int id;
	unsigned long deadlks;		/* in the window */
	uint64_t seed, sink;
} __attribute__((aligned(128)));

static unsigned int rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return (unsigned int)(*s >> 32);
}

/* WW_K distinct objects of @n, in random order. */
static void pick(uint64_t *s, unsigned int n, unsigned int *set)
{
	unsigned int i, j;

	for (i = 0; i < WW_K; i++) {
again:
		set[i] = rnd(s) % n;
		for (j = 0; j < i; j++)
			if (set[j] == set[i])
				goto again;
	}
}

/* The critical section: every object of the set, alone in it. */
static void touch(struct ww_window *w, const unsigned int *set, int me)
{
	unsigned int i;

	for (i = 0; i < WW_K; i++) {
		struct ww_obj *o = &w->obj[set[i]];

		if (__atomic_exchange_n(&o->holder, me, __ATOMIC_RELAXED))
			w->broken = true;
		o->v++;
	}
	for (i = 0; i < WW_K; i++)
		__atomic_store_n(&w->obj[set[i]].holder, 0, __ATOMIC_RELAXED);
}

/* One transaction with ww_mutexes; returns the -EDEADLKs it met. */
static unsigned long tx_ww(struct ww_window *w, const unsigned int *set,
			   int me)
{
	struct ww_acquire_ctx ctx;
	bool held[WW_K] = { false };
	unsigned long deadlks = 0;
	unsigned int i, j;

	ww_acquire_init(&ctx, &bench_ww_class);
retry:
	for (i = 0; i < WW_K; i++) {
		if (held[i])
			continue;	/* taken by ww_mutex_lock_slow() */
		if (ww_mutex_lock(&w->obj[set[i]].ww, &ctx) == 0) {
			held[i] = true;
			continue;
		}
		deadlks++;		/* -EDEADLK: back off */
		for (j = 0; j < WW_K; j++) {
			if (held[j])
				ww_mutex_unlock(&w->obj[set[j]].ww);
			held[j] = false;
		}
		ww_mutex_lock_slow(&w->obj[set[i]].ww, &ctx);
		held[i] = true;
		goto retry;
	}
	ww_acquire_done(&ctx);
	touch(w, set, me);
	for (i = 0; i < WW_K; i++)
		ww_mutex_unlock(&w->obj[set[i]].ww);
	ww_acquire_fini(&ctx);
	return deadlks;
}

static int cmp_uint(const void *a, const void *b)
{
	unsigned int x = *(const unsigned int *)a, y = *(const unsigned int *)b;

	return x < y ? -1 : x > y;
}

/* One transaction with pthread mutexes, locked in address order. */
static void tx_sorted(struct ww_window *w, unsigned int *set, int me)
{
	unsigned int i;

	/* The objects are one array: index order is address order. */
	qsort(set, WW_K, sizeof(*set), cmp_uint);
	for (i = 0; i < WW_K; i++)
		pthread_mutex_lock(&w->obj[set[i]].pm);
	touch(w, set, me);
	for (i = WW_K; i-- > 0;)
		pthread_mutex_unlock(&w->obj[set[i]].pm);
}

static void ww_loop(struct member *m, int ph)
{
	struct ww_worker *t = crew_worker(m, struct ww_worker);
	struct ww_window *w = t->win;
	bool ww = w->ops == &kmutex_ww_ops;
	uint64_t s = t->seed, x = t->sink;
	int me = (int)t->id + 1;
	unsigned long n = 0, d = 0;
	unsigned int set[WW_K];

	while (crew_phase(&w->crew) == ph) {
		pick(&s, w->n, set);
		if (ww)
			d += tx_ww(w, set, me);
		else
			tx_sorted(w, set, me);
		n++;
		x = private_work(x, w->private_steps);
	}
	t->seed = s;
	t->sink = x;
	if (ph == PHASE_RUN) {
		m->ops = n;
		t->deadlks = d;
	}
}

void run_ww_window(const struct ww_cfg *cfg, struct ww_res *res)
{
	struct ww_window *w = alloc_or_die(sizeof(*w));
	struct ww_obj *obj = alloc_or_die(cfg->objects * sizeof(*obj));
	struct ww_worker *t = alloc_or_die(cfg->crew.threads * sizeof(*t));
	struct crew_sum sum;
	unsigned long deadlks = 0;
	unsigned int i;

	for (i = 0; i < cfg->objects; i++) {
		ww_mutex_init(&obj[i].ww, &bench_ww_class);
		pthread_mutex_init(&obj[i].pm, NULL);
	}
	w->ops = cfg->ops;
	w->obj = obj;
	w->n = cfg->objects;
	w->private_steps = cfg->crew.private_steps;
	for (i = 0; i < cfg->crew.threads; i++) {
		t[i].win = w;
		t[i].id = i;
		t[i].seed = 0x9e3779b97f4a7c15ull * (i + 1);
		t[i].sink = i;
	}
	crew_run(&w->crew, &cfg->crew, &t[0].m, sizeof(t[0]), ww_loop,
		 cfg->ops->name, &sum);
	for (i = 0; i < cfg->crew.threads; i++)
		deadlks += t[i].deadlks;
	res->mops = crew_mops(&sum);
	res->deadlks_per_tx = sum.ops ? (double)deadlks / (double)sum.ops : 0;
	res->broken = w->broken;
	for (i = 0; i < cfg->objects; i++) {
		ww_mutex_destroy(&obj[i].ww);
		pthread_mutex_destroy(&obj[i].pm);
	}
	free(t);
	free(obj);
	free(w);
}
