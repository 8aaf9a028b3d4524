/* SPDX-License-Identifier: MIT */
/*
 * <linux/mutex.h> - the kernel's sleeping mutex, in userspace on futex(2).
 *
 * Design (the one the kernel's mutex was introduced with, 2.6.16):
 *
 *   count      1 = unlocked, 0 = locked, -1 = locked and threads may be
 *              waiting, so that unlock skips all wake-up work when it
 *              finds 0;
 *   wait_lock  a small internal futex lock protecting ...
 *   wait_list  a FIFO of waiters, each a node on its waiter's stack with
 *              its own futex word, woken one at a time.
 *
 * The fast paths (one atomic compare-and-swap each) are inline below; the
 * slow paths live in the library (src/mutex.c).  The protocol between the
 * two is modelled in model/mutex.pml: change them together.
 */
#ifndef _LINUX_MUTEX_H
#define _LINUX_MUTEX_H

/* The project's <linux/list.h> ..., as the kernel's header includes them. */
#include <kmutex/project_headers.h>

#include <kmutex/compiler.h>
#include <kmutex/atomic_fast.h>
#include <kmutex/list.h>
#include <kmutex/lockdep.h>
#include <kmutex/hooks.h>

#ifdef KMUTEX_DEBUG
#include <kmutex/debug_signal.h>
#endif

__KMUTEX_BEGIN_DECLS

/*
 * A capability to clang -Wthread-safety: see __guarded_by(3).
 *
 * The debugging build (-DKMUTEX_DEBUG, pkg-config kmutex-debug) has the
 * same names, but every call goes to the debug library
 * (libkmutex-debug), which checks it the way the kernel's
 * CONFIG_DEBUG_MUTEXES and lockdep do: see kmutex-debug(3).  Its fields
 * follow the production ones, so that the library's slow paths
 * (src/mutex.c) are the same code in both builds.
 */
struct __kmutex_capability("mutex") mutex {
	int count;			/* 1 free, 0 locked, <0 locked + waiters */
	int wait_lock;			/* internal futex lock for wait_list */
	struct kmutex_list wait_list;	/* FIFO of struct kmutex_waiter */
	int spinner;			/* a thread spins before queueing */
#ifdef KMUTEX_DEBUG
	int owner;			/* tid of the holder, 0 if none */
	const void *magic;		/* the mutex itself while usable */
	struct kmutex_dep_map dep_map;	/* its lock class, name, init site */
#endif
};

#ifdef KMUTEX_DEBUG
/* A statically initialised mutex is a class of its own (key NULL). */
#define __KMUTEX_MUTEX_DEBUG_INIT(lockname, str)			\
		.owner = 0,						\
		.magic = &(lockname),					\
		.dep_map = __KMUTEX_DEP_MAP_INIT(str),
#else
#define __KMUTEX_MUTEX_DEBUG_INIT(lockname, str)
#endif

#define __MUTEX_INITIALIZER(lockname)					\
	{								\
		.count = 1,						\
		.wait_lock = 0,						\
		.wait_list = KMUTEX_LIST_INIT((lockname).wait_list),	\
		.spinner = 0,						\
		__KMUTEX_MUTEX_DEBUG_INIT(lockname, #lockname)		\
	}

/**
 * DEFINE_MUTEX - define and statically initialise an unlocked mutex
 * @mutexname: the variable's name
 */
#define DEFINE_MUTEX(mutexname) \
	struct mutex mutexname = __MUTEX_INITIALIZER(mutexname)

/* The library's slow paths (src/mutex.c), the same in both builds. */
void kmutex_mutex_lock_slowpath(struct mutex *lock);
int kmutex_mutex_lock_interruptible_slowpath(struct mutex *lock);
void kmutex_mutex_unlock_slowpath(struct mutex *lock, const char *site);

#ifdef KMUTEX_DEBUG
/*
 * The checked entry points (src/debug/mutex.c), annotated for clang
 * -Wthread-safety.  One function serves the blocking and the
 * interruptible lock: it holds the lock when it returns 0.
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

/* mutex_lock_nest_lock()'s outer lock: its dep_map, which is checked. */
#define __KMUTEX_NEST_MAP(nest_lock)	(&(nest_lock)->dep_map)
typedef const struct kmutex_dep_map *__kmutex_nest_map_t;
#else
/* The production build only evaluates it. */
#define __KMUTEX_NEST_MAP(nest_lock)	((void)(nest_lock), __KMUTEX_NULL)
typedef const void *__kmutex_nest_map_t;
#endif

/*
 * What each call does to the lock, for clang -Wthread-safety
 * (kmutex/capability.h).  Their bodies are the lock itself, which the
 * analysis cannot follow.  The forms that return 0 or -EINTR hold the
 * lock when they return 0.
 */
static __kmutex_inline void mutex_lock(struct mutex *lock __KMUTEX_CALLER)
	__kmutex_acquires(lock) __kmutex_no_analysis;
static __kmutex_inline void
mutex_lock_nested(struct mutex *lock, unsigned int subclass __KMUTEX_CALLER)
	__kmutex_acquires(lock) __kmutex_no_analysis;
static __kmutex_inline void
__kmutex_mutex_lock_nest_lock(struct mutex *lock, __kmutex_nest_map_t nest
			      __KMUTEX_CALLER)
	__kmutex_acquires(lock) __kmutex_no_analysis;
static __kmutex_inline int
mutex_lock_interruptible(struct mutex *lock __KMUTEX_CALLER)
	__kmutex_cond_acquires(0, lock) __kmutex_no_analysis;
static __kmutex_inline int
mutex_lock_interruptible_nested(struct mutex *lock, unsigned int subclass
				__KMUTEX_CALLER)
	__kmutex_cond_acquires(0, lock) __kmutex_no_analysis;
static __kmutex_inline int
mutex_lock_killable(struct mutex *lock __KMUTEX_CALLER)
	__kmutex_cond_acquires(0, lock) __kmutex_no_analysis;
static __kmutex_inline int
mutex_lock_killable_nested(struct mutex *lock, unsigned int subclass
			   __KMUTEX_CALLER)
	__kmutex_cond_acquires(0, lock) __kmutex_no_analysis;
static __kmutex_inline int mutex_trylock(struct mutex *lock __KMUTEX_CALLER)
	__kmutex_cond_acquires(1, lock) __kmutex_no_analysis;
static __kmutex_inline void
__kmutex_mutex_unlock(struct mutex *lock, const char *site)
	__kmutex_releases(lock) __kmutex_no_analysis;
static __kmutex_inline void mutex_unlock(struct mutex *lock __KMUTEX_CALLER)
	__kmutex_releases(lock) __kmutex_no_analysis;

/**
 * mutex_init - initialise a mutex at run time
 * @lock: the mutex; any previous content is overwritten
 *
 * Leaves @lock unlocked with no waiters.  Must not be called on a mutex
 * that is held or has waiters.  In the debugging build, each
 * mutex_init() line is a lock class, as in the kernel.
 */
static __kmutex_inline void
mutex_init(struct mutex *lock __KMUTEX_CLASS_NAMER)
{
#ifdef KMUTEX_DEBUG
	kmutex_debug_mutex_init(lock, __kmutex_name, __kmutex_key,
				__kmutex_site);
#else
	lock->count = 1;
	lock->wait_lock = 0;
	__kmutex_list_init(&lock->wait_list);
	lock->spinner = 0;
	__kmutex_hook_create(lock);
#endif
}

/**
 * mutex_destroy - mark a mutex as no longer in use
 * @lock: an unlocked mutex
 *
 * Production build: does nothing (as in the kernel); the debugging build
 * reports any later use and a destroy of a held mutex.
 */
static __kmutex_inline void mutex_destroy(struct mutex *lock __KMUTEX_CALLER)
{
#ifdef KMUTEX_DEBUG
	kmutex_debug_mutex_destroy(lock, __kmutex_call);
#else
	__kmutex_hook_destroy(lock);
#endif
}

/*
 * 1 -> 0: the whole uncontended lock, one atomic instruction.  ACQUIRE
 * pairs with the RELEASE that made count 1: __kmutex_mutex_unlock()'s
 * CAS, or the store in kmutex_mutex_unlock_slowpath(); the failure
 * order is RELAXED: a failed attempt takes nothing.  src/mutex.c spins
 * with it, in both builds.
 */
static __kmutex_inline bool __kmutex_mutex_trylock_fast(struct mutex *lock)
{
	int unlocked = 1;

	return __kmutex_cas_acquire(&lock->count, &unlocked, 0);
}

/**
 * mutex_lock - acquire a mutex, waiting as long as it takes
 * @lock: the mutex
 *
 * Signals that arrive while waiting run their handlers and the wait goes
 * on.  A mutex does not nest: locking one the thread holds deadlocks.
 */
static __kmutex_inline void mutex_lock(struct mutex *lock __KMUTEX_CALLER)
{
#ifdef KMUTEX_DEBUG
	kmutex_debug_mutex_lock(lock, 0, __KMUTEX_NULL, 0, __kmutex_call);
#else
	__kmutex_hook_acquire(lock, 0);
	if (__kmutex_unlikely(!__kmutex_mutex_trylock_fast(lock)))
		kmutex_mutex_lock_slowpath(lock);
	__kmutex_hook_acquired(lock, 0, true);
#endif
}

/**
 * mutex_lock_nested - mutex_lock() with a lockdep nesting level
 * @lock: the mutex
 * @subclass: the nesting level, for taking two mutexes of one class in a
 *	fixed order; the production build only evaluates it
 *
 * mutex_lock_interruptible_nested(), mutex_lock_killable_nested() and
 * mutex_lock_nest_lock() are the same for their base calls.
 */
static __kmutex_inline void
mutex_lock_nested(struct mutex *lock, unsigned int subclass __KMUTEX_CALLER)
{
#ifdef KMUTEX_DEBUG
	kmutex_debug_mutex_lock(lock, subclass, __KMUTEX_NULL, 0,
				__kmutex_call);
#else
	(void)subclass;
	mutex_lock(lock);
#endif
}

/* mutex_lock_nest_lock(): see mutex_lock_nested(). */
static __kmutex_inline void
__kmutex_mutex_lock_nest_lock(struct mutex *lock, __kmutex_nest_map_t nest
			      __KMUTEX_CALLER)
{
#ifdef KMUTEX_DEBUG
	kmutex_debug_mutex_lock(lock, 0, nest, 0, __kmutex_call);
#else
	(void)nest;
	mutex_lock(lock);
#endif
}

/**
 * mutex_lock_interruptible - acquire a mutex unless a signal comes first
 * @lock: the mutex
 *
 * Return: 0 with the lock held, or -EINTR (lock not held) if a signal
 * handler ran in this thread while it slept in the lock's wait, also one
 * installed with SA_RESTART.
 * A handler that runs after the thread decided to wait but before it went
 * to sleep may not be seen: it then sleeps until the lock comes or another
 * handler runs during the sleep (mutex_lock(3), BUGS).
 */
static __kmutex_inline int
mutex_lock_interruptible(struct mutex *lock __KMUTEX_CALLER)
{
#ifdef KMUTEX_DEBUG
	return kmutex_debug_mutex_lock(lock, 0, __KMUTEX_NULL, 1,
				       __kmutex_call);
#else
	__kmutex_hook_acquire(lock, 0);
	if (__kmutex_likely(__kmutex_mutex_trylock_fast(lock)))
		return __kmutex_hook_locked(lock, 0, 0);
	return __kmutex_hook_locked(lock, 0,
			kmutex_mutex_lock_interruptible_slowpath(lock));
#endif
}

/* mutex_lock_interruptible() with a nesting level: see mutex_lock_nested. */
static __kmutex_inline int
mutex_lock_interruptible_nested(struct mutex *lock, unsigned int subclass
				__KMUTEX_CALLER)
{
#ifdef KMUTEX_DEBUG
	return kmutex_debug_mutex_lock(lock, subclass, __KMUTEX_NULL, 1,
				       __kmutex_call);
#else
	(void)subclass;
	return mutex_lock_interruptible(lock);
#endif
}

/**
 * mutex_lock_killable - acquire a mutex unless a signal comes first
 * @lock: the mutex
 *
 * Userspace has no fatal signal that returns, so this is
 * mutex_lock_interruptible().  Return: 0 or -EINTR.
 */
static __kmutex_inline int
mutex_lock_killable(struct mutex *lock __KMUTEX_CALLER)
{
	return mutex_lock_interruptible(lock __KMUTEX_CALLER_ARG);
}

/* mutex_lock_killable() with a nesting level: see mutex_lock_nested. */
static __kmutex_inline int
mutex_lock_killable_nested(struct mutex *lock, unsigned int subclass
			   __KMUTEX_CALLER)
{
	return mutex_lock_interruptible_nested(lock, subclass
					       __KMUTEX_CALLER_ARG);
}

/**
 * mutex_trylock - try once to acquire a mutex, never sleeping
 * @lock: the mutex
 *
 * Return: 1 if acquired, 0 if it was held.  (The opposite convention of
 * down_trylock(), as in the kernel.)
 */
static __kmutex_inline int mutex_trylock(struct mutex *lock __KMUTEX_CALLER)
{
#ifdef KMUTEX_DEBUG
	return kmutex_debug_mutex_trylock(lock, __kmutex_call);
#else
	bool ok;

	__kmutex_hook_acquire(lock, __KMUTEX_HOOK_TRY);
	ok = __kmutex_mutex_trylock_fast(lock);
	__kmutex_hook_acquired(lock, __KMUTEX_HOOK_TRY, ok);
	return ok;
#endif
}

/*
 * 0 -> 1; anything else (waiters, or not locked at all) goes slow.
 * RELEASE pairs with the ACQUIRE of the next owner's CAS or exchange on
 * count (__kmutex_mutex_trylock_fast(), mutex_lock_common()); a failed
 * CAS publishes nothing (RELAXED): the slow path releases for it.
 * @site: the call, which an unlock of a mutex not locked names.
 */
static __kmutex_inline void
__kmutex_mutex_unlock(struct mutex *lock, const char *site)
{
#ifdef KMUTEX_DEBUG
	kmutex_debug_mutex_unlock(lock, site);
#else
	int locked = 0;

	__kmutex_hook_release(lock, 0);
	if (__kmutex_unlikely(!__kmutex_cas_release(&lock->count, &locked, 1)))
		kmutex_mutex_unlock_slowpath(lock, site);
	__kmutex_hook_released(lock, 0);
#endif
}

/**
 * mutex_unlock - release a mutex
 * @lock: a mutex the calling thread holds
 *
 * Wakes the first waiter, if any.  Unlocking a mutex that is not locked
 * would let later lockers in together, so it aborts the program with a
 * message that names the lock and the call site.
 */
static __kmutex_inline void mutex_unlock(struct mutex *lock __KMUTEX_CALLER)
{
#ifdef KMUTEX_DEBUG
	__kmutex_mutex_unlock(lock, __kmutex_call);
#else
	__kmutex_mutex_unlock(lock, "mutex_unlock");
#endif
}

/**
 * mutex_is_locked - tell whether a mutex is held
 * @lock: the mutex
 *
 * Return: true if some thread holds it (not checked, also in the
 * debugging build: as in the kernel).  Changes nothing; the answer may
 * be stale by the time the caller looks at it.
 */
static __kmutex_inline bool mutex_is_locked(struct mutex *lock)
{
	/* RELAXED: a snapshot that orders nothing, as the kernel's. */
	return __atomic_load_n(&lock->count, __ATOMIC_RELAXED) != 1;
}

/* Both builds: mutex_lock_nest_lock()'s outer lock is any lock type. */
#define mutex_lock_nest_lock(lock, nest_lock)				\
	__kmutex_mutex_lock_nest_lock((lock), __KMUTEX_NEST_MAP(nest_lock) \
		__KMUTEX_CALLARG(mutex_lock_nest_lock, lock))

#ifdef KMUTEX_DEBUG
/* The debugging build's call-site capture (kmutex/compiler.h). */
#define mutex_init(lock)	__KMUTEX_CLASSED(mutex_init, lock, #lock)
#define mutex_destroy(lock)	__KMUTEX_CALLED(mutex_destroy, lock)
#define mutex_lock(lock)	__KMUTEX_CALLED(mutex_lock, lock)
#define mutex_lock_nested(lock, subclass) \
	__KMUTEX_CALLED2(mutex_lock_nested, lock, subclass)
#define mutex_lock_interruptible(lock) \
	__KMUTEX_CALLED(mutex_lock_interruptible, lock)
#define mutex_lock_interruptible_nested(lock, subclass) \
	__KMUTEX_CALLED2(mutex_lock_interruptible_nested, lock, subclass)
#define mutex_lock_killable(lock) \
	__KMUTEX_CALLED(mutex_lock_killable, lock)
#define mutex_lock_killable_nested(lock, subclass) \
	__KMUTEX_CALLED2(mutex_lock_killable_nested, lock, subclass)
#define mutex_trylock(lock)	__KMUTEX_CALLED(mutex_trylock, lock)
#define mutex_unlock(lock)	__KMUTEX_CALLED(mutex_unlock, lock)
#else
/* An unlock of a mutex not locked names its call site (src/mutex.c). */
#define mutex_unlock(lock) \
	__kmutex_mutex_unlock((lock), "mutex_unlock(" #lock ") at " __KMUTEX_SITE)
#endif /* KMUTEX_DEBUG */

/* lockdep_assert_held(&m): from there on, clang takes m as held. */
__KMUTEX_CAPABILITY_HELPERS(struct mutex, __kmutex_asserts)

/* guard(mutex)(&m), scoped_guard(mutex, &m), mutex_try, mutex_intr */
#include <linux/cleanup.h>
__KMUTEX_GUARD_ASSERTS(mutex, struct mutex *, __kmutex_asserts)
DEFINE_GUARD(mutex, struct mutex *, mutex_lock(_T), mutex_unlock(_T))
__KMUTEX_GUARD_ASSERTS(mutex_try, struct mutex *, __kmutex_asserts)
DEFINE_GUARD_COND(mutex, _try, mutex_trylock(_T))
__KMUTEX_GUARD_ASSERTS(mutex_intr, struct mutex *, __kmutex_asserts)
DEFINE_GUARD_COND(mutex, _intr, mutex_lock_interruptible(_T) == 0)

__KMUTEX_END_DECLS

#endif /* _LINUX_MUTEX_H */
