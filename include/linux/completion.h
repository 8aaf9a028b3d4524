/* SPDX-License-Identifier: MIT */
/*
 * <linux/completion.h> - the kernel's completion, on futex(2).
 *
 * done counts complete() calls not yet consumed by a waiter; UINT_MAX
 * after complete_all() means "done for everyone until reinit".  A
 * complete() with waiters hands its completion straight to the first
 * one (FIFO).  All of it is under wait_lock: completions signal events,
 * they are not a hot path.  Slow paths: src/completion.c.
 */
#ifndef _LINUX_COMPLETION_H
#define _LINUX_COMPLETION_H

/* The project's <linux/list.h> ..., as the kernel's header includes them. */
#define __KMUTEX_WANT_WAIT_H 1
#include <kmutex/project_headers.h>

#include <kmutex/compiler.h>
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
 * same names, checked by the debug library (src/debug/completion.c): a
 * completion takes no part in the lock-order checks (as in the kernel),
 * but a wait in a signal handler and the use of a completion never
 * initialised are reported.  See kmutex-debug(3).  Its fields follow the
 * production ones, which src/completion.c uses in both builds.
 */
struct completion {
	unsigned int done;		/* pending completions; UINT_MAX: all */
	int wait_lock;			/* internal futex lock for wait_list */
	struct kmutex_list wait_list;	/* FIFO of struct kmutex_waiter */
#ifdef KMUTEX_DEBUG
	const void *magic;		/* the completion itself once set up */
	struct kmutex_obj_map map;	/* its name, for reports */
#endif
};

#ifdef KMUTEX_DEBUG
#define __KMUTEX_COMPLETION_DEBUG_INIT(work, workname)			\
		.magic = &(work),					\
		.map = { .name = (workname), .site = __KMUTEX_SITE },
#else
#define __KMUTEX_COMPLETION_DEBUG_INIT(work, workname)
#endif

#define COMPLETION_INITIALIZER(work)					\
	{								\
		.done = 0,						\
		.wait_lock = 0,						\
		.wait_list = KMUTEX_LIST_INIT((work).wait_list),	\
		__KMUTEX_COMPLETION_DEBUG_INIT(work, #work)		\
	}

/**
 * DECLARE_COMPLETION - define and statically initialise a completion
 * @work: the variable's name
 */
#define DECLARE_COMPLETION(work) \
	struct completion work = COMPLETION_INITIALIZER(work)
#define DECLARE_COMPLETION_ONSTACK(work)	DECLARE_COMPLETION(work)

/* The library's slow paths (src/completion.c), the same in both builds. */
void kmutex_complete(struct completion *x, int all);
long kmutex_wait_for_completion(struct completion *x, int intr, long timeout);
bool kmutex_try_wait_for_completion(struct completion *x);
void kmutex_completion_done_sync(struct completion *x);

#ifdef KMUTEX_DEBUG
/* The checked entry points (src/debug/completion.c). */
void kmutex_debug_init_completion(struct completion *x, const char *name,
				  const char *site);
void kmutex_debug_reinit_completion(struct completion *x, const char *call);
long kmutex_debug_wait_for_completion(struct completion *x, int intr,
				      long timeout, const char *call);
bool kmutex_debug_try_wait_for_completion(struct completion *x,
					  const char *call);
bool kmutex_debug_completion_done(struct completion *x, const char *call);
void kmutex_debug_complete(struct completion *x, int all, const char *call);
#endif

/**
 * init_completion - initialise a completion at run time
 * @x: the completion; not done, nobody waiting
 */
static __kmutex_inline void
init_completion(struct completion *x __KMUTEX_NAMER)
{
#ifdef KMUTEX_DEBUG
	kmutex_debug_init_completion(x, __kmutex_name, __kmutex_site);
#else
	x->done = 0;
	x->wait_lock = 0;
	__kmutex_list_init(&x->wait_list);
#endif
}

/**
 * reinit_completion - make a completion "not done" again
 * @x: the completion, with no thread waiting on it
 *
 * Forgets earlier complete() and complete_all() calls.
 */
static __kmutex_inline void
reinit_completion(struct completion *x __KMUTEX_CALLER)
{
#ifdef KMUTEX_DEBUG
	kmutex_debug_reinit_completion(x, __kmutex_call);
#else
	/* RELAXED: as in the kernel, no complete() or waiter may race it. */
	__atomic_store_n(&x->done, 0, __ATOMIC_RELAXED);
#endif
}

/**
 * wait_for_completion - wait until a completion is completed
 * @x: the completion
 *
 * Consumes one complete() (none after complete_all()).  Signals do not
 * end the wait.
 */
static __kmutex_inline void
wait_for_completion(struct completion *x __KMUTEX_CALLER)
{
#ifdef KMUTEX_DEBUG
	kmutex_debug_wait_for_completion(x, 0, MAX_SCHEDULE_TIMEOUT,
					 __kmutex_call);
#else
	kmutex_wait_for_completion(x, 0, MAX_SCHEDULE_TIMEOUT);
	__kmutex_hook_signalled(x);
#endif
}

/**
 * wait_for_completion_interruptible - wait unless a signal comes first
 * @x: the completion
 *
 * Return: 0 when completed, -EINTR if a signal handler ran in this thread
 * while it slept in the completion's wait (also one installed with
 * SA_RESTART).
 * A handler that runs after the thread decided to wait but before it went
 * to sleep may not be seen: it then sleeps until the completion comes or
 * another handler runs during the sleep (wait_for_completion(3), BUGS).
 */
static __kmutex_inline int
wait_for_completion_interruptible(struct completion *x __KMUTEX_CALLER)
{
#ifdef KMUTEX_DEBUG
	long r = kmutex_debug_wait_for_completion(x, 1, MAX_SCHEDULE_TIMEOUT,
						  __kmutex_call);

	return r < 0 ? (int)r : 0;
#else
	long r = kmutex_wait_for_completion(x, 1, MAX_SCHEDULE_TIMEOUT);

	return r < 0 ? (int)r : __kmutex_hook_downed(x, 0);
#endif
}

/**
 * wait_for_completion_killable - as wait_for_completion_interruptible()
 * @x: the completion
 *
 * Userspace has no fatal signal that returns: as interruptible.
 * Return: 0 or -EINTR.
 */
static __kmutex_inline int
wait_for_completion_killable(struct completion *x __KMUTEX_CALLER)
{
	return wait_for_completion_interruptible(x __KMUTEX_CALLER_ARG);
}

/* A timeout in jiffies as the library takes it. */
#define __KMUTEX_COMPLETION_TIMEOUT(timeout)				\
	((timeout) > (unsigned long)MAX_SCHEDULE_TIMEOUT ?		\
	 MAX_SCHEDULE_TIMEOUT : (long)(timeout))

/**
 * wait_for_completion_timeout - wait at most @timeout jiffies
 * @x: the completion
 * @timeout: the longest wait in jiffies (ms), or MAX_SCHEDULE_TIMEOUT
 *
 * Return: 0 if it timed out, else the jiffies left (at least 1).
 */
static __kmutex_inline unsigned long
wait_for_completion_timeout(struct completion *x, unsigned long timeout
			    __KMUTEX_CALLER)
{
	long t = __KMUTEX_COMPLETION_TIMEOUT(timeout);

#ifdef KMUTEX_DEBUG
	return (unsigned long)kmutex_debug_wait_for_completion(x, 0, t,
							       __kmutex_call);
#else
	return (unsigned long)__kmutex_hook_waited(x,
			kmutex_wait_for_completion(x, 0, t));
#endif
}

/**
 * wait_for_completion_interruptible_timeout - wait at most @timeout
 *	jiffies unless a signal comes first
 * @x: the completion
 * @timeout: the longest wait in jiffies (ms), or MAX_SCHEDULE_TIMEOUT
 *
 * Return: -EINTR if a signal handler ran in this thread while it slept
 * in the wait (as wait_for_completion_interruptible(), whose note on a
 * handler just before the sleep applies), 0 if it timed out, else the
 * jiffies left (at least 1).
 */
static __kmutex_inline long
wait_for_completion_interruptible_timeout(struct completion *x,
					  unsigned long timeout __KMUTEX_CALLER)
{
	long t = __KMUTEX_COMPLETION_TIMEOUT(timeout);

#ifdef KMUTEX_DEBUG
	return kmutex_debug_wait_for_completion(x, 1, t, __kmutex_call);
#else
	return __kmutex_hook_waited(x, kmutex_wait_for_completion(x, 1, t));
#endif
}

/**
 * try_wait_for_completion - consume a completion only if it is done
 * @x: the completion
 *
 * Return: true if it was done (and one complete() is consumed), false
 * if waiting would have been needed.  Never sleeps.
 */
static __kmutex_inline bool
try_wait_for_completion(struct completion *x __KMUTEX_CALLER)
{
#ifdef KMUTEX_DEBUG
	return kmutex_debug_try_wait_for_completion(x, __kmutex_call);
#else
	/* ACQUIRE pairs with complete()'s RELEASE (src/completion.c). */
	if (!__atomic_load_n(&x->done, __ATOMIC_ACQUIRE))
		return false;
	return __kmutex_hook_waited(x, kmutex_try_wait_for_completion(x));
#endif
}

/**
 * completion_done - tell whether a completion has pending completions
 * @x: the completion
 *
 * Return: true if a wait would not sleep now.  Changes nothing.
 */
static __kmutex_inline bool
completion_done(struct completion *x __KMUTEX_CALLER)
{
#ifdef KMUTEX_DEBUG
	return kmutex_debug_completion_done(x, __kmutex_call);
#else
	/* ACQUIRE: "done" means the completer's writes are visible. */
	if (!__atomic_load_n(&x->done, __ATOMIC_ACQUIRE))
		return false;
	/* The caller may free @x now: let complete() finish with it first. */
	kmutex_completion_done_sync(x);
	__kmutex_hook_signalled(x);
	return true;
#endif
}

/*
 * complete() and complete_all() have no call-site macro in the debugging
 * build: "complete" is a common struct member (req->complete(req)),
 * which a function-like macro would eat.  Their reports name the call
 * alone; the frame is the caller's, as they are always inlined.
 */
/**
 * complete - complete once: wake one waiter, or let the next wait pass
 * @x: the completion
 */
static __kmutex_inline void complete(struct completion *x)
{
#ifdef KMUTEX_DEBUG
	kmutex_debug_complete(x, 0, "complete()");
#else
	__kmutex_hook_signal(x);
	kmutex_complete(x, 0);
#endif
}

/**
 * complete_all - complete for everyone: wake all waiters, and let every
 *	later wait pass until reinit_completion()
 * @x: the completion
 */
static __kmutex_inline void complete_all(struct completion *x)
{
#ifdef KMUTEX_DEBUG
	kmutex_debug_complete(x, 1, "complete_all()");
#else
	__kmutex_hook_signal(x);
	kmutex_complete(x, 1);
#endif
}

#ifdef KMUTEX_DEBUG
/* The debugging build's call-site capture (kmutex/compiler.h). */
#define init_completion(x)	init_completion((x), #x, __KMUTEX_SITE)
#define reinit_completion(x)	__KMUTEX_CALLED(reinit_completion, x)
#define wait_for_completion(x)	__KMUTEX_CALLED(wait_for_completion, x)
#define wait_for_completion_interruptible(x) \
	__KMUTEX_CALLED(wait_for_completion_interruptible, x)
#define wait_for_completion_killable(x) \
	__KMUTEX_CALLED(wait_for_completion_killable, x)
#define wait_for_completion_timeout(x, timeout) \
	__KMUTEX_CALLED2(wait_for_completion_timeout, x, timeout)
#define wait_for_completion_interruptible_timeout(x, timeout) \
	__KMUTEX_CALLED2(wait_for_completion_interruptible_timeout, x, timeout)
#define try_wait_for_completion(x) \
	__KMUTEX_CALLED(try_wait_for_completion, x)
#define completion_done(x)	__KMUTEX_CALLED(completion_done, x)
#endif /* KMUTEX_DEBUG */

__KMUTEX_END_DECLS

#endif /* _LINUX_COMPLETION_H */
