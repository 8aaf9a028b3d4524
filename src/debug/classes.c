// SPDX-License-Identifier: MIT
/*
 * classes.c - lock classes, keyed by (key, subclass).
 *
 * The key is the address of a static struct lock_class_key made at the
 * mutex_init() call site (or given by lockdep_set_class()), or, for a
 * statically defined lock (key NULL), the address of the lock's own map:
 * the idea of the kernel's lockdep, where a class is "all locks
 * initialised at one place".  Classes are never freed, so a lock may
 * cache its class pointers (map->class_cache) and the common path finds
 * its class without a lookup.
 */
#include "../api.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "debug.h"

/* lockdep_set_novalidate_class(): a key whose classes are not checked. */
char lockdep_novalidate_key;

#define CLASS_HASH	(2 * MAX_CLASSES)	/* open addressing, pow2 */

static struct kmutex_lock_class *class_hash[CLASS_HASH];
/* The class of every lock once the checker is off: checks nothing. */
static struct kmutex_lock_class class_off = {
	.name = "(checking off)", .site = "?", .novalidate = true,
};
static unsigned int nr_classes;

static unsigned int class_slot(const void *key, unsigned int subclass)
{
	uint64_t h = chain_key_next((uintptr_t)key, subclass + 1);

	return (unsigned int)(h & (CLASS_HASH - 1));
}

/*
 * Classes of one name (two structs both with a "&r->lock") are told apart
 * in reports as "&r->lock", "&r->lock#2", ... as lockdep does.
 */
static unsigned int name_version(const char *name, const void *key)
{
	unsigned int i, v = 1;

	/* Subclasses of a key share its version: count other keys only. */
	for (i = 0; i < CLASS_HASH; i++)
		if (class_hash[i] && class_hash[i]->subclass == 0 &&
		    class_hash[i]->key != key &&
		    !strcmp(class_hash[i]->name, name))
			v++;
	return v;
}

/* Under lockdep_lock. */
static struct kmutex_lock_class *class_lookup_add(struct kmutex_dep_map *map,
						  const void *key,
						  unsigned int subclass)
{
	unsigned int i = class_slot(key, subclass);
	struct kmutex_lock_class *c;
	const char *strs[2] = {
		map->key_name ? map->key_name : map->name, map->site
	};

	for (;; i = (i + 1) & (CLASS_HASH - 1)) {
		c = class_hash[i];
		if (!c)
			break;
		if (c->key == key && c->subclass == subclass)
			return c;
	}
	if (nr_classes >= MAX_CLASSES) {
		if (!lockdep_off)
			fprintf(stderr, "kmutex-debug: BUG: more than %d lock "
				"classes; lock checking turned off\n",
				MAX_CLASSES);
		lockdep_off = true;
		return NULL;
	}
	c = calloc_strs(sizeof(*c), strs, 2);
	if (!c) {
		lockdep_off = true;
		return NULL;
	}
	c->key = key;
	c->subclass = subclass;
	c->id = ++nr_classes;
	c->name = strs[0];
	c->site = strs[1];
	c->novalidate = key == &lockdep_novalidate_key;
	c->name_version = name_version(c->name, key);
	/* Read without lockdep_lock by class_next(): published whole. */
	__atomic_store_n(&class_hash[i], c, __ATOMIC_RELEASE);
	return c;
}

/**
 * class_get - the class of a lock taken with a subclass
 * @map: the lock's map
 * @subclass: 0, or the mutex_lock_nested() level
 *
 * Return: the class; once a table overflowed, a class that is not checked.
 */
struct kmutex_lock_class *class_get(struct kmutex_dep_map *map,
				    unsigned int subclass)
{
	struct kmutex_lock_class *c;
	const void *key;

	if (subclass >= KMUTEX_MAX_SUBCLASSES)
		subclass = KMUTEX_MAX_SUBCLASSES - 1;
	c = __atomic_load_n(&map->class_cache[subclass], __ATOMIC_ACQUIRE);
	if (__kmutex_likely(c != NULL))
		return c;
	key = map->key ? (const void *)map->key : (const void *)map;
	lockdep_lock_acquire();
	c = class_lookup_add(map, key, subclass);
	lockdep_lock_release();
	if (!c)
		return &class_off;
	__atomic_store_n(&map->class_cache[subclass], c, __ATOMIC_RELEASE);
	return c;
}

/**
 * class_next - walk the classes, without lockdep_lock
 * @pos: 0 to start; moved past the class returned
 *
 * Return: the next class, or NULL at the end.  Classes added meanwhile
 * may or may not be seen.
 */
struct kmutex_lock_class *class_next(unsigned int *pos)
{
	for (; *pos < CLASS_HASH; (*pos)++) {
		struct kmutex_lock_class *c =
			__atomic_load_n(&class_hash[*pos], __ATOMIC_ACQUIRE);

		if (c) {
			(*pos)++;
			return c;
		}
	}
	return NULL;
}

/*
 * Forget the cached classes: the key changed.  The key is stored last,
 * RELEASE: a thread that reads it with ACQUIRE and finds the new key
 * (ww_fill()'s first-use check) also sees the name and the caches.
 */
static void map_set_key(struct kmutex_dep_map *map,
			const void *key, const char *key_name)
{
	int i;

	map->key_name = key_name;
	for (i = 0; i < KMUTEX_MAX_SUBCLASSES; i++)
		__atomic_store_n(&map->class_cache[i], NULL, __ATOMIC_RELAXED);
	__atomic_store_n(&map->key, key, __ATOMIC_RELEASE);
}

/**
 * kmutex_lockdep_set_class - lockdep_set_class()
 * @map: the lock's map
 * @key: a static struct lock_class_key: the lock's class from now on
 * @key_name: the key as written, the class's name in reports
 */
KMUTEX_API void kmutex_lockdep_set_class(struct kmutex_dep_map *map,
					 const void *key,
					 const char *key_name)
{
	map_set_key(map, key, key_name);
}

/**
 * kmutex_lockdep_set_novalidate_class - lockdep_set_novalidate_class()
 * @map: the lock's map
 *
 * The lock is still tracked (unlock balance, held lock freed, locks held
 * at exit) but takes no part in the recursion and order checks.
 */
KMUTEX_API void kmutex_lockdep_set_novalidate_class(struct kmutex_dep_map *map)
{
	map_set_key(map, &lockdep_novalidate_key, "(novalidate)");
}
