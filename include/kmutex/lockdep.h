/* SPDX-License-Identifier: MIT */
/*
 * kmutex/lockdep.h - the lockdep annotations kernel code calls.
 *
 * In the production build they compile to nothing (but still evaluate
 * nothing and type-check their arguments loosely, as the kernel's do
 * without CONFIG_LOCKDEP).  The debugging build gives them meaning.
 *
 * Beside a project's own shims (docs/API.md, "coexistence"): as the
 * kernel's <linux/mutex.h> does, this includes the project's
 * <linux/lockdep.h> and <linux/debug_locks.h> when the include path has
 * them (no system header has those names; kmutex ships neither), and
 * then leaves struct lock_class_key, debug_check_no_locks_freed() and
 * debug_check_no_locks_held() to them.  It also leaves them alone when
 * a lockdep header came in some other way (its include guard,
 * _LINUX_LOCKDEP_H or __LINUX_LOCKDEP_H, is defined) or when the program
 * defines KMUTEX_NO_LOCKDEP_NAMES (for a project that defines them in a
 * header of another name, included after kmutex's).  The lockdep_*
 * macros are each defined only if not defined yet: a project's own
 * come first and win, also in the debugging build.  kmutex itself keys
 * lock classes on addresses (const void *), never on the layout of
 * struct lock_class_key, so a project's empty one works as well.
 */
#ifndef _KMUTEX_LOCKDEP_H
#define _KMUTEX_LOCKDEP_H

#include <stddef.h>
#include <kmutex/compiler.h>

#if !defined(KMUTEX_NO_KERNEL_INCLUDES) && defined(__has_include)
#if __has_include(<linux/lockdep.h>)
#include <linux/lockdep.h>
#define __KMUTEX_PROJECT_LOCKDEP 1
#endif
#if __has_include(<linux/debug_locks.h>)
#include <linux/debug_locks.h>
#define __KMUTEX_PROJECT_LOCKDEP 1
#endif
#endif

#if !defined(__KMUTEX_PROJECT_LOCKDEP) && !defined(_LINUX_LOCKDEP_H) && \
	!defined(__LINUX_LOCKDEP_H) && !defined(KMUTEX_NO_LOCKDEP_NAMES)
#define __KMUTEX_LOCKDEP_NAMES 1
#endif

__KMUTEX_BEGIN_DECLS

#ifdef __KMUTEX_LOCKDEP_NAMES
/* One per lock class; the debugging build keys classes by its address. */
struct lock_class_key {
	char __kmutex_unused;
};
#endif

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
#ifndef lockdep_assert_held
#define lockdep_assert_held(l) \
	do { (void)__kmutex_assert_held(l); } while (0)
#endif

/**
 * lockdep_set_class - give a lock a lock class of its own
 * @l: pointer to a mutex or rw_semaphore
 * @key: pointer to a static struct lock_class_key naming the class
 *
 * Production build: does nothing.
 */
#ifndef lockdep_set_class
#define lockdep_set_class(l, key)		do { (void)(l); (void)(key); } while (0)
#endif

/**
 * lockdep_set_novalidate_class - take a lock out of the order checks
 * @l: pointer to a mutex or rw_semaphore
 *
 * Production build: does nothing.
 */
#ifndef lockdep_set_novalidate_class
#define lockdep_set_novalidate_class(l)		do { (void)(l); } while (0)
#endif

/**
 * debug_check_no_locks_freed - check that no held lock lies in memory
 * @addr: start of the memory about to be freed
 * @len: its length in bytes
 *
 * Production build: does nothing.  The debugging build reports
 * "held lock freed" if a lock held by any thread lies in the range.
 */
#ifdef __KMUTEX_LOCKDEP_NAMES
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
#endif /* __KMUTEX_LOCKDEP_NAMES */

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
	const void *key;
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
			      const void *key,
			      const char *key_name);
void kmutex_lockdep_set_novalidate_class(struct kmutex_dep_map *map);
void kmutex_debug_check_no_locks_freed(const void *addr, size_t len);
void kmutex_debug_check_no_locks_held(void);

/* Macros, so that the report can name the caller's expression and line. */
#ifndef lockdep_assert_held
#define lockdep_assert_held(l)						\
	kmutex_lockdep_assert_held(&__kmutex_assert_held(l)->dep_map, #l, \
				   __KMUTEX_SITE)
#endif
#ifndef lockdep_set_class
#define lockdep_set_class(l, key) \
	kmutex_lockdep_set_class(&(l)->dep_map, (key), #key)
#endif
#ifndef lockdep_set_novalidate_class
#define lockdep_set_novalidate_class(l) \
	kmutex_lockdep_set_novalidate_class(&(l)->dep_map)
#endif
#ifdef __KMUTEX_LOCKDEP_NAMES
#define debug_check_no_locks_freed(addr, len) \
	kmutex_debug_check_no_locks_freed((addr), (len))
#define debug_check_no_locks_held() \
	kmutex_debug_check_no_locks_held()
#endif

#endif /* KMUTEX_DEBUG */

__KMUTEX_END_DECLS

#endif /* _KMUTEX_LOCKDEP_H */
