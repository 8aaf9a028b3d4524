// SPDX-License-Identifier: MIT
/*
 * object.c - the reports on semaphores and completions, which take no
 * part in the order checks (src/debug/semaphore.c, completion.c).
 */
#include "../api.h"

#include <string.h>

#include "debug.h"

static const char title_handler[] =
	"BUG: sleeping function called from invalid context "
	"(in signal handler)";

/**
 * obj_check_handler - report a call that may sleep, in a signal handler
 * @map: the object's name and init site
 * @kind: "semaphore" or "completion"
 * @call: the caller's expression and line
 * @ip: the call's return address
 *
 * The kernel reports a sleep in interrupt context (might_sleep()); the
 * userspace form is a signal handler: the thread it interrupted may be
 * the one that would wake it, so it can wait for ever.  Once per object
 * init site.
 */
void __attribute__((noinline))
obj_check_handler(const struct kmutex_obj_map *map, const char *kind,
		  const char *call, const void *ip)
{
	int sig = lockdep_handler_signal();
	struct kmutex_thread *t;

	if (!sig)
		return;
	t = lockdep_thread();
	lockdep_lock_acquire();
	if (report_begin(R_SIGNAL, report_hash((uintptr_t)map->site, 3),
			 title_handler)) {
		report_thread(t->tid);
		if (sig > 0)
			rprintf(" [in signal handler: signal %d, %s]", sig,
				strsignal(sig));
		rprintf(" may sleep on a %s:\n  \"%s\" (init at %s)", kind,
			map->name ? map->name : "?",
			map->site ? map->site : "?");
		report_call(call, ip, "  ");
		rprintf("\n\nA handler that waits can wait for ever: the "
			"thread it interrupted may be\nthe one that would "
			"wake it, or may be inside a call on the same %s.\n\n",
			kind);
		report_finish(t, ip);
	}
	lockdep_lock_release();
}

/**
 * obj_report_uninit - report the use of an object never initialised
 * @t: the calling thread
 * @obj: the object
 * @title: the title line
 * @kind: "semaphore" or "completion"
 * @inits: how it should have been initialised
 * @call: the caller's expression and line
 * @ip: the call's return address
 *
 * Under lockdep_lock; the caller then initialises the object.
 */
void obj_report_uninit(struct kmutex_thread *t, const void *obj,
		       const char *title, const char *kind, const char *inits,
		       const char *call, const void *ip)
{
	if (!report_begin(R_WARN_ON, (uint64_t)(uintptr_t)obj << 16, title))
		return;
	report_thread(t->tid);
	rprintf(": %s: the %s at %p was never initialised (%s),\n  or was "
		"overwritten since\n  at: ", call, kind, obj, inits);
	ip_print(ip);
	rprintf("\n\n");
	report_finish(t, ip);
}
