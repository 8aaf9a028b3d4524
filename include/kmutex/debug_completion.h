/* SPDX-License-Identifier: MIT */
/*
 * kmutex/debug_completion.h - struct completion of the debugging build.
 *
 * Included by <linux/completion.h> when KMUTEX_DEBUG is defined
 * (pkg-config kmutex-debug); never include it directly.  A completion
 * takes no part in the lock-order checks (as in the kernel), but the
 * debug library (src/debug/completion.c) reports a wait in a signal
 * handler and the use of a completion never initialised.  See
 * kmutex-debug(3).
 *
 * As in <kmutex/debug_mutex.h>: the production fields first, for
 * src/completion.c; the API names are macros, so that a report names
 * the caller's expression, line and frame.
 */
#ifndef _KMUTEX_DEBUG_COMPLETION_H
#define _KMUTEX_DEBUG_COMPLETION_H

#ifndef _LINUX_COMPLETION_H
#error "include <linux/completion.h>, not <kmutex/debug_completion.h>"
#endif

#include <kmutex/debug_signal.h>
#include <kmutex/lockdep.h>

__KMUTEX_BEGIN_DECLS

struct completion {
	unsigned int done;		/* pending completions; UINT_MAX: all */
	int wait_lock;			/* internal futex lock for wait_list */
	struct kmutex_list wait_list;	/* FIFO of struct kmutex_waiter */
	/* Debugging build only: */
	const void *magic;		/* the completion itself once set up */
	struct kmutex_obj_map map;	/* its name, for reports */
};

#define COMPLETION_INITIALIZER(work)					\
	{								\
		.done = 0,						\
		.wait_lock = 0,						\
		.wait_list = KMUTEX_LIST_INIT((work).wait_list),	\
		.magic = &(work),					\
		.map = { .name = #work, .site = __KMUTEX_SITE },	\
	}

#define DECLARE_COMPLETION(work) \
	struct completion work = COMPLETION_INITIALIZER(work)
#define DECLARE_COMPLETION_ONSTACK(work)	DECLARE_COMPLETION(work)

/* The library's slow paths (src/completion.c), the same in both builds. */
void kmutex_complete(struct completion *x, int all);
long kmutex_wait_for_completion(struct completion *x, int intr, long timeout);
bool kmutex_try_wait_for_completion(struct completion *x);
void kmutex_completion_done_sync(struct completion *x);

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

#ifndef __KMUTEX_CALL
#define __KMUTEX_CALL(fn, lock)	#fn "(" #lock ") at " __KMUTEX_SITE
#endif

/* A timeout in jiffies as the library takes it. */
static inline long __kmutex_completion_timeout(unsigned long timeout)
{
	return timeout > (unsigned long)MAX_SCHEDULE_TIMEOUT ?
	       MAX_SCHEDULE_TIMEOUT : (long)timeout;
}

/* wait_for_completion_interruptible()'s result: 0, or -EINTR. */
static inline int __kmutex_completion_intr(long ret)
{
	return ret < 0 ? (int)ret : 0;
}

#define __kmutex_wait(x, intr, timeout, fn)				\
	kmutex_debug_wait_for_completion((x), (intr), (timeout),	\
					 __KMUTEX_CALL(fn, x))

#define init_completion(x) \
	kmutex_debug_init_completion((x), #x, __KMUTEX_SITE)
#define reinit_completion(x) \
	kmutex_debug_reinit_completion((x), __KMUTEX_CALL(reinit_completion, x))
#define wait_for_completion(x) \
	((void)__kmutex_wait(x, 0, MAX_SCHEDULE_TIMEOUT, wait_for_completion))
#define wait_for_completion_interruptible(x)				\
	__kmutex_completion_intr(__kmutex_wait(x, 1, MAX_SCHEDULE_TIMEOUT, \
			    wait_for_completion_interruptible))
/* Userspace has no fatal signal that returns: as interruptible. */
#define wait_for_completion_killable(x)					\
	__kmutex_completion_intr(__kmutex_wait(x, 1, MAX_SCHEDULE_TIMEOUT, \
			    wait_for_completion_killable))
#define wait_for_completion_timeout(x, timeout)				\
	((unsigned long)__kmutex_wait(x, 0,				\
		__kmutex_completion_timeout(timeout),			\
		wait_for_completion_timeout))
#define wait_for_completion_interruptible_timeout(x, timeout)		\
	__kmutex_wait(x, 1, __kmutex_completion_timeout(timeout),	\
		      wait_for_completion_interruptible_timeout)
#define try_wait_for_completion(x)					\
	kmutex_debug_try_wait_for_completion((x),			\
		__KMUTEX_CALL(try_wait_for_completion, x))
#define completion_done(x) \
	kmutex_debug_completion_done((x), __KMUTEX_CALL(completion_done, x))

/*
 * complete() and complete_all() are functions, not macros: "complete" is
 * a common struct member (req->complete(req)), which a function-like
 * macro would eat.  Always inlined, so the library sees the caller.
 */
/**
 * complete - complete once: wake one waiter, or let the next wait pass
 * @x: the completion
 */
static inline __attribute__((__always_inline__))
void complete(struct completion *x)
{
	kmutex_debug_complete(x, 0, "complete()");
}

/**
 * complete_all - complete for everyone until reinit_completion()
 * @x: the completion
 */
static inline __attribute__((__always_inline__))
void complete_all(struct completion *x)
{
	kmutex_debug_complete(x, 1, "complete_all()");
}

__KMUTEX_END_DECLS

#endif /* _KMUTEX_DEBUG_COMPLETION_H */
