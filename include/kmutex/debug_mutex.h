/* SPDX-License-Identifier: MIT */
/*
 * kmutex/debug_mutex.h - struct mutex of the debugging build.
 *
 * Included by <linux/mutex.h> when KMUTEX_DEBUG is defined (pkg-config
 * kmutex-debug); never include it directly.  It gives the same names as
 * the production build, but every call goes to the debug library
 * (libkmutex-debug), which checks it the way the kernel's
 * CONFIG_DEBUG_MUTEXES and lockdep do: see kmutex-debug(3).
 *
 * The struct starts with the production fields, so that the library's
 * slow paths (src/mutex.c) are the same code in both builds; the
 * checker's own fields follow.
 *
 * The API names are macros rather than inline functions so that the
 * report can name the caller's expression and line, and so that the
 * library's return address is the caller itself, not a static inline
 * wrapper that a backtrace could not name.
 */
#ifndef _KMUTEX_DEBUG_MUTEX_H
#define _KMUTEX_DEBUG_MUTEX_H

#ifndef _LINUX_MUTEX_H
#error "include <linux/mutex.h>, not <kmutex/debug_mutex.h>"
#endif

#include <kmutex/compiler.h>
#include <kmutex/atomic_fast.h>
#include <kmutex/debug_signal.h>
#include <kmutex/list.h>
#include <kmutex/lockdep.h>

__KMUTEX_BEGIN_DECLS

/* A capability to clang -Wthread-safety, as in production. */
struct __kmutex_capability("mutex") mutex {
	int count;			/* 1 free, 0 locked, <0 + waiters */
	int wait_lock;			/* internal futex lock for wait_list */
	struct kmutex_list wait_list;	/* FIFO of struct kmutex_waiter */
	int spinner;			/* a thread spins before queueing */
	/* Debugging build only: */
	int owner;			/* tid of the holder, 0 if none */
	const void *magic;		/* the mutex itself while usable */
	struct kmutex_dep_map dep_map;	/* its lock class, name, init site */
};

/*
 * A statically initialised mutex is keyed by its own address (key NULL),
 * as lockdep does for static objects: every DEFINE_MUTEX is a class.
 */
#define __MUTEX_INITIALIZER(lockname)					\
	{								\
		.count = 1,						\
		.wait_lock = 0,						\
		.wait_list = KMUTEX_LIST_INIT((lockname).wait_list),	\
		.spinner = 0,						\
		.owner = 0,						\
		.magic = &(lockname),					\
		.dep_map = {						\
			.key = __KMUTEX_NULL,				\
			.name = #lockname,				\
			.site = __KMUTEX_SITE,				\
			.key_name = __KMUTEX_NULL,			\
			.class_cache = { __KMUTEX_NULL },		\
		},							\
	}

#define DEFINE_MUTEX(mutexname) \
	struct mutex mutexname = __MUTEX_INITIALIZER(mutexname)

/* The library's slow paths (src/mutex.c), the same in both builds. */
void kmutex_mutex_lock_slowpath(struct mutex *lock);
int kmutex_mutex_lock_interruptible_slowpath(struct mutex *lock);
void kmutex_mutex_unlock_slowpath(struct mutex *lock, const char *site);

/*
 * The checked entry points (src/debug/mutex.c), annotated for clang
 * -Wthread-safety as the production calls are.  One function serves the
 * blocking and the interruptible lock: it holds the lock when it returns
 * 0, and the blocking macros below pass the lock through
 * __kmutex_mutex_acquired() to say that they always get it.
 */
void kmutex_debug_mutex_init(struct mutex *lock, const char *name,
			     const void *key,
			     const char *site);
void kmutex_debug_mutex_destroy(struct mutex *lock, const char *call);
int kmutex_debug_mutex_lock(struct mutex *lock, unsigned int subclass,
			    const struct kmutex_dep_map *nest_lock, int intr,
			    const char *call) __kmutex_cond_acquires(0, lock);
int kmutex_debug_mutex_trylock(struct mutex *lock, const char *call)
	__kmutex_cond_acquires(1, lock);
void kmutex_debug_mutex_unlock(struct mutex *lock, const char *call)
	__kmutex_releases(lock);

static inline struct mutex *__kmutex_mutex_acquired(struct mutex *lock)
	__kmutex_acquires(lock) __kmutex_no_analysis;
static inline struct mutex *__kmutex_mutex_acquired(struct mutex *lock)
{
	return lock;
}

/*
 * The uncontended attempt, as in production; src/mutex.c spins with it.
 * ACQUIRE pairs with the unlock's RELEASE, as in <linux/mutex.h>.
 */
static inline bool __kmutex_mutex_trylock_fast(struct mutex *lock)
{
	int unlocked = 1;

	return __kmutex_cas_acquire(&lock->count, &unlocked, 0);
}

/* "mutex_lock(&m) at file.c:12": what the report says the caller did. */
#define __KMUTEX_CALL(fn, lock)	#fn "(" #lock ") at " __KMUTEX_SITE

/*
 * The class key is a static variable made here, in the caller's code:
 * one class per mutex_init() line, as in the kernel.  A key made inside
 * a library function would put every mutex in one class.
 */
#define mutex_init(lock)						\
	do {								\
		static char __kmutex_key;	/* the class: its address */ \
									\
		kmutex_debug_mutex_init((lock), #lock, &__kmutex_key,	\
					__KMUTEX_SITE);			\
	} while (0)

#define mutex_destroy(lock) \
	kmutex_debug_mutex_destroy((lock), __KMUTEX_CALL(mutex_destroy, lock))

#define mutex_lock(lock)						\
	((void)kmutex_debug_mutex_lock(__kmutex_mutex_acquired(lock), 0, \
		__KMUTEX_NULL, 0, __KMUTEX_CALL(mutex_lock, lock)))
#define mutex_lock_nested(lock, subclass)				\
	((void)kmutex_debug_mutex_lock(__kmutex_mutex_acquired(lock),	\
		(subclass), __KMUTEX_NULL, 0,				\
		__KMUTEX_CALL(mutex_lock_nested, lock)))
#define mutex_lock_nest_lock(lock, nest_lock)				\
	((void)kmutex_debug_mutex_lock(__kmutex_mutex_acquired(lock), 0, \
		&(nest_lock)->dep_map, 0,				\
		__KMUTEX_CALL(mutex_lock_nest_lock, lock)))
#define mutex_lock_interruptible(lock)					\
	kmutex_debug_mutex_lock((lock), 0, __KMUTEX_NULL, 1,		\
				__KMUTEX_CALL(mutex_lock_interruptible, lock))
#define mutex_lock_interruptible_nested(lock, subclass)			\
	kmutex_debug_mutex_lock((lock), (subclass), __KMUTEX_NULL, 1,	\
		__KMUTEX_CALL(mutex_lock_interruptible_nested, lock))
/* Userspace has no fatal signal that returns: as interruptible. */
#define mutex_lock_killable(lock)					\
	kmutex_debug_mutex_lock((lock), 0, __KMUTEX_NULL, 1,		\
				__KMUTEX_CALL(mutex_lock_killable, lock))
#define mutex_lock_killable_nested(lock, subclass)			\
	kmutex_debug_mutex_lock((lock), (subclass), __KMUTEX_NULL, 1,	\
		__KMUTEX_CALL(mutex_lock_killable_nested, lock))
#define mutex_trylock(lock) \
	kmutex_debug_mutex_trylock((lock), __KMUTEX_CALL(mutex_trylock, lock))
#define mutex_unlock(lock) \
	kmutex_debug_mutex_unlock((lock), __KMUTEX_CALL(mutex_unlock, lock))

/**
 * mutex_is_locked - tell whether a mutex is held
 * @lock: the mutex
 *
 * Return: true if some thread holds it (not checked: as in the kernel).
 */
static inline bool mutex_is_locked(struct mutex *lock)
{
	/* RELAXED: a snapshot that orders nothing, as the kernel's. */
	return __atomic_load_n(&lock->count, __ATOMIC_RELAXED) != 1;
}

__KMUTEX_END_DECLS

#endif /* _KMUTEX_DEBUG_MUTEX_H */
