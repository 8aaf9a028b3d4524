// SPDX-License-Identifier: MIT
/*
 * mutex.c - the checked struct mutex calls of the debugging build.
 *
 * Each call does what the production build does (the same fast path,
 * the same slow paths in src/mutex.c) around the checks:
 *
 *   lock      magic (never initialised, destroyed), signal handler,
 *             recursion on the same lock, then, for a chain of held
 *             classes not seen before, the order checks (graph.c), all
 *             before it may block; once acquired, owner and held stack.
 *   trylock   the same minus the recursion and order checks (a trylock
 *             cannot deadlock, as in lockdep), but the lock is held and
 *             later locks depend on it.
 *   unlock    only the owner may unlock (the owner field, a tid, is the
 *             truth; the held stack is for the order checks).
 *
 * As in the kernel, the program goes on after a report: a recursive
 * lock still deadlocks (reported first), an unlock by a thread that
 * does not hold the lock still releases it.
 */
#include "../api.h"

#include <stdio.h>
#include <string.h>

#include "debug.h"
#include "hooks.h"

/* magic of a destroyed mutex: not its address, nor 0 (never set). */
#define DESTROYED(lock)	((const void *)((uintptr_t)(lock) ^ 0x5a5a5a5aul))

static const char warn_magic[] =
	"WARNING: DEBUG_LOCKS_WARN_ON(lock->magic != lock)";
static const char warn_locked[] =
	"WARNING: DEBUG_LOCKS_WARN_ON(mutex_is_locked(lock))";

/*
 * The lock operations themselves, told to the hooks (kmutex/hooks.h:
 * TSan, Valgrind) as the production build's inline fast paths tell
 * them: the checker's work around them stays visible to TSan.
 */
static void raw_unlock(struct mutex *lock, const char *call)
{
	int locked = 0;

	__kmutex_hook_release(lock, 0);
	if (!__atomic_compare_exchange_n(&lock->count, &locked, 1, false,
					 __ATOMIC_RELEASE, __ATOMIC_RELAXED))
		kmutex_mutex_unlock_slowpath(lock, call);
	__kmutex_hook_released(lock, 0);
}

static int raw_lock_slow(struct mutex *lock, int intr)
{
	if (intr)
		return kmutex_mutex_lock_interruptible_slowpath(lock);
	kmutex_mutex_lock_slowpath(lock);
	return 0;
}

/* @call, @ip: the waiting call, for KMUTEX_DEBUG_HUNG (hung.c). */
static int raw_lock_untold(struct mutex *lock, int intr, const char *call,
			   const void *ip)
{
	int ret;

	if (__kmutex_likely(__kmutex_mutex_trylock_fast(lock)))
		return 0;
	if (__kmutex_likely(!call || !hung_on()))
		return raw_lock_slow(lock, intr);
	hung_begin(lock, "mutex", lock->dep_map.name, lock->dep_map.site,
		   &lock->owner, call, ip);
	ret = raw_lock_slow(lock, intr);
	hung_end();
	return ret;
}

static int raw_lock(struct mutex *lock, int intr, const char *call,
		    const void *ip)
{
	__kmutex_hook_acquire(lock, 0);
	return __kmutex_hook_locked(lock, 0,
				    raw_lock_untold(lock, intr, call, ip));
}

static int raw_trylock(struct mutex *lock)
{
	__kmutex_hook_acquire(lock, __KMUTEX_HOOK_TRY);
	return __kmutex_hook_trylocked(lock, __KMUTEX_HOOK_TRY,
				       __kmutex_mutex_trylock_fast(lock));
}

static void map_init(struct kmutex_dep_map *map, const char *name,
		     const void *key, const char *site)
{
	memset(map, 0, sizeof(*map));
	map->key = key;
	map->name = name;
	map->site = site;
}

static void fields_init(struct mutex *lock)
{
	lock->count = 1;
	lock->wait_lock = 0;
	__kmutex_list_init(&lock->wait_list);
	lock->spinner = 0;
	lock->owner = 0;
}

static void mutex_owner(struct mutex *lock)
{
	report_owner(__atomic_load_n(&lock->owner, __ATOMIC_RELAXED),
		     &lock->dep_map);
}

/*
 * The mutex's magic is not its address: it was never initialised (or was
 * overwritten), or it was destroyed.  Report; a never-initialised mutex
 * is then initialised as a lock of its own class, so the program and
 * the checks can go on.
 */
static void __attribute__((noinline))
check_magic(struct kmutex_thread *t, struct mutex *lock, const char *call,
	    const void *ip)
{
	bool destroyed;
	uint64_t what;

	lockdep_lock_acquire();
	if (lock->magic == lock) {	/* another thread just fixed it */
		lockdep_lock_release();
		return;
	}
	destroyed = lock->magic == DESTROYED(lock);
	if (!destroyed) {
		fields_init(lock);
		map_init(&lock->dep_map, call, NULL, "(never initialised)");
		lock->magic = lock;
	}
	lockdep_lock_release();
	/* Classes are looked up outside lockdep_lock. */
	what = destroyed ? class_get(&lock->dep_map, 0)->id
			 : (uint64_t)(uintptr_t)lock << 16;

	lockdep_lock_acquire();
	if (report_begin(R_WARN_ON, what, warn_magic)) {
		report_thread(t->tid);
		if (destroyed) {
			rprintf(": %s: the mutex was destroyed "
				"(mutex_destroy):\n  ", call);
			report_lock(&lock->dep_map, NULL);
		} else {
			rprintf(": %s: the mutex at %p was never "
				"initialised (DEFINE_MUTEX or mutex_init),\n"
				"  or was overwritten since", call,
				(void *)lock);
		}
		rprintf("\n  at: ");
		ip_print(ip);
		rprintf("\n\n");
		report_finish(t, ip);
	}
	lockdep_lock_release();
}

static inline void magic_ok(struct kmutex_thread *t, struct mutex *lock,
			    const char *call, const void *ip)
{
	if (__kmutex_unlikely(__atomic_load_n(&lock->magic,
					      __ATOMIC_RELAXED) != lock))
		check_magic(t, lock, call, ip);
}

static inline void mutex_held_fill(struct kmutex_thread *t,
				   struct held_lock *h, struct mutex *lock,
				   unsigned int subclass, const char *call,
				   const void *ip, bool trylock)
{
	held_fill_lock(t, h, lock, subclass, call, ip, &lock->owner, trylock,
		       false);
	h->stat_type = CS_MUTEX;
}

/**
 * kmutex_debug_mutex_lock - mutex_lock() and its variants, checked
 * @lock: the mutex
 * @subclass: mutex_lock_nested()'s level, else 0
 * @nest_lock: mutex_lock_nest_lock()'s outer lock, else NULL
 * @intr: whether a signal handler interrupts the wait
 * @call: the caller's expression and line, for reports
 *
 * Return: 0 with the lock held, or -EINTR (@intr only).
 *
 * This and the other entry points are the lock itself, which clang's
 * thread-safety analysis cannot follow (it would see the mutex taken or
 * released on no path it knows): __kmutex_no_analysis.  Their callers
 * are checked against the annotations in <linux/mutex.h>.
 */
KMUTEX_API __kmutex_no_analysis int
kmutex_debug_mutex_lock(struct mutex *lock, unsigned int subclass,
			const struct kmutex_dep_map *nest_lock, int intr,
			const char *call)
{
	const void *ip = __builtin_return_address(0);
	struct kmutex_thread *t;
	struct held_lock next, *prev;
	int ret;

	if (__kmutex_unlikely(lockdep_recursion))
		return raw_lock(lock, intr, NULL, NULL); /* in the checker */
	t = lockdep_thread();
	magic_ok(t, lock, call, ip);
	prev = held_find(t, &lock->dep_map);
	if (__kmutex_unlikely(prev != NULL) &&
	    __atomic_load_n(&lock->owner, __ATOMIC_RELAXED) != t->tid) {
		/*
		 * A stale entry: the mutex was re-initialised, or released
		 * by another thread, since this thread took it (reported
		 * then).  It is not held: forget the entry.
		 */
		held_remove(t, prev);
		prev = NULL;
	}
	mutex_held_fill(t, &next, lock, subclass, call, ip, false);
	dep_hook_acquire(t, &next, prev, nest_lock, true, lock);
	ret = raw_lock(lock, intr, call, ip);
	if (ret)
		return ret;
	dep_hook_taken(t, &next);
	return 0;
}

/**
 * kmutex_debug_mutex_trylock - mutex_trylock(), checked
 * @lock: the mutex
 * @call: the caller's expression and line
 *
 * Return: 1 if acquired, 0 if it was held.
 */
KMUTEX_API __kmutex_no_analysis int
kmutex_debug_mutex_trylock(struct mutex *lock, const char *call)
{
	const void *ip = __builtin_return_address(0);
	struct kmutex_thread *t;
	struct held_lock next;

	if (__kmutex_unlikely(lockdep_recursion))
		return raw_trylock(lock);
	t = lockdep_thread();
	magic_ok(t, lock, call, ip);
	mutex_held_fill(t, &next, lock, 0, call, ip, true);
	dep_hook_acquire(t, &next, NULL, NULL, false, lock);
	if (!raw_trylock(lock))
		return 0;
	dep_hook_taken(t, &next);
	return 1;
}

static void __attribute__((noinline))
report_bad_unlock(struct kmutex_thread *t, struct mutex *lock,
		  const char *call, const void *ip)
{
	struct kmutex_lock_class *c = class_get(&lock->dep_map, 0);

	lockdep_lock_acquire();
	if (report_begin(R_UNLOCK, c->id,
			 "WARNING: bad unlock balance detected!")) {
		report_trying(t->tid, "release", &lock->dep_map, c, call, ip);
		if (__atomic_load_n(&lock->owner, __ATOMIC_RELAXED)) {
			rprintf("\n\nbut the thread does not hold it");
			mutex_owner(lock);
			rprintf("\n\n");
		} else {
			rprintf("\n\nbut there are no more locks to release!"
				" (it is not locked)\n\n");
		}
		report_finish(t, ip);
	}
	lockdep_lock_release();
}

/**
 * kmutex_debug_mutex_unlock - mutex_unlock(), checked
 * @lock: the mutex
 * @call: the caller's expression and line
 */
KMUTEX_API __kmutex_no_analysis void
kmutex_debug_mutex_unlock(struct mutex *lock, const char *call)
{
	const void *ip = __builtin_return_address(0);
	struct kmutex_thread *t;
	struct held_lock *h;

	if (__kmutex_unlikely(lockdep_recursion)) {
		raw_unlock(lock, call);
		return;
	}
	t = lockdep_thread();
	if (__kmutex_unlikely(lock->magic != lock)) {
		bool never = lock->magic != DESTROYED(lock);

		check_magic(t, lock, call, ip);
		if (never)
			return;		/* nothing was locked */
	}
	h = held_find(t, &lock->dep_map);
	if (__kmutex_likely(__atomic_load_n(&lock->owner, __ATOMIC_RELAXED)
			    == t->tid)) {
		if (__kmutex_likely(h != NULL))
			dep_hook_release(t, h);
		else if (t->lost)
			t->lost--;
		__atomic_store_n(&lock->owner, 0, __ATOMIC_RELAXED);
		raw_unlock(lock, call);
		return;
	}
	if (h) {
		/*
		 * Held by this thread, but another thread unlocked it or
		 * re-initialised it meanwhile: that was reported; forget it.
		 */
		held_remove(t, h);
		return;
	}
	report_bad_unlock(t, lock, call, ip);
	if (__atomic_load_n(&lock->count, __ATOMIC_RELAXED) != 1) {
		/* Held by another thread: release it, as the kernel does. */
		__atomic_store_n(&lock->owner, 0, __ATOMIC_RELAXED);
		raw_unlock(lock, call);
	}
}

/**
 * kmutex_debug_mutex_init - mutex_init(), checked
 * @lock: the mutex
 * @name: the argument of mutex_init() as written
 * @key: the static key of the mutex_init() call site: the lock's class
 * @site: "file.c:12" of that call
 *
 * Reports the initialisation of a mutex that the calling thread holds
 * (it would lose it); see check_init_held().
 */
KMUTEX_API void kmutex_debug_mutex_init(struct mutex *lock, const char *name,
					const void *key,
					const char *site)
{
	check_init_held(&lock->dep_map, &lock->owner, warn_locked,
			"mutex_init", name, site, "mutex",
			__builtin_return_address(0));
	fields_init(lock);
	map_init(&lock->dep_map, name, key, site);
	__atomic_store_n(&lock->magic, lock, __ATOMIC_RELEASE);
	__kmutex_hook_create(lock);
}

/*
 * A destroyed mutex is gone: if this thread held it, it holds it no
 * more, or its next mutex_init() (and its exit) would report the same
 * bug again.
 */
static void drop_held(struct kmutex_thread *t, struct mutex *lock)
{
	struct held_lock *h = held_find(t, &lock->dep_map);

	if (h)
		held_remove(t, h);
}

/**
 * kmutex_debug_mutex_destroy - mutex_destroy(), checked
 * @lock: the mutex
 * @call: the caller's expression and line
 *
 * Reports the destroy of a held mutex; any later use is reported.
 */
KMUTEX_API void kmutex_debug_mutex_destroy(struct mutex *lock,
					   const char *call)
{
	const void *ip = __builtin_return_address(0);

	if (!lockdep_recursion && lock->magic == lock &&
	    __atomic_load_n(&lock->count, __ATOMIC_RELAXED) != 1) {
		struct kmutex_thread *t = lockdep_thread();
		struct kmutex_lock_class *c = class_get(&lock->dep_map, 0);

		lockdep_lock_acquire();
		if (report_begin(R_WARN_ON, report_hash(c->id, 2),
				 warn_locked)) {
			report_thread(t->tid);
			rprintf(": %s of a held mutex:\n  ", call);
			report_lock(&lock->dep_map, c);
			mutex_owner(lock);
			rprintf("\n\n");
			report_finish(t, ip);
		}
		lockdep_lock_release();
		drop_held(t, lock);
	}
	__kmutex_hook_destroy(lock);
	__atomic_store_n(&lock->magic, DESTROYED(lock), __ATOMIC_RELEASE);
}

/**
 * kmutex_lockdep_assert_held - lockdep_assert_held()
 * @map: the lock's map
 * @expr: the argument as written
 * @site: the caller's line
 */
KMUTEX_API void kmutex_lockdep_assert_held(const struct kmutex_dep_map *map,
					   const char *expr, const char *site)
{
	const void *ip = __builtin_return_address(0);
	struct kmutex_thread *t;
	char title[160];

	if (lockdep_recursion)
		return;
	t = lockdep_thread();
	if (__kmutex_likely(held_find(t, map) != NULL) || t->lost)
		return;
	snprintf(title, sizeof(title), "WARNING: lockdep_assert_held(%s) "
		 "failed", expr);
	lockdep_lock_acquire();
	if (report_begin(R_ASSERT, report_hash((uintptr_t)site, map->key ?
			(uintptr_t)map->key : (uintptr_t)map), title)) {
		report_thread(t->tid);
		rprintf(" at %s does not hold lock:\n  ", site);
		report_lock(map, NULL);
		rprintf("\n  at: ");
		ip_print(ip);
		rprintf("\n\n");
		report_finish(t, ip);
	}
	lockdep_lock_release();
}
