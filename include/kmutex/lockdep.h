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

/*
 * The lockdep_map interface, for a program's own lock types (kernel
 * <linux/lockdep.h>): without the debugging build they cost nothing, as
 * the kernel's without CONFIG_LOCKDEP.
 */
#ifdef __KMUTEX_LOCKDEP_NAMES
/* What a lock of a program's own type embeds, as dep_map, to be checked. */
struct lockdep_map {
	char __kmutex_unused;
};

#define STATIC_LOCKDEP_MAP_INIT(_name, _key)	{ 0 }
#define lockdep_init_map(map, name, key, sub) \
	do { (void)(map); (void)(name); (void)(key); (void)(sub); } while (0)
#define lock_acquire(map, sub, try, read, check, nest, ip) \
	do { (void)(map); } while (0)
#define lock_release(map, ip)		do { (void)(map); } while (0)
#define lock_contended(map, ip)		do { (void)(map); } while (0)
#define lock_acquired(map, ip)		do { (void)(map); } while (0)
#define lock_map_acquire(map)		do { (void)(map); } while (0)
#define lock_map_acquire_read(map)	do { (void)(map); } while (0)
#define lock_map_release(map)		do { (void)(map); } while (0)
#endif /* __KMUTEX_LOCKDEP_NAMES */

#ifndef lockdep_is_held
#define lockdep_is_held(l)		((void)(l), 1)
#endif
#ifndef lockdep_assert_held_write
#define lockdep_assert_held_write(l)	lockdep_assert_held(l)
#endif
#ifndef lockdep_assert_held_read
#define lockdep_assert_held_read(l)	lockdep_assert_held(l)
#endif
#ifndef lockdep_assert_held_once
#define lockdep_assert_held_once(l)	lockdep_assert_held(l)
#endif
#ifndef lockdep_assert_not_held
#define lockdep_assert_not_held(l)	do { (void)(l); } while (0)
#endif

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
 * The dep_map of a statically initialised lock (DEFINE_MUTEX,
 * DECLARE_RWSEM): keyed by its own address (key NULL), as lockdep does
 * for static objects, so every such lock is a class of its own.
 */
#define __KMUTEX_DEP_MAP_INIT(lockname)					\
	{								\
		.key = __KMUTEX_NULL,					\
		.name = (lockname),					\
		.site = __KMUTEX_SITE,					\
		.key_name = __KMUTEX_NULL,				\
		.class_cache = { __KMUTEX_NULL },			\
	}

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

/*
 * A lockdep_map: a program's own lock for the checks.  The cookie marks
 * an initialised one, and lets lockdep_assert_held() and kin find the
 * map inside an object of a type kmutex does not know.
 */
#define KMUTEX_LOCKDEP_MAP_COOKIE	0x6b6d75746578646dull

struct kmutex_lockdep_map {
	struct kmutex_dep_map map;
	unsigned long long cookie;	/* KMUTEX_LOCKDEP_MAP_COOKIE */
};

#ifdef __KMUTEX_LOCKDEP_NAMES
struct lockdep_map {
	struct kmutex_lockdep_map __kmutex;
};

#define STATIC_LOCKDEP_MAP_INIT(_name, _key)				\
	{ { { (_key), (_name), __KMUTEX_SITE, __KMUTEX_NULL,		\
	      { __KMUTEX_NULL } }, KMUTEX_LOCKDEP_MAP_COOKIE } }
#endif

/* Which lock an assert is given: the library finds its map from that. */
#define __KMUTEX_KIND_OTHER	0	/* a lockdep_map found inside, or none */
#define __KMUTEX_KIND_MUTEX	1
#define __KMUTEX_KIND_RWSEM	2
#define __KMUTEX_KIND_MAP	3	/* a struct lockdep_map itself */
#define __KMUTEX_KIND_WW	4

/* What an assert checks. */
#define __KMUTEX_ASSERT_HELD		0
#define __KMUTEX_ASSERT_HELD_WRITE	1
#define __KMUTEX_ASSERT_HELD_READ	2
#define __KMUTEX_ASSERT_NOT_HELD	3

void kmutex_lockdep_init_map(struct kmutex_lockdep_map *map, const char *name,
			     const void *key, int subclass, const char *site);
void kmutex_lock_acquire(struct kmutex_lockdep_map *map, unsigned int subclass,
			 int trylock, int read, int check,
			 struct kmutex_lockdep_map *nest, const void *ip,
			 const char *call);
void kmutex_lock_release(struct kmutex_lockdep_map *map, const void *ip,
			 const char *call);
void kmutex_lock_contended(struct kmutex_lockdep_map *map, const void *ip);
void kmutex_lock_acquired(struct kmutex_lockdep_map *map, const void *ip);
int kmutex_lock_is_held(const void *obj, int kind, size_t size, int read);
void kmutex_lockdep_assert(const void *obj, int kind, size_t size, int what,
			   const char *expr, const char *site);
void kmutex_lockdep_set_class_obj(const void *obj, int kind, size_t size,
				  const void *key, const char *key_name);

/*
 * The kind of @l's lock, at compile time, without naming a member that
 * an unknown type lacks: any type compiles, and one that embeds a
 * lockdep_map is checked through it (found by its cookie).
 */
#ifndef __cplusplus
#ifdef __KMUTEX_LOCKDEP_NAMES
#define __kmutex_is_map(l) \
	__builtin_types_compatible_p(__typeof__(*(l)), struct lockdep_map)
#else
#define __kmutex_is_map(l)	0
#endif
#define __kmutex_lock_kind(l)						\
	(__builtin_types_compatible_p(__typeof__(*(l)), struct mutex) ?	\
		__KMUTEX_KIND_MUTEX :					\
	 __builtin_types_compatible_p(__typeof__(*(l)),		\
				      struct rw_semaphore) ?		\
		__KMUTEX_KIND_RWSEM :					\
	 __builtin_types_compatible_p(__typeof__(*(l)), struct ww_mutex) ? \
		__KMUTEX_KIND_WW :					\
	 __kmutex_is_map(l) ? __KMUTEX_KIND_MAP : __KMUTEX_KIND_OTHER)
#else
#define __kmutex_lock_kind(l) \
	__kmutex_lock_kind_of((decltype(&*(l)))__KMUTEX_NULL)
#endif

/* Macros, so that the report can name the caller's expression and line. */
#define __kmutex_lockdep_assert(l, what)				\
	kmutex_lockdep_assert(__kmutex_assert_held(l),			\
			      __kmutex_lock_kind(l), sizeof(*(l)),	\
			      (what), #l, __KMUTEX_SITE)
#ifndef lockdep_assert_held
#define lockdep_assert_held(l) \
	__kmutex_lockdep_assert(l, __KMUTEX_ASSERT_HELD)
#endif
#ifndef lockdep_assert_held_write
#define lockdep_assert_held_write(l) \
	__kmutex_lockdep_assert(l, __KMUTEX_ASSERT_HELD_WRITE)
#endif
#ifndef lockdep_assert_held_read
#define lockdep_assert_held_read(l) \
	__kmutex_lockdep_assert(l, __KMUTEX_ASSERT_HELD_READ)
#endif
#ifndef lockdep_assert_held_once
#define lockdep_assert_held_once(l) \
	__kmutex_lockdep_assert(l, __KMUTEX_ASSERT_HELD)
#endif
#ifndef lockdep_assert_not_held
#define lockdep_assert_not_held(l) \
	kmutex_lockdep_assert((l), __kmutex_lock_kind(l), sizeof(*(l)), \
			      __KMUTEX_ASSERT_NOT_HELD, #l, __KMUTEX_SITE)
#endif
#ifndef lockdep_is_held
#define lockdep_is_held(l) \
	kmutex_lock_is_held((l), __kmutex_lock_kind(l), sizeof(*(l)), -1)
#endif
#ifndef lockdep_set_class
#define lockdep_set_class(l, key)					\
	kmutex_lockdep_set_class_obj((l), __kmutex_lock_kind(l),	\
				     sizeof(*(l)), (key), #key)
#endif
#ifndef lockdep_set_novalidate_class
#define lockdep_set_novalidate_class(l)					\
	kmutex_lockdep_set_class_obj((l), __kmutex_lock_kind(l),	\
				     sizeof(*(l)), __KMUTEX_NULL, __KMUTEX_NULL)
#endif

#ifndef __KMUTEX_CALL
#define __KMUTEX_CALL(fn, lock)	#fn "(" #lock ") at " __KMUTEX_SITE
#endif

#ifdef __KMUTEX_LOCKDEP_NAMES
#define __kmutex_map(m)		((struct kmutex_lockdep_map *)(void *)(m))
#define lockdep_init_map(map, name, key, sub)				\
	kmutex_lockdep_init_map(__kmutex_map(map), (name), (key), (sub), \
				__KMUTEX_SITE)
#define __kmutex_lock_acquire(map, sub, try, read, check, nest, ip, fn)	\
	kmutex_lock_acquire(__kmutex_map(map), (sub), (try), (read),	\
			    (check), __kmutex_map(nest),		\
			    (const void *)(ip), __KMUTEX_CALL(fn, map))
#define lock_acquire(map, sub, try, read, check, nest, ip)		\
	__kmutex_lock_acquire(map, sub, try, read, check, nest, ip,	\
			      lock_acquire)
#define lock_release(map, ip)						\
	kmutex_lock_release(__kmutex_map(map), (const void *)(ip),	\
			    __KMUTEX_CALL(lock_release, map))
#define lock_contended(map, ip)						\
	kmutex_lock_contended(__kmutex_map(map), (const void *)(ip))
#define lock_acquired(map, ip)						\
	kmutex_lock_acquired(__kmutex_map(map), (const void *)(ip))
/*
 * The fake-lock forms name the function they are written in, as the
 * kernel's (_THIS_IP_): ip 0 makes the library take its own return
 * address, a point in that function.  __builtin_return_address(0) here
 * named the function's caller instead.
 */
#define lock_map_acquire(map)						\
	__kmutex_lock_acquire(map, 0, 0, 0, 1, __KMUTEX_NULL,		\
			      __KMUTEX_NULL, lock_map_acquire)
#define lock_map_acquire_read(map)					\
	__kmutex_lock_acquire(map, 0, 0, 2, 1, __KMUTEX_NULL,		\
			      __KMUTEX_NULL, lock_map_acquire_read)
#define lock_map_release(map)						\
	kmutex_lock_release(__kmutex_map(map), __KMUTEX_NULL,		\
			    __KMUTEX_CALL(lock_map_release, map))
#endif /* __KMUTEX_LOCKDEP_NAMES */

#ifdef __KMUTEX_LOCKDEP_NAMES
#define debug_check_no_locks_freed(addr, len) \
	kmutex_debug_check_no_locks_freed((addr), (len))
#define debug_check_no_locks_held() \
	kmutex_debug_check_no_locks_held()
#endif

#endif /* KMUTEX_DEBUG */

__KMUTEX_END_DECLS

#if defined(KMUTEX_DEBUG) && defined(__cplusplus)
/*
 * C++: the kind of a lock by overloading, in extern "C++" (this header
 * may be included inside another's extern "C").
 */
extern "C++" {
struct mutex;
struct rw_semaphore;
struct ww_mutex;
static inline int __kmutex_lock_kind_of(const void *)
{
	return __KMUTEX_KIND_OTHER;
}
static inline int __kmutex_lock_kind_of(const struct mutex *)
{
	return __KMUTEX_KIND_MUTEX;
}
static inline int __kmutex_lock_kind_of(const struct rw_semaphore *)
{
	return __KMUTEX_KIND_RWSEM;
}
static inline int __kmutex_lock_kind_of(const struct ww_mutex *)
{
	return __KMUTEX_KIND_WW;
}
#ifdef __KMUTEX_LOCKDEP_NAMES
static inline int __kmutex_lock_kind_of(const struct lockdep_map *)
{
	return __KMUTEX_KIND_MAP;
}
#endif
}
#endif

#endif /* _KMUTEX_LOCKDEP_H */
