// SPDX-License-Identifier: MIT
/*
 * map.c - the lockdep_map interface: a program's own lock types (a spin
 * lock of its own, a "fake" lock such as the kernel's workqueue maps)
 * taken through lock_acquire()/lock_release() join the checks of the
 * kmutex locks: recursion, cycles with mutexes and rw_semaphores, bad
 * unlock, held at exit, held lock freed.  And the asserts
 * (lockdep_assert_held() and kin, lockdep_is_held(), lockdep_set_*()),
 * given any object: a kmutex lock, a lockdep_map, or an object that
 * embeds one (found by its cookie); anything else is not checked.
 */
#include "../api.h"

#include <stdio.h>
#include <string.h>

#include <linux/ww_mutex.h>

#include "debug.h"
#include "hooks.h"

/* The map @obj (of @kind and @size bytes) holds, or NULL. */
static struct kmutex_dep_map *map_of(const void *obj, int kind, size_t size)
{
	const size_t step = _Alignof(struct kmutex_lockdep_map);
	const struct kmutex_lockdep_map *m;
	size_t off;

	switch (kind) {
	case __KMUTEX_KIND_MUTEX:
		return &((struct mutex *)obj)->dep_map;
	case __KMUTEX_KIND_RWSEM:
		return &((struct rw_semaphore *)obj)->dep_map;
	case __KMUTEX_KIND_WW:
		return &((struct ww_mutex *)obj)->base.dep_map;
	}
	/* A lockdep_map, or an object of the program's that embeds one. */
	for (off = 0; off + sizeof(*m) <= size; off += step) {
		m = (const void *)((const char *)obj + off);
		if (m->cookie == KMUTEX_LOCKDEP_MAP_COOKIE)
			return (struct kmutex_dep_map *)&m->map;
	}
	return NULL;
}

static void map_setup(struct kmutex_lockdep_map *m, const char *name,
		      const void *key, const char *site)
{
	memset(&m->map, 0, sizeof(m->map));
	m->map.key = key;
	m->map.name = name;
	m->map.site = site;
	__atomic_store_n(&m->cookie, KMUTEX_LOCKDEP_MAP_COOKIE,
			 __ATOMIC_RELEASE);
}

/**
 * kmutex_lockdep_init_map - lockdep_init_map()
 * @map: the program's lock's map
 * @name: its name in reports
 * @key: its class (a static struct lock_class_key), or NULL: the map's own
 * @subclass: unused; lock_acquire() says the subclass of each acquisition
 * @site: "file.c:12" of the call
 */
KMUTEX_API void kmutex_lockdep_init_map(struct kmutex_lockdep_map *map,
					const char *name, const void *key,
					int subclass, const char *site)
{
	(void)subclass;
	map_setup(map, name, key, site);
}

/**
 * kmutex_lock_acquire - lock_acquire(), lock_map_acquire*()
 * @map: the lock's map
 * @subclass: the nesting level, as mutex_lock_nested()'s
 * @trylock: nonzero: cannot deadlock, not validated
 * @read: 0 exclusive, 1 shared, 2 shared and recursive
 * @check: 0: tracked but not validated
 * @nest: the nest lock (as mutex_lock_nest_lock()'s), or NULL
 * @ip: the caller's address, for the report
 * @call: the caller's expression and line
 *
 * Called before the program's lock blocks, so that a deadlock is
 * reported rather than entered.
 */
KMUTEX_API void kmutex_lock_acquire(struct kmutex_lockdep_map *map,
				    unsigned int subclass, int trylock,
				    int read, int check,
				    struct kmutex_lockdep_map *nest,
				    const void *ip, const char *call)
{
	struct kmutex_thread *t;
	struct held_lock next, *prev;
	bool order;

	if (lockdep_recursion)
		return;
	if (!ip)
		ip = __builtin_return_address(0);
	t = lockdep_thread();
	if (__atomic_load_n(&map->cookie, __ATOMIC_ACQUIRE) !=
	    KMUTEX_LOCKDEP_MAP_COOKIE)
		map_setup(map, call, NULL, "(never initialised)");
	held_fill(t, &next, &map->map, subclass, call, ip);
	next.obj = map;
	next.obj_size = sizeof(*map);
	next.owner = NULL;
	next.trylock = trylock != 0;
	next.read = read != 0;
	prev = held_find(t, &map->map);
	/*
	 * Recursion is checked for any acquisition but a recursive read
	 * over a read; the order only for a checked, blocking one.
	 */
	if (prev && read == 2 && prev->read)
		order = false;
	else
		order = prev || (check && !trylock);
	dep_hook_acquire(t, &next, prev, nest ? &nest->map : NULL, order,
			 NULL);
	dep_hook_taken(t, &next);
}

static void report_bad_release(struct kmutex_thread *t,
			       struct kmutex_lockdep_map *map,
			       const char *call, const void *ip)
{
	struct kmutex_lock_class *c = class_get(&map->map, 0);

	lockdep_lock_acquire();
	if (report_begin(R_UNLOCK, c->id,
			 "WARNING: bad unlock balance detected!")) {
		report_trying(t->tid, "release", &map->map, c, call, ip);
		rprintf("\n\nbut there are no more locks to release!\n\n");
		report_finish(t, ip);
	}
	lockdep_lock_release();
}

/**
 * kmutex_lock_release - lock_release(), lock_map_release()
 * @map: the lock's map
 * @ip: the caller's address
 * @call: the caller's expression and line
 *
 * Reports "bad unlock balance" if the thread does not hold @map.
 */
KMUTEX_API void kmutex_lock_release(struct kmutex_lockdep_map *map,
				    const void *ip, const char *call)
{
	struct kmutex_thread *t;
	struct held_lock *h;

	if (lockdep_recursion)
		return;
	if (!ip)
		ip = __builtin_return_address(0);
	t = lockdep_thread();
	h = held_find(t, &map->map);
	if (h)
		dep_hook_release(t, h);
	else if (t->lost)
		t->lost--;
	else
		report_bad_release(t, map, call, ip);
}

/* @map's entry in the calling thread's held stack, or NULL. */
static struct held_lock *map_held(struct kmutex_lockdep_map *map)
{
	if (lockdep_recursion)
		return NULL;
	return held_find(lockdep_thread(), &map->map);
}

/**
 * kmutex_lock_contended - lock_contended()
 * @map: the lock's map, acquired (lock_acquire()) by the calling thread
 * @ip: the contention point (unused: the statistics are per class)
 *
 * The program's lock was held by another thread: its wait starts, for
 * the lock statistics (KMUTEX_STAT, the table of lock classes), until
 * lock_acquired().  A map the thread does not hold is ignored.
 */
KMUTEX_API void kmutex_lock_contended(struct kmutex_lockdep_map *map,
				      const void *ip)
{
	struct held_lock *h = map_held(map);

	(void)ip;
	if (h)
		dep_hook_contended(h);
}

/**
 * kmutex_lock_acquired - lock_acquired()
 * @map: the lock's map, acquired (lock_acquire()) by the calling thread
 * @ip: the caller's address (unused)
 *
 * The program's lock is taken: after lock_contended(), one contention
 * of its class and its wait time are counted, and its hold time starts
 * now.  Without lock_contended() before, nothing is counted.
 */
KMUTEX_API void kmutex_lock_acquired(struct kmutex_lockdep_map *map,
				     const void *ip)
{
	struct held_lock *h = map_held(map);

	(void)ip;
	if (h)
		dep_hook_acquired(h);
}

/**
 * kmutex_lock_is_held - lockdep_is_held()
 * @obj: the lock, or an object that embeds a lockdep_map
 * @kind: what @obj is (__KMUTEX_KIND_*)
 * @size: its size
 * @read: -1 either way, 0 exclusively, 1 shared
 *
 * Return: 1 if the calling thread holds it so (or cannot tell: its
 * stack overflowed, or @obj has no map), else 0.
 */
KMUTEX_API int kmutex_lock_is_held(const void *obj, int kind, size_t size,
				   int read)
{
	struct kmutex_dep_map *map = map_of(obj, kind, size);
	struct kmutex_thread *t;
	struct held_lock *h;

	if (!map || lockdep_recursion)
		return 1;
	t = lockdep_thread();
	h = held_find(t, map);
	if (!h)
		return t->lost ? 1 : 0;
	return read < 0 || h->read == (read != 0);
}

static const char *const assert_names[] = {
	[__KMUTEX_ASSERT_HELD] = "lockdep_assert_held",
	[__KMUTEX_ASSERT_HELD_WRITE] = "lockdep_assert_held_write",
	[__KMUTEX_ASSERT_HELD_READ] = "lockdep_assert_held_read",
	[__KMUTEX_ASSERT_NOT_HELD] = "lockdep_assert_not_held",
};

/* Whether the assert @what holds of @map for @t. */
static bool assert_ok(struct kmutex_thread *t, struct kmutex_dep_map *map,
		      int what)
{
	struct held_lock *h = held_find(t, map);

	if (t->lost)
		return true;	/* cannot tell */
	switch (what) {
	case __KMUTEX_ASSERT_HELD_WRITE:
		return h && !h->read;
	case __KMUTEX_ASSERT_HELD_READ:
		return h && h->read;
	case __KMUTEX_ASSERT_NOT_HELD:
		return !h;
	}
	return h != NULL;
}

/**
 * kmutex_lockdep_assert - lockdep_assert_held() and its kin
 * @obj: the lock, or an object that embeds a lockdep_map
 * @kind: what @obj is (__KMUTEX_KIND_*)
 * @size: its size
 * @what: __KMUTEX_ASSERT_*
 * @expr: the argument as written
 * @site: the caller's line
 *
 * An object without a map is not checked.
 */
KMUTEX_API void kmutex_lockdep_assert(const void *obj, int kind, size_t size,
				      int what, const char *expr,
				      const char *site)
{
	struct kmutex_dep_map *map = map_of(obj, kind, size);
	const void *ip = __builtin_return_address(0);
	struct kmutex_thread *t;
	char title[160];

	if (!map || lockdep_recursion || what < 0 || what > 3)
		return;
	t = lockdep_thread();
	if (__kmutex_likely(assert_ok(t, map, what)))
		return;
	snprintf(title, sizeof(title), "WARNING: %s(%s) failed",
		 assert_names[what], expr);
	lockdep_lock_acquire();
	if (report_begin(R_ASSERT, report_hash((uintptr_t)site, map->key ?
			(uintptr_t)map->key : (uintptr_t)map), title)) {
		report_thread(t->tid);
		rprintf(" at %s %s lock:\n  ", site,
			what == __KMUTEX_ASSERT_NOT_HELD ? "holds" :
			what == __KMUTEX_ASSERT_HELD ? "does not hold" :
			"does not hold, in that mode,");
		report_lock(map, NULL);
		rprintf("\n  at: ");
		ip_print(ip);
		rprintf("\n\n");
		report_finish(t, ip);
	}
	lockdep_lock_release();
}

/**
 * kmutex_lockdep_set_class_obj - lockdep_set_class(), _novalidate_class()
 * @obj: the lock, or an object that embeds a lockdep_map
 * @kind: what @obj is (__KMUTEX_KIND_*)
 * @size: its size
 * @key: the class key, or NULL: take the lock out of the order checks
 * @key_name: the key as written
 */
KMUTEX_API void kmutex_lockdep_set_class_obj(const void *obj, int kind,
					     size_t size, const void *key,
					     const char *key_name)
{
	struct kmutex_dep_map *map = map_of(obj, kind, size);

	if (!map)
		return;
	if (key)
		kmutex_lockdep_set_class(map, key, key_name);
	else
		kmutex_lockdep_set_novalidate_class(map);
}
