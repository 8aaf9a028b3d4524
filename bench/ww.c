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
#include <string.h>

#include <linux/ww_mutex.h>

#include "bench.h"
#include "clock.h"
#include "run.h"

#define MAX_WW_THREADS	64

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
	int phase __attribute__((aligned(64)));
	const struct lock_ops *ops __attribute__((aligned(64)));
	struct ww_obj *obj;
	unsigned int n, private_steps;
	bool broken;
};

struct ww_worker {
	struct ww_window *win;
	pthread_t tid;
	unsigned int id;
	unsigned long ops, deadlks;
	uint64_t t_start, t_stop, sink;
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

static void *ww_worker_main(void *arg)
{
	struct ww_worker *t = arg;
	struct ww_window *w = t->win;
	bool ww = w->ops == &kmutex_ww_ops;
	uint64_t s = 0x9e3779b97f4a7c15ull * (t->id + 1), x = t->id;
	int seen = PHASE_WARM, me = (int)t->id + 1;
	unsigned long n = 0, d = 0;
	unsigned int set[WW_K];

	for (;;) {
		int ph = __atomic_load_n(&w->phase, __ATOMIC_RELAXED);

		if (ph != seen) {
			if (ph == PHASE_STOP)
				break;
			t->t_start = now_ns();
			n = d = 0;
			seen = ph;
		}
		pick(&s, w->n, set);
		if (ww)
			d += tx_ww(w, set, me);
		else
			tx_sorted(w, set, me);
		n++;
		x = private_work(x, w->private_steps);
	}
	t->t_stop = now_ns();
	t->ops = n;
	t->deadlks = d;
	t->sink = x;
	return NULL;
}

void run_ww_window(const struct ww_cfg *cfg, struct ww_res *res)
{
	struct ww_window *w = aligned_alloc(128, (sizeof(*w) + 127) &
					    ~(size_t)127);
	struct ww_obj *obj = aligned_alloc(128, cfg->objects * sizeof(*obj));
	struct ww_worker *t = aligned_alloc(128, cfg->threads * sizeof(*t));
	uint64_t first = UINT64_MAX, last = 0;
	unsigned long ops = 0, deadlks = 0;
	unsigned int i;

	if (!w || !obj || !t || cfg->threads > MAX_WW_THREADS) {
		perror("aligned_alloc");
		exit(1);
	}
	memset(w, 0, sizeof(*w));
	memset(obj, 0, cfg->objects * sizeof(*obj));
	memset(t, 0, cfg->threads * sizeof(*t));
	for (i = 0; i < cfg->objects; i++) {
		ww_mutex_init(&obj[i].ww, &bench_ww_class);
		pthread_mutex_init(&obj[i].pm, NULL);
	}
	w->ops = cfg->ops;
	w->obj = obj;
	w->n = cfg->objects;
	w->private_steps = cfg->private_steps;
	w->phase = PHASE_WARM;
	for (i = 0; i < cfg->threads; i++) {
		t[i].win = w;
		t[i].id = i;
		start_or_die(&t[i].tid, ww_worker_main, &t[i]);
	}
	run_phases(&w->phase, cfg->warm_ns, cfg->run_ns);
	for (i = 0; i < cfg->threads; i++) {
		join_or_die(cfg->ops->name, cfg->threads, t[i].tid);
		ops += t[i].ops;
		deadlks += t[i].deadlks;
		if (t[i].t_start && t[i].t_start < first)
			first = t[i].t_start;
		if (t[i].t_stop > last)
			last = t[i].t_stop;
	}
	res->mops = last > first ? (double)ops / ((double)(last - first) /
						  1e3) : 0;
	res->deadlks_per_tx = ops ? (double)deadlks / (double)ops : 0;
	res->broken = w->broken;
	for (i = 0; i < cfg->objects; i++) {
		ww_mutex_destroy(&obj[i].ww);
		pthread_mutex_destroy(&obj[i].pm);
	}
	free(t);
	free(obj);
	free(w);
}
