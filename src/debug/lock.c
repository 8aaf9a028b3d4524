// SPDX-License-Identifier: MIT
/*
 * lock.c - the parts of the checks that struct mutex and struct
 * rw_semaphore share: a lock taken in a signal handler, and who holds a
 * lock, for a report.
 */
#include "../api.h"

#include <signal.h>
#include <string.h>

#include "debug.h"

/**
 * check_handler - report a lock taken in a signal handler
 * @t: the calling thread
 * @next: the held entry of the lock it takes, filled in
 *
 * The userspace form of lockdep's {IN-HARDIRQ} usage: if the signal came
 * while this thread held the lock (or a lock held while waiting for
 * it), the handler deadlocks.
 */
void __attribute__((noinline))
check_handler(struct kmutex_thread *t, struct held_lock *next)
{
	int sig = lockdep_handler_signal();
	char a[160];

	if (!sig)
		return;
	lockdep_lock_acquire();
	if (report_begin(R_SIGNAL, next->class->id,
			 "WARNING: inconsistent lock state")) {
		rprintf("inconsistent {IN-SIGNAL-HANDLER} usage: a sleeping "
			"lock taken in a signal handler.\n");
		report_thread(t->tid);
		if (sig > 0)
			rprintf(" [in signal handler: signal %d, %s]", sig,
				strsignal(sig));
		rprintf(" takes:\n  ");
		report_lock(next->map, next->class);
		report_call(next->call, next->ip, "  ");
		class_str(next->class, a, sizeof(a));
		rprintf("\n\nIf the signal came while this thread held "
			"%s (or a lock held while waiting\nfor it), the "
			"handler deadlocks: a sleeping lock is not "
			"async-signal-safe.\n\n"
			" Possible unsafe locking scenario:\n\n"
			"       Thread0\n"
			"       -------\n"
			"  lock(%s);\n"
			"  <signal>\n"
			"    lock(%s);\n\n"
			" *** DEADLOCK ***\n\n", a, a, a);
		report_held_locks(t);
		report_backtrace(next->ip);
		report_end();
	}
	lockdep_lock_release();
}

/**
 * report_owner - ", held by t/12, by mutex_lock(&m) at f.c:3, in fn+0x1c"
 * @tid: the thread that holds the lock, or 0 (prints nothing)
 * @map: the lock's map, to find where that thread took it
 *
 * Under lockdep_lock.
 */
void report_owner(int tid, const struct kmutex_dep_map *map)
{
	struct kmutex_thread *o = tid ? thread_by_tid(tid) : NULL;
	struct held_lock *h = o ? held_find(o, map) : NULL;

	if (!tid)
		return;
	rprintf(", held by ");
	report_thread(tid);
	if (h)
		report_call(h->call, h->ip, "  ");
}

/**
 * check_init_held - mutex_init()/init_rwsem() of a lock this thread holds
 * @map: the lock's map
 * @owner: the lock's owner tid field (a writer's)
 * @title: the report's title
 * @call: "mutex_init" or "init_rwsem"
 * @name: the argument as written
 * @site: "file.c:12" of the call
 * @kind: "mutex" or "rwsem"
 * @ip: the return address of the init call
 *
 * Held by this thread as its held-lock stack says; the lock's bytes are
 * read only then.  Before init they may be anything: malloc() may return
 * a freed lock's bytes with its magic intact and the allocator's
 * free-list links over its count (memcheck caught the old check taking
 * that for "held").  The kernel checks the same (debug_mutex_init() ->
 * debug_check_no_locks_freed()).
 */
void check_init_held(struct kmutex_dep_map *map, const int *owner,
		     const char *title, const char *call, const char *name,
		     const char *site, const char *kind, const void *ip)
{
	struct kmutex_thread *t = lockdep_self;
	struct kmutex_lock_class *c;

	if (lockdep_recursion || !t || !held_find(t, map))
		return;
	c = class_get(map, 0);
	lockdep_lock_acquire();
	if (report_begin(R_WARN_ON, report_hash(c->id, 1), title)) {
		report_thread(t->tid);
		rprintf(": %s(%s) at %s of a held %s:\n  ", call, name, site,
			kind);
		report_lock(map, c);
		report_owner(__atomic_load_n(owner, __ATOMIC_RELAXED), map);
		rprintf("\n\n");
		report_finish(t, ip);
	}
	lockdep_lock_release();
}
