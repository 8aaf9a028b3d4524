/* SPDX-License-Identifier: MIT */
/*
 * <linux/ww_mutex.h> - the kernel's wound/wait mutex, in userspace.
 *
 * A ww_mutex is a struct mutex plus the acquire context (ticket) of its
 * holder.  A thread that must lock a set of ww_mutexes in no particular
 * order does so inside one struct ww_acquire_ctx; when two contexts
 * could deadlock, the younger one (the higher stamp) is told -EDEADLK,
 * drops every lock it holds, waits for the contended one with
 * ww_mutex_lock_slow() and starts again, so the oldest context always
 * progresses.  Two classes of rules, as in the kernel
 * (Documentation/locking/ww-mutex-design.rst):
 *
 *   wait-die   (DEFINE_WD_CLASS) a younger context that would wait for
 *              an older one dies at once;
 *   wound-wait (DEFINE_WW_CLASS) an older context that waits for a
 *              younger one wounds it: the younger gets -EDEADLK at its
 *              next ww_mutex_lock() while it holds locks of the class,
 *              and is woken if it sleeps in one.
 *
 * The uncontended lock is the mutex's fast path (one compare-and-swap)
 * plus recording the context; the waits live in src/ww_mutex.c, which
 * queues its waiters on the mutex's own wait list, ordered by stamp, so
 * that ww_mutex_unlock() is "forget the context, then mutex_unlock()".
 * The base mutex must be taken only through this API.
 */
#ifndef _LINUX_WW_MUTEX_H
#define _LINUX_WW_MUTEX_H

#include <errno.h>
#include <stddef.h>
#include <linux/mutex.h>

/* The rules a set of ww_mutexes follows: DEFINE_WW_CLASS, DEFINE_WD_CLASS. */
struct ww_class {
	int is_wait_die;		/* 1 wait-die, 0 wound-wait */
	const char *acquire_name;	/* for reports */
	const char *mutex_name;
};

/* One transaction's ticket; lives on its thread's stack, typically. */
struct ww_acquire_ctx {
	unsigned long stamp;		/* lower = older; ww_acquire_init */
	unsigned int acquired;		/* ww_mutexes held in this context */
	int wounded;			/* wound-wait: back off at next lock */
	int wait_lock;			/* protects sleeping (src/ww_mutex.c) */
	void *sleeping;			/* the waiter this context sleeps in */
	struct ww_class *ww_class;
	/* What the debugging build checks (kept in both: same layout). */
	unsigned int done_acquire;	/* ww_acquire_done() was called */
	struct ww_mutex *contending_lock;	/* the last -EDEADLK's lock */
	int tid;			/* the thread that owns the context */
	/* The debugging build's fake -EDEADLKs (KMUTEX_DEBUG_WW_INJECT). */
	unsigned int deadlock_inject_countdown;	/* locks until the next */
	unsigned int deadlock_inject_interval;	/* 0: no injection */
};

struct ww_mutex {
	struct mutex base;
	struct ww_acquire_ctx *ctx;	/* the holder's context, or NULL */
	struct ww_class *ww_class;
};

#define __WW_CLASS_INITIALIZER(ww_class, _is_wait_die)			\
	{								\
		.is_wait_die = (_is_wait_die),				\
		.acquire_name = #ww_class "_acquire",			\
		.mutex_name = #ww_class "_mutex",			\
	}

/**
 * DEFINE_WW_CLASS - define a class of wound-wait ww_mutexes
 * @classname: the variable's name
 *
 * An older context that waits for a younger holder wounds it.
 */
#define DEFINE_WW_CLASS(classname) \
	struct ww_class classname = __WW_CLASS_INITIALIZER(classname, 0)

/**
 * DEFINE_WD_CLASS - define a class of wait-die ww_mutexes
 * @classname: the variable's name
 *
 * A younger context that would wait for an older one dies (-EDEADLK).
 */
#define DEFINE_WD_CLASS(classname) \
	struct ww_class classname = __WW_CLASS_INITIALIZER(classname, 1)

/* The library's side (src/ww_mutex.c). */
#define __KMUTEX_WW_INTR	1	/* interruptible wait */
#define __KMUTEX_WW_SLOW	2	/* ww_mutex_lock_slow*() */
#define __KMUTEX_WW_TRY		4	/* ww_mutex_trylock() (debugging build) */
unsigned long kmutex_ww_stamp(void);
int kmutex_ww_mutex_lock_slowpath(struct ww_mutex *lock,
				  struct ww_acquire_ctx *ctx, int flags);
void kmutex_ww_mutex_fast_waiters(struct ww_mutex *lock,
				  struct ww_acquire_ctx *ctx);
#ifdef KMUTEX_DEBUG
void kmutex_ww_debug_lock(struct ww_mutex *lock, struct ww_acquire_ctx *ctx,
			  int flags, const char *call);
void kmutex_ww_debug_ctx(struct ww_acquire_ctx *ctx, int what,
			 const char *call);
void kmutex_ww_debug_unlock(struct ww_mutex *lock, const char *call);
int kmutex_ww_debug_inject(struct ww_mutex *lock, struct ww_acquire_ctx *ctx,
			   int ret);
void kmutex_ww_debug_locked(struct ww_mutex *lock, struct ww_acquire_ctx *ctx,
			    int ret, int flags);
#define __KMUTEX_WW_DEBUG(x)	x
#else
#define __KMUTEX_WW_DEBUG(x)	do { } while (0)
#endif

/**
 * ww_mutex_init - initialise a ww_mutex at run time
 * @lock: the ww_mutex
 * @ww_class: its class, DEFINE_WW_CLASS or DEFINE_WD_CLASS
 *
 * Leaves @lock unlocked.  Every ww_mutex locked in one context must be
 * of that context's class.
 */
static __kmutex_inline void ww_mutex_init(struct ww_mutex *lock,
				 struct ww_class *ww_class)
{
	mutex_init(&lock->base);
	lock->ctx = NULL;
	lock->ww_class = ww_class;
}

/**
 * ww_mutex_destroy - mark a ww_mutex as no longer in use
 * @lock: an unlocked ww_mutex
 */
static __kmutex_inline void ww_mutex_destroy(struct ww_mutex *lock)
{
	mutex_destroy(&lock->base);
}

/**
 * ww_acquire_init - start an acquire context (a transaction)
 * @ctx: the context, to be used by the calling thread only
 * @ww_class: the class of every ww_mutex it will lock
 *
 * Gives @ctx a stamp from a counter shared by the whole program: a
 * context started earlier is older and wins conflicts.
 */
static __kmutex_inline void ww_acquire_init(struct ww_acquire_ctx *ctx,
				   struct ww_class *ww_class)
{
	ctx->stamp = kmutex_ww_stamp();
	ctx->acquired = 0;
	ctx->wounded = 0;
	ctx->wait_lock = 0;
	ctx->sleeping = NULL;
	ctx->ww_class = ww_class;
	ctx->done_acquire = 0;
	ctx->contending_lock = NULL;
	ctx->tid = 0;
	ctx->deadlock_inject_countdown = 0;
	ctx->deadlock_inject_interval = 0;
	__KMUTEX_WW_DEBUG(kmutex_ww_debug_ctx(ctx, 0, "ww_acquire_init"));
}

/**
 * ww_acquire_done - say that a context will lock nothing more
 * @ctx: the context
 *
 * Optional; the debugging build reports a lock in @ctx after it.
 */
static __kmutex_inline void ww_acquire_done(struct ww_acquire_ctx *ctx)
{
	__KMUTEX_WW_DEBUG(kmutex_ww_debug_ctx(ctx, 1, "ww_acquire_done"));
	ctx->done_acquire = 1;
}

/**
 * ww_acquire_fini - end an acquire context
 * @ctx: the context, holding no ww_mutex any more
 *
 * The debugging build reports a context ended with locks still held.
 */
static __kmutex_inline void ww_acquire_fini(struct ww_acquire_ctx *ctx)
{
	__KMUTEX_WW_DEBUG(kmutex_ww_debug_ctx(ctx, 2, "ww_acquire_fini"));
	ctx->done_acquire = 1;
}

/* Common to every lock call: the mutex fast path, then the context. */
static __kmutex_inline int __kmutex_ww_lock_raw(struct ww_mutex *lock,
				       struct ww_acquire_ctx *ctx, int flags)
{
	/* A wounded context backs off at its next lock, even of a free one. */
	if (ctx && __kmutex_unlikely(__atomic_load_n(&ctx->wounded,
						     __ATOMIC_RELAXED)))
		return kmutex_ww_mutex_lock_slowpath(lock, ctx, flags);
	if (__kmutex_likely(__kmutex_mutex_trylock_fast(&lock->base))) {
		if (!ctx)
			return 0;
		/* Paired with the waiter's xchg of count: see ww_mutex.c. */
		__atomic_store_n(&lock->ctx, ctx, __ATOMIC_SEQ_CST);
		ctx->acquired++;
		if (__kmutex_unlikely(__atomic_load_n(&lock->base.count,
						      __ATOMIC_SEQ_CST) < 0))
			kmutex_ww_mutex_fast_waiters(lock, ctx);
		return 0;
	}
	return kmutex_ww_mutex_lock_slowpath(lock, ctx, flags);
}

/*
 * Told to the hooks (kmutex/hooks.h) as a trylock: a ww lock may
 * fail, and its order is free by design, so it must add no lock-order
 * edge to TSan's deadlock detector.
 */
static __kmutex_inline int __kmutex_ww_lock(struct ww_mutex *lock,
				   struct ww_acquire_ctx *ctx, int flags)
{
	int ret;

	__kmutex_hook_acquire(lock, __KMUTEX_HOOK_TRY);
	ret = __kmutex_ww_lock_raw(lock, ctx, flags);
	__KMUTEX_WW_DEBUG(kmutex_ww_debug_locked(lock, ctx, ret, flags));
	__kmutex_hook_acquired(lock, __KMUTEX_HOOK_TRY, ret == 0);
	return ret;
}

/**
 * ww_mutex_lock - acquire a ww_mutex within an acquire context
 * @lock: the ww_mutex
 * @ctx: the context, or NULL to lock it as a plain mutex
 *
 * Return: 0 with @lock held; -EALREADY if @ctx holds it already;
 * -EDEADLK if @ctx must back off: release every ww_mutex of @ctx, then
 * ww_mutex_lock_slow(@lock, @ctx) and lock the others again.  With a
 * NULL @ctx it always returns 0.  The debugging build, with
 * KMUTEX_DEBUG_WW_INJECT set, also returns a fake -EDEADLK now and then
 * (kmutex-debug(3)), so that the caller's back-off path runs.
 */
static __kmutex_inline int ww_mutex_lock(struct ww_mutex *lock,
				struct ww_acquire_ctx *ctx)
{
	int ret;

	__KMUTEX_WW_DEBUG(kmutex_ww_debug_lock(lock, ctx, 0, "ww_mutex_lock"));
	ret = __kmutex_ww_lock(lock, ctx, 0);
	__KMUTEX_WW_DEBUG(ret = kmutex_ww_debug_inject(lock, ctx, ret));
	return ret;
}

/**
 * ww_mutex_lock_interruptible - ww_mutex_lock() unless a signal comes
 * @lock: the ww_mutex
 * @ctx: the context, or NULL
 *
 * Return: as ww_mutex_lock(), or -EINTR (not held) if a signal handler
 * ran while the thread slept.
 */
static __kmutex_inline int ww_mutex_lock_interruptible(struct ww_mutex *lock,
					      struct ww_acquire_ctx *ctx)
{
	int ret;

	__KMUTEX_WW_DEBUG(kmutex_ww_debug_lock(lock, ctx, __KMUTEX_WW_INTR,
					       "ww_mutex_lock_interruptible"));
	ret = __kmutex_ww_lock(lock, ctx, __KMUTEX_WW_INTR);
	__KMUTEX_WW_DEBUG(ret = kmutex_ww_debug_inject(lock, ctx, ret));
	return ret;
}

/**
 * ww_mutex_lock_slow - after -EDEADLK, wait for the contended ww_mutex
 * @lock: the ww_mutex whose lock returned -EDEADLK
 * @ctx: that context, which must hold no ww_mutex now
 *
 * Holding nothing, the context cannot be part of a deadlock: it waits
 * for @lock as long as it takes.
 */
static __kmutex_inline void ww_mutex_lock_slow(struct ww_mutex *lock,
				      struct ww_acquire_ctx *ctx)
{
	__KMUTEX_WW_DEBUG(kmutex_ww_debug_lock(lock, ctx, __KMUTEX_WW_SLOW,
					       "ww_mutex_lock_slow"));
	(void)__kmutex_ww_lock(lock, ctx, __KMUTEX_WW_SLOW);
}

/**
 * ww_mutex_lock_slow_interruptible - ww_mutex_lock_slow() unless a
 *	signal comes first
 * @lock: the ww_mutex whose lock returned -EDEADLK
 * @ctx: that context, which must hold no ww_mutex now
 *
 * Return: 0 with @lock held, or -EINTR.
 */
static __kmutex_inline int ww_mutex_lock_slow_interruptible(struct ww_mutex *lock,
						   struct ww_acquire_ctx *ctx)
{
	__KMUTEX_WW_DEBUG(kmutex_ww_debug_lock(lock, ctx,
			__KMUTEX_WW_SLOW | __KMUTEX_WW_INTR,
			"ww_mutex_lock_slow_interruptible"));
	return __kmutex_ww_lock(lock, ctx,
				__KMUTEX_WW_SLOW | __KMUTEX_WW_INTR);
}

/**
 * ww_mutex_trylock - try once to acquire a ww_mutex, never sleeping
 * @lock: the ww_mutex
 * @ctx: the context to record as holder, or NULL
 *
 * Return: 1 if acquired, 0 if it was held (also by @ctx itself).
 */
static __kmutex_inline int ww_mutex_trylock(struct ww_mutex *lock,
				   struct ww_acquire_ctx *ctx)
{
	if (ctx)
		__KMUTEX_WW_DEBUG(kmutex_ww_debug_lock(lock, ctx,
						       __KMUTEX_WW_TRY,
						       "ww_mutex_trylock"));
	/*
	 * A wound is for the locks held: holding none, the context starts
	 * afresh, as the kernel's ww_mutex_trylock() does, or its next
	 * lock would back off for nothing.  A wound can land after the
	 * last unlock only while that unlock is still in its slow path
	 * (the wounder holds the lock's wait_lock): it is spent.
	 */
	if (ctx && ctx->acquired == 0)
		__atomic_store_n(&ctx->wounded, 0, __ATOMIC_RELAXED);
	__kmutex_hook_acquire(lock, __KMUTEX_HOOK_TRY);
	if (!__kmutex_mutex_trylock_fast(&lock->base)) {
		__kmutex_hook_acquired(lock, __KMUTEX_HOOK_TRY, false);
		return 0;
	}
	if (ctx) {
		__atomic_store_n(&lock->ctx, ctx, __ATOMIC_SEQ_CST);
		ctx->acquired++;
		if (__kmutex_unlikely(__atomic_load_n(&lock->base.count,
						      __ATOMIC_SEQ_CST) < 0))
			kmutex_ww_mutex_fast_waiters(lock, ctx);
	}
	__KMUTEX_WW_DEBUG(kmutex_ww_debug_locked(lock, ctx, 0,
						 __KMUTEX_WW_TRY));
	__kmutex_hook_acquired(lock, __KMUTEX_HOOK_TRY, true);
	return 1;
}

/**
 * ww_mutex_unlock - release a ww_mutex
 * @lock: a ww_mutex the caller holds
 *
 * Forgets the holder's context, then releases the mutex, waking the
 * first waiter (the oldest context) if any.
 */
static __kmutex_inline void ww_mutex_unlock(struct ww_mutex *lock)
{
	struct ww_acquire_ctx *ctx = __atomic_load_n(&lock->ctx,
						     __ATOMIC_RELAXED);
	int locked = 0;

	__KMUTEX_WW_DEBUG(kmutex_ww_debug_unlock(lock, "ww_mutex_unlock"));
	__kmutex_hook_release(lock, 0);
	if (ctx) {
		/* A wound is for the locks held: none left, none kept. */
		if (ctx->acquired > 0 && --ctx->acquired == 0)
			__atomic_store_n(&ctx->wounded, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&lock->ctx, NULL, __ATOMIC_RELAXED);
	}
	if (__kmutex_unlikely(!__kmutex_cas_release(&lock->base.count,
						    &locked, 1)))
		kmutex_mutex_unlock_slowpath(&lock->base, "ww_mutex_unlock");
	__kmutex_hook_released(lock, 0);
}

/**
 * ww_mutex_is_locked - tell whether a ww_mutex is held
 * @lock: the ww_mutex
 *
 * Return: true if some thread holds it; the answer may be stale.
 */
static __kmutex_inline bool ww_mutex_is_locked(struct ww_mutex *lock)
{
	return mutex_is_locked(&lock->base);
}

#endif /* _LINUX_WW_MUTEX_H */
