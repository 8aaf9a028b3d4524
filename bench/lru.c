// SPDX-License-Identifier: MIT
/*
 * lru.c - an application-shaped workload: an LRU cache, a hash map of
 * LRU_CAPACITY entries with a recency list, shared by every thread under
 * one lock taken through struct lock_ops.  It answers "does my program
 * get faster", beside the microbenchmarks' fixed critical sections.
 *
 * Each operation draws a key uniformly from LRU_KEYS (twice the
 * capacity, so about half the gets miss) and is a put with probability
 * LRU_PUT_PCT%, else a get, from a per-thread generator with a fixed
 * seed; then private work.  A get that hits moves its entry to the front
 * of the list; a put updates an entry or inserts one, evicting the least
 * recently used.  Either way the critical section touches a bucket, a
 * chain, the list's head and an entry's neighbours: a handful of shared
 * cache lines, an irregular amount of work, as a real cache has.
 *
 * A put writes a check word beside the value (value ^ key ^ LRU_MAGIC);
 * a get that reads a mismatched pair saw a put half done, and the map's
 * shape is checked after every window: either means the lock let two
 * threads in (BROKEN).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crew.h"
#include "run.h"
#include "work.h"

#define LRU_BUCKETS	4096		/* a power of 2 */
#define LRU_HASH_SHIFT	(32 - 12)
#define LRU_NIL		UINT32_MAX
#define LRU_MAGIC	0x5a5a5a5a5a5a5a5aull

struct lru_entry {
	uint32_t key;
	uint32_t hnext;			/* bucket chain */
	uint32_t prev, next;		/* recency list, head = newest */
	uint64_t value, check;
};

struct lru {
	uint32_t head, tail, count;
	bool broken;			/* a chain or list out of bounds */
	uint32_t bucket[LRU_BUCKETS] __attribute__((aligned(64)));
	struct lru_entry e[LRU_CAPACITY] __attribute__((aligned(64)));
};

struct lru_window {
	struct crew crew;
	const struct lru_cfg *cfg __attribute__((aligned(64)));
	void *lock;
	struct lru *cache;
};

struct lru_worker {
	struct member m;
	struct lru_window *win;
	unsigned long gets, hits;	/* in the window */
	uint64_t seed, sink;
	bool torn;
} __attribute__((aligned(128)));

static inline uint32_t lru_hash(uint32_t key)
{
	return (key * 0x9e3779b1u) >> LRU_HASH_SHIFT;
}

/* The entry holding @key, or LRU_NIL. */
static uint32_t lru_find(struct lru *c, uint32_t key)
{
	uint32_t i = c->bucket[lru_hash(key)], n = 0;

	for (; i != LRU_NIL; i = c->e[i].hnext) {
		if (i >= LRU_CAPACITY || ++n > LRU_CAPACITY) {
			c->broken = true;
			return LRU_NIL;
		}
		if (c->e[i].key == key)
			return i;
	}
	return LRU_NIL;
}

static void list_unlink(struct lru *c, uint32_t i)
{
	uint32_t p = c->e[i].prev, n = c->e[i].next;

	if (p != LRU_NIL)
		c->e[p].next = n;
	else
		c->head = n;
	if (n != LRU_NIL)
		c->e[n].prev = p;
	else
		c->tail = p;
}

static void list_push_front(struct lru *c, uint32_t i)
{
	c->e[i].prev = LRU_NIL;
	c->e[i].next = c->head;
	if (c->head != LRU_NIL)
		c->e[c->head].prev = i;
	else
		c->tail = i;
	c->head = i;
}

static void list_move_front(struct lru *c, uint32_t i)
{
	if (c->head == i)
		return;
	list_unlink(c, i);
	list_push_front(c, i);
}

/* Take entry @i out of its bucket's chain. */
static void hash_remove(struct lru *c, uint32_t i)
{
	uint32_t *p = &c->bucket[lru_hash(c->e[i].key)], n = 0;

	while (*p != i) {
		if (*p >= LRU_CAPACITY || ++n > LRU_CAPACITY) {
			c->broken = true;
			return;
		}
		p = &c->e[*p].hnext;
	}
	*p = c->e[i].hnext;
}

/* Look @key up; true with its value in *@value if present. */
static bool lru_get(struct lru *c, uint32_t key, uint64_t *value,
		    bool *torn)
{
	uint32_t i = lru_find(c, key);

	if (i == LRU_NIL)
		return false;
	*value = c->e[i].value;
	if (c->e[i].check != (*value ^ key ^ LRU_MAGIC))
		*torn = true;
	list_move_front(c, i);
	return true;
}

static void lru_put(struct lru *c, uint32_t key, uint64_t value)
{
	uint32_t i = lru_find(c, key), h;

	if (i != LRU_NIL) {
		c->e[i].value = value;
		c->e[i].check = value ^ key ^ LRU_MAGIC;
		list_move_front(c, i);
		return;
	}
	if (c->count < LRU_CAPACITY) {
		i = c->count++;
	} else {
		i = c->tail;
		if (i >= LRU_CAPACITY) {
			c->broken = true;
			return;
		}
		list_unlink(c, i);
		hash_remove(c, i);
	}
	h = lru_hash(key);
	c->e[i].key = key;
	c->e[i].value = value;
	c->e[i].check = value ^ key ^ LRU_MAGIC;
	c->e[i].hnext = c->bucket[h];
	c->bucket[h] = i;
	list_push_front(c, i);
}

/* Full, with every even key: the window starts in the steady state. */
static void lru_fill(struct lru *c)
{
	uint32_t k;

	memset(c, 0, sizeof(*c));
	c->head = c->tail = LRU_NIL;
	for (k = 0; k < LRU_BUCKETS; k++)
		c->bucket[k] = LRU_NIL;
	for (k = 0; k < LRU_CAPACITY; k++)
		lru_put(c, 2 * k, k);
}

/* The list and the chains agree, and hold count entries: false if not. */
static bool lru_sound(struct lru *c)
{
	uint32_t i, prev = LRU_NIL, n = 0, chained = 0;

	for (i = c->head; i != LRU_NIL; i = c->e[i].next) {
		if (i >= LRU_CAPACITY || ++n > c->count ||
		    c->e[i].prev != prev || lru_find(c, c->e[i].key) != i)
			return false;
		prev = i;
	}
	if (n != c->count || c->tail != prev || c->broken)
		return false;
	for (i = 0; i < LRU_BUCKETS; i++) {
		uint32_t j;

		for (j = c->bucket[i]; j != LRU_NIL; j = c->e[j].hnext)
			if (j >= LRU_CAPACITY || ++chained > n)
				return false;
	}
	return chained == n;
}

static void lru_loop(struct member *m, int ph)
{
	struct lru_worker *w = crew_worker(m, struct lru_worker);
	struct lru_window *win = w->win;
	const struct lru_cfg *cfg = win->cfg;
	void (*lock)(void *) = cfg->ops->lock;
	void (*unlock)(void *) = cfg->ops->unlock;
	struct lru *c = win->cache;
	void *l = win->lock;
	uint64_t x = w->seed, sink = w->sink, v = 0;
	unsigned long n = 0, gets = 0, hits = 0;

	while (crew_phase(&win->crew) == ph) {
		uint32_t key;
		bool put;

		/* The high bits of the LCG: its low bits are weak. */
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		key = (uint32_t)(x >> 33) % LRU_KEYS;
		put = ((x >> 16) & 0xffff) * 100 < LRU_PUT_PCT * 0x10000ull;
		lock(l);
		if (put) {
			lru_put(c, key, x);
		} else {
			hits += lru_get(c, key, &v, &w->torn);
			gets++;
		}
		unlock(l);
		sink ^= v;
		x = private_work(x, cfg->crew.private_steps);
		n++;
	}
	w->seed = x;
	w->sink = sink;
	if (ph == PHASE_RUN) {
		m->ops = n;
		w->gets = gets;
		w->hits = hits;
	}
}

int run_lru_window(const struct lru_cfg *cfg, struct lru_res *res)
{
	struct lru_window *win = alloc_or_die(sizeof(*win));
	struct lru_worker *w;
	struct crew_sum sum;
	unsigned int i, n = cfg->crew.threads;

	w = alloc_or_die(n * sizeof(*w));
	memset(res, 0, sizeof(*res));
	win->cfg = cfg;
	win->cache = alloc_or_die(sizeof(*win->cache));
	lru_fill(win->cache);
	win->lock = lock_alloc(cfg->ops);
	for (i = 0; i < n; i++) {
		w[i].win = win;
		w[i].seed = 0x2545f4914f6cdd1dull * (i + 1);
	}
	crew_run(&win->crew, &cfg->crew, &w[0].m, sizeof(w[0]), lru_loop,
		 cfg->ops->name, &sum);

	res->ops = sum.ops;
	res->mops = crew_mops(&sum);
	for (i = 0; i < n; i++) {
		res->gets += w[i].gets;
		res->hits += w[i].hits;
		res->broken |= w[i].torn;
	}
	if (!lru_sound(win->cache))
		res->broken = true;

	lock_free(cfg->ops, win->lock);
	free(win->cache);
	free(w);
	free(win);
	return 0;
}
