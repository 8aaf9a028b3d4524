/* SPDX-License-Identifier: MIT */
/*
 * kmutex/lockdep.h - the lockdep annotations kernel code calls.
 *
 * In the production build they compile to nothing (but still evaluate
 * nothing and type-check their arguments loosely, as the kernel's do
 * without CONFIG_LOCKDEP).  The debugging build gives them meaning.
 */
#ifndef _KMUTEX_LOCKDEP_H
#define _KMUTEX_LOCKDEP_H

#include <stddef.h>
#include <kmutex/compiler.h>

/* One per lock class; the debugging build keys classes by its address. */
struct lock_class_key {
	char __kmutex_unused;
};

/* The usual subclass for mutex_lock_nested(): one level of nesting. */
#ifndef SINGLE_DEPTH_NESTING
#define SINGLE_DEPTH_NESTING	1
#endif

#ifndef KMUTEX_DEBUG

/**
 * lockdep_assert_held - assert that the calling thread holds a lock
 * @l: pointer to a mutex or rw_semaphore
 *
 * Production build: does nothing.  The debugging build reports
 * "lockdep_assert_held" failures.  Under clang -Wthread-safety, both
 * builds: from here on the caller is taken to hold @l (a rw_semaphore
 * for reading), as clang's assert_capability.
 */
#define lockdep_assert_held(l) \
	do { (void)__kmutex_assert_held(l); } while (0)

/**
 * lockdep_set_class - give a lock a lock class of its own
 * @l: pointer to a mutex or rw_semaphore
 * @key: pointer to a static struct lock_class_key naming the class
 *
 * Production build: does nothing.
 */
#define lockdep_set_class(l, key)		do { (void)(l); (void)(key); } while (0)

/**
 * lockdep_set_novalidate_class - take a lock out of the order checks
 * @l: pointer to a mutex or rw_semaphore
 *
 * Production build: does nothing.
 */
#define lockdep_set_novalidate_class(l)		do { (void)(l); } while (0)

/**
 * debug_check_no_locks_freed - check that no held lock lies in memory
 * @addr: start of the memory about to be freed
 * @len: its length in bytes
 *
 * Production build: does nothing.  The debugging build reports
 * "held lock freed" if a lock held by any thread lies in the range.
 */
static inline void debug_check_no_locks_freed(const void *addr, size_t len)
{
	(void)addr;
	(void)len;
}

/**
 * debug_check_no_locks_held - check that the calling thread holds no lock
 *
 * Production build: does nothing.  The debugging build reports
 * "still has locks held" if the calling thread holds any lock.
 */
static inline void debug_check_no_locks_held(void)
{
}

#else /* KMUTEX_DEBUG */

#include <kmutex/compiler.h>
#include <kmutex/debug_free.h>

/*
 * The debugging build.  Every checked lock embeds a struct kmutex_dep_map
 * named dep_map (as the kernel's locks embed a struct lockdep_map): what
 * the checker knows of the lock, independent of its kind.
 */
#define KMUTEX_MAX_SUBCLASSES	8	/* mutex_lock_nested(l, 0..7) */

struct kmutex_lock_class;

struct kmutex_dep_map {
	/* The class key; NULL: a statically defined lock, keyed by its map. */
	const struct lock_class_key *key;
	const char *name;	/* the variable, as written */
	const char *site;	/* "file.c:12", where it was initialised */
	const char *key_name;	/* lockdep_set_class()'s key, or NULL */
	/* The classes of (key, subclass), filled in on first use. */
	struct kmutex_lock_class *class_cache[KMUTEX_MAX_SUBCLASSES];
};

/*
 * What the debugging build keeps of a semaphore or a completion: they
 * take no part in the order checks (as in the kernel), so a name for
 * reports is all.
 */
struct kmutex_obj_map {
	const char *name;	/* the variable, as written */
	const char *site;	/* "file.c:12", where it was initialised */
};

void kmutex_lockdep_assert_held(const struct kmutex_dep_map *map,
				const char *expr, const char *site);
void kmutex_lockdep_set_class(struct kmutex_dep_map *map,
			      const struct lock_class_key *key,
			      const char *key_name);
void kmutex_lockdep_set_novalidate_class(struct kmutex_dep_map *map);
void kmutex_debug_check_no_locks_freed(const void *addr, size_t len);
void kmutex_debug_check_no_locks_held(void);

/* Macros, so that the report can name the caller's expression and line. */
#define lockdep_assert_held(l)						\
	kmutex_lockdep_assert_held(&__kmutex_assert_held(l)->dep_map, #l, \
				   __KMUTEX_SITE)
#define lockdep_set_class(l, key) \
	kmutex_lockdep_set_class(&(l)->dep_map, (key), #key)
#define lockdep_set_novalidate_class(l) \
	kmutex_lockdep_set_novalidate_class(&(l)->dep_map)
#define debug_check_no_locks_freed(addr, len) \
	kmutex_debug_check_no_locks_freed((addr), (len))
#define debug_check_no_locks_held() \
	kmutex_debug_check_no_locks_held()

#endif /* KMUTEX_DEBUG */

#endif /* _KMUTEX_LOCKDEP_H */
