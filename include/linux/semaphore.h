/* SPDX-License-Identifier: MIT */
/*
 * <linux/semaphore.h> - the kernel's counting semaphore, on futex(2).
 *
 *   count      n >= 0: n units free and nobody waits; -1: none free and
 *              the wait list may be non-empty.  -1 is entered and left
 *              only under wait_lock, so the lock-free fast paths (which
 *              only move count between positive values and 0) never race
 *              with a queued waiter.
 *   up()       with waiters hands the unit straight to the first (FIFO),
 *              as the kernel does: a woken waiter never has to compete.
 *
 * Slow paths: src/semaphore.c.
 */
#ifndef _LINUX_SEMAPHORE_H
#define _LINUX_SEMAPHORE_H

/* The project's <linux/list.h> ..., as the kernel's header includes them. */
#include <kmutex/project_headers.h>

#include <limits.h>
#include <kmutex/compiler.h>
#include <kmutex/atomic_fast.h>
#include <kmutex/hooks.h>
#include <kmutex/jiffies.h>
#include <kmutex/list.h>

#ifdef KMUTEX_DEBUG
#include <kmutex/debug_signal.h>
#include <kmutex/lockdep.h>
#endif

__KMUTEX_BEGIN_DECLS

/*
 * The debugging build (-DKMUTEX_DEBUG, pkg-config kmutex-debug) has the
 * same names, checked by the debug library (src/debug/semaphore.c).  A
 * semaphore takes no part in the lock-order checks (any thread may up()
 * it, so there is no holder to order; the kernel's lockdep does not
 * track them either), but a down() that may sleep in a signal handler
 * and the use of a semaphore never initialised are reported.  See
 * kmutex-debug(3).  Its fields follow the production ones, which the
 * slow paths of src/semaphore.c use in both builds.
 */
struct semaphore {
	int count;			/* free units, or -1: waiters */
	int wait_lock;			/* internal futex lock for wait_list */
	struct kmutex_list wait_list;	/* FIFO of struct kmutex_waiter */
#ifdef KMUTEX_DEBUG
	const void *magic;		/* the semaphore itself once set up */
	struct kmutex_obj_map map;	/* its name, for reports */
	/* Is it a mutex in disguise? (src/debug/hint.c) */
	int hint_count;			/* the count it was set up with */
	int hint_holder;		/* tid of the down() not yet up()ed */
	unsigned int hint_pairs;	/* down/up pairs of one thread */
	unsigned int hint_state;	/* watching, not a mutex, hinted */
#endif
};

#ifdef KMUTEX_DEBUG
#define __KMUTEX_SEMAPHORE_DEBUG_INIT(semname, n, str)		\
		.magic = &(semname),					\
		.map = { .name = (str), .site = __KMUTEX_SITE },	\
		.hint_count = (n),					\
		.hint_holder = 0,					\
		.hint_pairs = 0,					\
		.hint_state = 0,
#else
#define __KMUTEX_SEMAPHORE_DEBUG_INIT(semname, n, str)
#endif

#define __SEMAPHORE_INITIALIZER(name, n)				\
	{								\
		.count = (n),						\
		.wait_lock = 0,						\
		.wait_list = KMUTEX_LIST_INIT((name).wait_list),	\
		__KMUTEX_SEMAPHORE_DEBUG_INIT(name, n, #name)		\
	}

#define __KMUTEX_DEFINE_SEMAPHORE1(name) \
	struct semaphore name = __SEMAPHORE_INITIALIZER(name, 1)
#define __KMUTEX_DEFINE_SEMAPHORE2(name, n) \
	struct semaphore name = __SEMAPHORE_INITIALIZER(name, n)
#define __KMUTEX_PICK3(_1, _2, which, ...) which

/**
 * DEFINE_SEMAPHORE - define and statically initialise a semaphore
 * @name: the variable's name
 * @n: its initial count (optional: kernels before 6.4 had only the
 *	one-argument form, with count 1)
 */
#define DEFINE_SEMAPHORE(...)						\
	__KMUTEX_PICK3(__VA_ARGS__, __KMUTEX_DEFINE_SEMAPHORE2,		\
		       __KMUTEX_DEFINE_SEMAPHORE1, _)(__VA_ARGS__)

/* The library's slow paths (src/semaphore.c), the same in both builds. */
void kmutex_down_slowpath(struct semaphore *sem);
int kmutex_down_common_slowpath(struct semaphore *sem, int intr,
				long timeout_ms);
void kmutex_up_slowpath(struct semaphore *sem);

#ifdef KMUTEX_DEBUG
/* The checked entry points (src/debug/semaphore.c). */
void kmutex_debug_sema_init(struct semaphore *sem, int val, const char *name,
			    const char *site);
int kmutex_debug_sem_down(struct semaphore *sem, int intr, int timed,
			  long timeout, const char *call);
int kmutex_debug_sem_trylock(struct semaphore *sem, const char *call);
void kmutex_debug_sem_up(struct semaphore *sem, const char *call);
#endif

/**
 * sema_init - initialise a semaphore at run time
 * @sem: the semaphore
 * @val: its initial count, 0 to INT_MAX
 */
static __kmutex_inline void sema_init(struct semaphore *sem, int val
				      __KMUTEX_NAMER)
{
#ifdef KMUTEX_DEBUG
	kmutex_debug_sema_init(sem, val, __kmutex_name, __kmutex_site);
#else
	sem->count = val;
	sem->wait_lock = 0;
	__kmutex_list_init(&sem->wait_list);
#endif
}

#ifndef KMUTEX_DEBUG
/* Take a unit if one is free, without waiting: count n > 0 -> n - 1. */
static __kmutex_inline bool __kmutex_down_fast(struct semaphore *sem)
{
	/* RELAXED guess; the CAS's ACQUIRE pairs with up()'s RELEASE. */
	int c = __atomic_load_n(&sem->count, __ATOMIC_RELAXED);

	while (c > 0)
		if (__kmutex_cas_acquire(&sem->count, &c, c - 1))
			return true;
	return false;
}
#endif

/*
 * down() and up() have no call-site macro in the debugging build: their
 * names are common as struct members (ops->up(x)), which a function-like
 * macro would eat.  Their reports name the call alone; the frame is the
 * caller's, as they are always inlined.
 */
/**
 * down - take a unit of the semaphore, waiting as long as it takes
 * @sem: the semaphore
 */
static __kmutex_inline void down(struct semaphore *sem)
{
#ifdef KMUTEX_DEBUG
	kmutex_debug_sem_down(sem, 0, 0, 0, "down()");
#else
	if (__kmutex_unlikely(!__kmutex_down_fast(sem)))
		kmutex_down_slowpath(sem);
	__kmutex_hook_signalled(sem);
#endif
}

/**
 * down_interruptible - take a unit unless a signal comes first
 * @sem: the semaphore
 *
 * Return: 0 with a unit taken, or -EINTR if a signal handler ran in this
 * thread while it slept in the semaphore's wait (also one installed with
 * SA_RESTART).
 * A handler that runs after the thread decided to wait but before it went
 * to sleep may not be seen: it then sleeps until a unit comes or another
 * handler runs during the sleep (down(3), BUGS).
 */
static __kmutex_inline int down_interruptible(struct semaphore *sem
					      __KMUTEX_CALLER)
{
#ifdef KMUTEX_DEBUG
	return kmutex_debug_sem_down(sem, 1, 0, 0, __kmutex_call);
#else
	if (__kmutex_likely(__kmutex_down_fast(sem)))
		return __kmutex_hook_downed(sem, 0);
	return __kmutex_hook_downed(sem,
			kmutex_down_common_slowpath(sem, 1, -1));
#endif
}

/**
 * down_killable - take a unit unless a signal comes first
 * @sem: the semaphore
 *
 * As down_interruptible(): in userspace every handled signal interrupts.
 * Return: 0 or -EINTR.
 */
static __kmutex_inline int down_killable(struct semaphore *sem
					 __KMUTEX_CALLER)
{
	return down_interruptible(sem __KMUTEX_CALLER_ARG);
}

/**
 * down_trylock - take a unit only if one is free now
 * @sem: the semaphore
 *
 * Return: 0 if a unit was taken, 1 if not (the opposite of
 * mutex_trylock(), as in the kernel).  Never sleeps.
 */
static __kmutex_inline int down_trylock(struct semaphore *sem
					__KMUTEX_CALLER)
{
#ifdef KMUTEX_DEBUG
	return kmutex_debug_sem_trylock(sem, __kmutex_call);
#else
	return __kmutex_hook_downed(sem, !__kmutex_down_fast(sem));
#endif
}

/**
 * down_timeout - take a unit, waiting at most @timeout jiffies
 * @sem: the semaphore
 * @timeout: the longest wait, in jiffies (milliseconds: HZ is 1000)
 *
 * Return: 0 with a unit taken, or -ETIME if none came in time.
 */
static __kmutex_inline int down_timeout(struct semaphore *sem, long timeout
					__KMUTEX_CALLER)
{
#ifdef KMUTEX_DEBUG
	return kmutex_debug_sem_down(sem, 0, 1, timeout, __kmutex_call);
#else
	if (__kmutex_likely(__kmutex_down_fast(sem)))
		return __kmutex_hook_downed(sem, 0);
	return __kmutex_hook_downed(sem, kmutex_down_common_slowpath(sem, 0,
						timeout < 0 ? 0 : timeout));
#endif
}

/**
 * up - release a unit of the semaphore
 * @sem: the semaphore
 *
 * Any thread may call it, also a signal handler.  If threads wait, the
 * first one gets the unit.
 */
static __kmutex_inline void up(struct semaphore *sem)
{
#ifdef KMUTEX_DEBUG
	kmutex_debug_sem_up(sem, "up()");
#else
	int c = __atomic_load_n(&sem->count, __ATOMIC_RELAXED);

	__kmutex_hook_signal(sem);
	/* RELEASE pairs with the ACQUIRE of the down() that takes it. */
	while (c >= 0 && c < INT_MAX)
		if (__kmutex_cas_release(&sem->count, &c, c + 1))
			return;
	kmutex_up_slowpath(sem);
#endif
}

#ifdef KMUTEX_DEBUG
/* The debugging build's call-site capture (kmutex/compiler.h). */
#define sema_init(sem, val)	sema_init((sem), (val), #sem, __KMUTEX_SITE)
#define down_interruptible(sem)	__KMUTEX_CALLED(down_interruptible, sem)
#define down_killable(sem)	__KMUTEX_CALLED(down_killable, sem)
#define down_timeout(sem, timeout) \
	__KMUTEX_CALLED2(down_timeout, sem, timeout)
#define down_trylock(sem)	__KMUTEX_CALLED(down_trylock, sem)
#endif /* KMUTEX_DEBUG */

#include <linux/cleanup.h>
DEFINE_GUARD(semaphore, struct semaphore *, down(_T), up(_T))
DEFINE_GUARD_COND(semaphore, _try, !down_trylock(_T))
DEFINE_GUARD_COND(semaphore, _intr, down_interruptible(_T) == 0)

__KMUTEX_END_DECLS

#endif /* _LINUX_SEMAPHORE_H */
