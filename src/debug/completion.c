// SPDX-License-Identifier: MIT
/*
 * completion.c - the checked struct completion calls of the debugging
 * build: src/completion.c's code after two checks.
 *
 *   magic     a completion never initialised is reported, then set up
 *             as it is (not done, in zeroed memory);
 *   handler   the wait_for_completion*() calls may sleep: in a signal
 *             handler they are reported.  complete(), complete_all(),
 *             try_wait_for_completion() and completion_done() do not
 *             sleep, and the kernel allows them in interrupt context.
 *
 * No order checks, as in the kernel's lockdep.
 */
#include "../api.h"

#include <linux/completion.h>

#include "debug.h"
#include "../hooks.h"

static const char warn_magic[] =
	"WARNING: DEBUG_LOCKS_WARN_ON(x->magic != x)";

static void __attribute__((noinline))
check_magic(struct completion *x, const char *call, const void *ip)
{
	struct kmutex_thread *t = lockdep_thread();

	lockdep_lock_acquire();
	if (x->magic != x) {
		if (!x->wait_list.next)		/* zeroed memory */
			__kmutex_list_init(&x->wait_list);
		x->map.name = call;
		x->map.site = "(never initialised)";
		__atomic_store_n(&x->magic, x, __ATOMIC_RELEASE);
		obj_report_uninit(t, x, warn_magic, "completion",
				  "DECLARE_COMPLETION or init_completion",
				  call, ip);
	}
	lockdep_lock_release();
}

static inline void checks(struct completion *x, bool sleeps,
			  const char *call, const void *ip)
{
	if (__kmutex_unlikely(lockdep_recursion))
		return;
	if (__kmutex_unlikely(__atomic_load_n(&x->magic,
					      __ATOMIC_RELAXED) != x))
		check_magic(x, call, ip);
	if (__kmutex_unlikely(lockdep_in_handler) && sleeps)
		obj_check_handler(&x->map, "completion", call, ip);
}

/**
 * kmutex_debug_init_completion - init_completion()
 * @x: the completion
 * @name: the argument as written
 * @site: "file.c:12" of the call
 */
KMUTEX_API void kmutex_debug_init_completion(struct completion *x,
					     const char *name,
					     const char *site)
{
	x->done = 0;
	x->wait_lock = 0;
	__kmutex_list_init(&x->wait_list);
	x->map.name = name;
	x->map.site = site;
	__atomic_store_n(&x->magic, x, __ATOMIC_RELEASE);
}

/**
 * kmutex_debug_reinit_completion - reinit_completion(), checked
 * @x: the completion
 * @call: the caller's expression and line
 */
KMUTEX_API void kmutex_debug_reinit_completion(struct completion *x,
					       const char *call)
{
	checks(x, false, call, __builtin_return_address(0));
	__atomic_store_n(&x->done, 0, __ATOMIC_RELAXED);
}

/**
 * kmutex_debug_wait_for_completion - the wait_for_completion*() calls
 * @x: the completion
 * @intr: whether a signal handler ends the wait (-EINTR)
 * @timeout: the longest wait in jiffies, or MAX_SCHEDULE_TIMEOUT
 * @call: the caller's expression and line
 *
 * Return: -EINTR, 0 on timeout, else the jiffies left (at least 1).
 */
KMUTEX_API long kmutex_debug_wait_for_completion(struct completion *x,
						 int intr, long timeout,
						 const char *call)
{
	const void *ip = __builtin_return_address(0);
	long ret;

	checks(x, true, call, ip);
	hook_caller(x, ip, NULL);
	/* Told to ThreadSanitizer as the production build tells it. */
	if (__kmutex_likely(!hung_on()) ||
	    __atomic_load_n(&x->done, __ATOMIC_ACQUIRE))
		return __kmutex_hook_waited(x,
				kmutex_wait_for_completion(x, intr, timeout));
	/* A wait that may sleep: watched (hung.c). */
	hung_begin(x, "completion", x->map.name, x->map.site, NULL, call, ip);
	ret = kmutex_wait_for_completion(x, intr, timeout);
	hung_end();
	return __kmutex_hook_waited(x, ret);
}

/**
 * kmutex_debug_try_wait_for_completion - try_wait_for_completion()
 * @x: the completion
 * @call: the caller's expression and line
 *
 * Return: true if a completion was consumed.
 */
KMUTEX_API bool kmutex_debug_try_wait_for_completion(struct completion *x,
						     const char *call)
{
	checks(x, false, call, __builtin_return_address(0));
	if (!__atomic_load_n(&x->done, __ATOMIC_ACQUIRE))
		return false;
	return __kmutex_hook_waited(x, kmutex_try_wait_for_completion(x));
}

/**
 * kmutex_debug_completion_done - completion_done(), checked
 * @x: the completion
 * @call: the caller's expression and line
 *
 * Return: true if a wait would not sleep now.
 */
KMUTEX_API bool kmutex_debug_completion_done(struct completion *x,
					     const char *call)
{
	checks(x, false, call, __builtin_return_address(0));
	if (!__atomic_load_n(&x->done, __ATOMIC_ACQUIRE))
		return false;
	kmutex_completion_done_sync(x);
	__kmutex_hook_signalled(x);
	return true;
}

/**
 * kmutex_debug_complete - complete() and complete_all(), checked
 * @x: the completion
 * @all: 1 for complete_all()
 * @call: the caller's expression and line
 */
KMUTEX_API void kmutex_debug_complete(struct completion *x, int all,
				      const char *call)
{
	checks(x, false, call, __builtin_return_address(0));
	__kmutex_hook_signal(x);
	kmutex_complete(x, all);
}
