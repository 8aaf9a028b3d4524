// SPDX-License-Identifier: MIT
/*
 * ww.c - ww_mutexes in the lock-order checks, as lockdep has them
 * (issue 12).  The kernel's ww_acquire_init() takes the context's
 * dep_map, of the class's acquire class, as a lock, and ww_mutex_lock()
 * takes the ww_mutex as a mutex of the class's mutex class with that
 * context as its nest lock (mutex_acquire_nest()).  So nesting ww_mutexes
 * of one class inside one context adds no dependency and is no
 * recursion (nest_lock_check(), validate_chain()), while every other
 * order is checked: a mutex taken inside a context in one place and
 * around one in another is a cycle.
 *
 * The context's map is one per ww_class, kept here (a thread holds at
 * most one context of a class: two would be recursion, as in lockdep),
 * so the public structs keep their layout.
 */
#include "../api.h"

#include <stdlib.h>

#include <linux/ww_mutex.h>

#include "debug.h"
#include "hooks.h"

struct ww_maps {
	const struct ww_class *ww_class;
	struct kmutex_lockdep_map acquire;	/* the contexts' "lock" */
	struct ww_maps *next;
};

static struct ww_maps *ww_maps_list;	/* added under lockdep_lock */

static struct ww_maps *ww_maps_new(const struct ww_class *c)
{
	/* Kept for ever: a copy of the name (strs.c says why). */
	const char *name[1] = { c->acquire_name };
	struct ww_maps *m = calloc_strs(sizeof(*m), name, 1);

	if (!m)
		return NULL;
	m->ww_class = c;
	m->acquire.map.key = &c->acquire_name;
	m->acquire.map.name = name[0];
	m->acquire.map.site = "ww_acquire_init";
	m->acquire.cookie = KMUTEX_LOCKDEP_MAP_COOKIE;
	m->next = ww_maps_list;
	__atomic_store_n(&ww_maps_list, m, __ATOMIC_RELEASE);
	return m;
}

/* The maps of @c, made on first use; NULL if out of memory. */
static struct ww_maps *ww_maps(const struct ww_class *c)
{
	struct ww_maps *m;

	for (m = __atomic_load_n(&ww_maps_list, __ATOMIC_ACQUIRE); m;
	     m = m->next)
		if (m->ww_class == c)
			return m;
	lockdep_lock_acquire();
	for (m = ww_maps_list; m; m = m->next)
		if (m->ww_class == c)
			break;
	if (!m)
		m = ww_maps_new(c);
	lockdep_lock_release();
	return m;
}

/*
 * The held entry for taking @lock in @ctx.  Every ww_mutex of a class
 * is of one lock class, as the kernel's ww_mutex_init() gives them the
 * class's mutex_key.  Return: the context's map if this thread holds
 * it, else NULL.
 */
static const struct kmutex_dep_map *
ww_fill(struct kmutex_thread *t, struct held_lock *next,
	struct ww_mutex *lock, struct ww_acquire_ctx *ctx, bool trylock,
	const char *call, const void *ip)
{
	struct kmutex_dep_map *map = &lock->base.dep_map;
	const struct ww_class *c = lock->ww_class;
	struct ww_maps *m = ctx && ctx->ww_class ? ww_maps(ctx->ww_class) : NULL;
	struct held_lock *top;

	/*
	 * First use of a lock of the class: threads that take it together
	 * would race on the map (TSan saw it once the tests' threads started
	 * together).  Set once, under lockdep's lock; map_set_key() stores
	 * the key last, RELEASE, for the ACQUIRE here.
	 */
	if (c && __atomic_load_n(&map->key, __ATOMIC_ACQUIRE) !=
		 &c->mutex_name) {
		lockdep_lock_acquire();
		if (map->key != &c->mutex_name)
			kmutex_lockdep_set_class(map, &c->mutex_name,
						 c->mutex_name);
		lockdep_lock_release();
	}
	held_fill(t, next, map, 0, call, ip);
	next->obj = lock;
	next->obj_size = sizeof(*lock);
	next->owner = NULL;
	next->trylock = trylock;
	next->read = false;
	next->stat_type = CS_WW;
	if (!m || !held_find(t, &m->acquire.map))
		return NULL;
	top = &t->held[t->depth - 1];
	if (top->class == next->class) {	/* fold, as nest_lock_check() */
		next->folded = true;
		next->chain_key = top->chain_key;
	}
	return &m->acquire.map;
}

/**
 * ww_dep_lock - check a ww_mutex lock call before it may block
 * @lock: the ww_mutex
 * @ctx: the context, or NULL (a plain mutex lock)
 * @call: the API call
 * @ip: its return address
 */
void ww_dep_lock(struct ww_mutex *lock, struct ww_acquire_ctx *ctx,
		 const char *call, const void *ip)
{
	const struct kmutex_dep_map *nest;
	struct kmutex_thread *t;
	struct held_lock next, *prev;

	if (lockdep_recursion)
		return;
	if (ctx && __atomic_load_n(&lock->ctx, __ATOMIC_RELAXED) == ctx)
		return;		/* -EALREADY, before lockdep, as the kernel */
	t = lockdep_thread();
	nest = ww_fill(t, &next, lock, ctx, false, call, ip);
	if (ctx && !nest)
		nest = nest_lock_check(t, &next, &ww_maps(ctx->ww_class)->acquire.map);
	prev = held_find(t, &lock->base.dep_map);
	dep_hook_order(t, &next, prev, nest, lock);
}

/**
 * ww_dep_locked - a ww_mutex lock call returned
 * @lock: the ww_mutex
 * @ctx: the context, or NULL
 * @ret: what it returned (0: @lock is held)
 * @trylock: it was ww_mutex_trylock()
 * @call: the API call
 * @ip: its return address
 */
void ww_dep_locked(struct ww_mutex *lock, struct ww_acquire_ctx *ctx,
		   int ret, bool trylock, const char *call, const void *ip)
{
	struct kmutex_thread *t;
	struct held_lock next;

	if (ret || lockdep_recursion)
		return;
	t = lockdep_thread();
	(void)ww_fill(t, &next, lock, ctx, trylock, call, ip);
	dep_hook_taken(t, &next);
}

/* ww_mutex_unlock(): this thread holds @lock no more. */
void ww_dep_unlock(struct ww_mutex *lock)
{
	struct kmutex_thread *t;
	struct held_lock *h;

	if (lockdep_recursion)
		return;
	t = lockdep_thread();
	h = held_find(t, &lock->base.dep_map);
	if (h)
		dep_hook_release(t, h);
	else if (t->lost)
		t->lost--;
}

/* ww_acquire_init() (@begin) and ww_acquire_fini(): the context's map. */
void ww_dep_ctx(struct ww_acquire_ctx *ctx, bool begin, const char *call,
		const void *ip)
{
	struct ww_maps *m = ctx->ww_class ? ww_maps(ctx->ww_class) : NULL;
	struct kmutex_thread *t;
	struct held_lock *h;

	if (!m || lockdep_recursion)
		return;
	if (begin) {
		kmutex_lock_acquire(&m->acquire, 0, 0, 0, 1, NULL, ip, call);
		return;
	}
	t = lockdep_thread();
	h = held_find(t, &m->acquire.map);
	if (h)
		dep_hook_release(t, h);
}
