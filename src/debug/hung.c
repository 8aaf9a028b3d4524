// SPDX-License-Identifier: MIT
/*
 * hung.c - the hung-task detector: KMUTEX_DEBUG_HUNG=<seconds>.
 *
 * The kernel's CONFIG_DETECT_HUNG_TASK (kernel/hung_task.c, the idea
 * only) has khungtaskd look every so often for tasks that have slept
 * uninterruptibly for longer than hung_task_timeout_secs, and print
 * "INFO: task NAME:PID blocked for more than N seconds." with lockdep's
 * list of all locks held in the system.  Here:
 *
 *   each wait  a thread about to sleep on a lock, semaphore or
 *              completion (the slow path only) fills its slot in its
 *              struct kmutex_thread: the lock, its owner field, the
 *              call, the time and its backtrace, then publishes the
 *              wait's number (gen); it clears gen when the wait ends.
 *   monitor    a thread started on the first such wait scans the
 *              threads every min(1 s, N/4) and reports each wait older
 *              than N seconds once.  It reads a slot as a seqlock
 *              reader (gen before and after the copy) and so never
 *              waits for a watched thread.  It takes only lockdep_lock,
 *              with trylock: that lock is held for short checker work
 *              and never across a wait, and if it is busy the monitor
 *              looks again at its next tick.  The monitor takes no
 *              kmutex lock and is not in the thread list.
 *   fork       the child has no monitor: the next wait starts one.
 *
 * The variable is read before main() (a constructor).  Watching costs
 * nothing until it is set (one load per contended wait), then a clock
 * read and a backtrace per contended wait.
 *
 * Not watched: ww_mutex and percpu_rw_semaphore waits (their own slow
 * paths), and waits in a signal handler.
 */
#include "../api.h"

#include <dlfcn.h>
#include <link.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../cpu.h"
#include "debug.h"

/*
 * Set before main() and only read after, yet ThreadSanitizer did not see
 * the constructor's writes as happening before a thread's reads: they
 * are atomics, which it never calls a race.
 */
bool hung_enabled;
static uint64_t timeout_ns, period_ns;
static int monitor_started;	/* 0 no, 1 yes: per process */
static pthread_once_t atfork_once = PTHREAD_ONCE_INIT;

/*
 * The monitor runs until the process ends: the code it runs must stay
 * mapped.  dlclose() of the library (or of a plugin linked with its
 * archive) would unmap it under the monitor (SIGSEGV at its next tick:
 * tests/dlclose_plugin.sh).  Stopping and joining it at the unload
 * cannot be made safe: dlclose() runs destructors holding the dynamic
 * linker's lock, which a report in progress needs (dladdr1() names its
 * frames; found in review).  So with KMUTEX_DEBUG_HUNG set the object
 * that holds this code is pinned (RTLD_NODELETE) and never unloads.
 * Here, in its constructor (inside dlopen(), this thread holds the
 * dynamic linker's lock already; at start-up no other thread exists
 * yet): pinned at the first wait instead, a thread could wait
 * for it while holding a lock that a constructor being run by another
 * thread's dlopen() waits for (found in review).  The program itself
 * (the archive linked in; its link map's name is "") is never unloaded
 * and not looked up: dladdr()'s name for it is argv[0].
 *
 * Return: false if the object could not be pinned (then no monitor may
 * start: it would be unmapped under it).
 */
static bool monitor_pin(void)
{
	struct link_map *map = NULL;
	Dl_info info;
	void *h;

	/*
	 * Not found (a static program: dladdr1() fails there), or the
	 * program itself: the loader cannot unload it either.
	 */
	if (!dladdr1((void *)monitor_pin, &info, (void **)&map,
		     RTLD_DL_LINKMAP) || !map || !map->l_name[0])
		return true;
	h = dlopen(map->l_name, RTLD_LAZY | RTLD_NOLOAD | RTLD_NODELETE);
	dlerror();	/* leave no message for the program to find */
	return h != NULL;
}

/*
 * Read KMUTEX_DEBUG_HUNG once, before main(): from then on the flag is
 * only read, with no atomics that Helgrind or DRD would call a race.
 */
static void __attribute__((constructor)) hung_setup(void)
{
	const char *v = getenv("KMUTEX_DEBUG_HUNG");
	char *end = NULL;
	double s = v ? strtod(v, &end) : 0;
	uint64_t t, p;

	if (!v || end == v || *end || !(s > 0 && s < 1e9))
		return;
	t = (uint64_t)(s * 1e9);
	/* Late by at most a quarter of N, and by 1 s for long N. */
	p = t / 4 < 1000000000u ? t / 4 : 1000000000u;

	__atomic_store_n(&timeout_ns, t, __ATOMIC_RELAXED);
	__atomic_store_n(&period_ns, p < 1000000 ? 1000000 : p,
			 __ATOMIC_RELAXED);
	if (!monitor_pin()) {
		fprintf(stderr, "kmutex-debug: KMUTEX_DEBUG_HUNG ignored: "
			"could not keep the library loaded (dlopen)\n");
		return;
	}
	__atomic_store_n(&hung_enabled, true, __ATOMIC_RELAXED);
}

/* A consistent copy of @t's wait, or false if it changed meanwhile. */
static bool wait_copy(struct kmutex_thread *t, struct hung_wait *w)
{
	struct hung_wait *s = &t->wait;
	uint64_t gen = __atomic_load_n(&s->gen, __ATOMIC_ACQUIRE);
	int i;

	if (!gen)
		return false;
	w->gen = gen;
	w->start_ns = __atomic_load_n(&s->start_ns, __ATOMIC_ACQUIRE);
	w->lock = __atomic_load_n(&s->lock, __ATOMIC_ACQUIRE);
	w->kind = __atomic_load_n(&s->kind, __ATOMIC_ACQUIRE);
	w->name = __atomic_load_n(&s->name, __ATOMIC_ACQUIRE);
	w->site = __atomic_load_n(&s->site, __ATOMIC_ACQUIRE);
	w->owner = __atomic_load_n(&s->owner, __ATOMIC_ACQUIRE);
	w->call = __atomic_load_n(&s->call, __ATOMIC_ACQUIRE);
	w->stack.n = __atomic_load_n(&s->stack.n, __ATOMIC_ACQUIRE);
	if (w->stack.n < 0 || w->stack.n > MAX_STACK)
		return false;
	for (i = 0; i < w->stack.n; i++)
		w->stack.ip[i] = __atomic_load_n(&s->stack.ip[i],
						 __ATOMIC_ACQUIRE);
	/*
	 * The loads above are ACQUIRE (not a fence, which TSan does not
	 * model), so this one cannot come before them.
	 */
	return __atomic_load_n(&s->gen, __ATOMIC_RELAXED) == gen;
}

/* ", held by t/12,\n  by mutex_lock(&m) at f.c:3,\n  in fn+0x1c/0x40" */
static void report_holder(const struct hung_wait *w)
{
	int tid = w->owner ? __atomic_load_n(w->owner, __ATOMIC_RELAXED) : 0;
	struct kmutex_thread *o = tid ? thread_by_tid(tid) : NULL;
	int i, depth;

	if (!tid)
		return;
	rprintf(", held by ");
	report_thread(tid);
	depth = o ? __atomic_load_n(&o->depth, __ATOMIC_ACQUIRE) : 0;
	for (i = 0; i < depth && i < MAX_LOCK_DEPTH; i++)
		if (__atomic_load_n(&o->held[i].obj, __ATOMIC_RELAXED) ==
		    w->lock) {
			report_call(o->held[i].call, o->held[i].ip, "  ");
			break;
		}
}

/* lockdep's debug_show_all_locks(): the threads that hold a lock. */
static void report_all_held(struct kmutex_thread *waiter)
{
	struct kmutex_thread *t;

	rprintf("Showing all locks held in the system:\n");
	for (t = thread_next(NULL); t; t = thread_next(t))
		if (t == waiter ||
		    __atomic_load_n(&t->depth, __ATOMIC_ACQUIRE) > 0)
			report_held_locks(t);
}

/* Under lockdep_lock. */
static void report_hung(struct kmutex_thread *t, const struct hung_wait *w,
			uint64_t now)
{
	uint64_t n = __atomic_load_n(&timeout_ns, __ATOMIC_RELAXED);
	char name[16], title[128], secs[32];

	if (n % 1000000000u == 0)
		snprintf(secs, sizeof(secs), "%lu",
			 (unsigned long)(n / 1000000000u));
	else
		snprintf(secs, sizeof(secs), "%g", (double)n / 1e9);
	thread_name(t->tid, name, sizeof(name));
	snprintf(title, sizeof(title),
		 "INFO: task %s:%d blocked for more than %s seconds.",
		 name[0] ? name : "?", t->tid, secs);
	if (!report_begin(R_HUNG, report_hash((uint64_t)t->tid, w->gen),
			  title))
		return;
	report_thread(t->tid);
	rprintf(" has waited %.1f s, in %s, for the %s:\n  \"%s\" (init at "
		"%s)", (double)(now - w->start_ns) / 1e9,
		w->call ? w->call : "?", w->kind, w->name ? w->name : "?",
		w->site ? w->site : "?");
	report_holder(w);
	rprintf("\n\"KMUTEX_DEBUG_HUNG=%s\" asked for this report (unset it "
		"to stop them).\n\n", getenv("KMUTEX_DEBUG_HUNG"));
	report_all_held(t);
	rprintf("the wait of ");
	report_thread(t->tid);
	rprintf(" started in:\nstack backtrace:\n");
	stack_print(&w->stack, " ");
	report_end();
}

/* One look at every thread's wait. */
static void scan(void)
{
	uint64_t now = now_ns();
	struct kmutex_thread *t;
	struct hung_wait w;

	if (pthread_mutex_trylock(&lockdep_lock))
		return;		/* busy: look again at the next tick */
	for (t = thread_next(NULL); t; t = thread_next(t)) {
		if (!wait_copy(t, &w) ||
		    now - w.start_ns <= __atomic_load_n(&timeout_ns,
							__ATOMIC_RELAXED) ||
		    __atomic_load_n(&t->wait.reported, __ATOMIC_RELAXED) ==
		    w.gen)
			continue;
		__atomic_store_n(&t->wait.reported, w.gen, __ATOMIC_RELAXED);
		report_hung(t, &w, now);
	}
	pthread_mutex_unlock(&lockdep_lock);
}

static void *monitor(void *arg)
{
	uint64_t p = __atomic_load_n(&period_ns, __ATOMIC_RELAXED);
	struct timespec ts = {
		.tv_sec = (time_t)(p / 1000000000u),
		.tv_nsec = (long)(p % 1000000000u),
	};

	pthread_setname_np(pthread_self(), "kmutex-hung");
	for (;;) {
		nanosleep(&ts, NULL);
		scan();
	}
	return arg;
}

static void atfork_child(void)
{
	monitor_started = 0;	/* the monitor thread is not in the child */
}

static void atfork_init(void)
{
	pthread_atfork(NULL, NULL, atfork_child);
}

/*
 * Start the monitor, with every signal blocked: a program's handlers
 * must not run on it (nor take locks there).
 */
static void monitor_start(void)
{
	sigset_t all, old;
	pthread_attr_t attr;
	pthread_t th;

	if (__atomic_exchange_n(&monitor_started, 1, __ATOMIC_ACQ_REL))
		return;
	pthread_once(&atfork_once, atfork_init);
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	if (pthread_create(&th, &attr, monitor, NULL))
		__atomic_store_n(&monitor_started, 0, __ATOMIC_RELAXED);
	pthread_attr_destroy(&attr);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
}

/**
 * hung_begin - the calling thread is about to wait (KMUTEX_DEBUG_HUNG set)
 * @lock: what it waits on
 * @kind: "mutex", "rwsem (read)", "semaphore", "completion" ...
 * @name: the lock's name, as its map has it
 * @site: where it was initialised
 * @owner: its owner tid field, or NULL
 * @call: the waiting call, "mutex_lock(&m) at f.c:3"
 * @ip: that call's return address: the backtrace starts there
 */
void hung_begin(const void *lock, const char *kind, const char *name,
		const char *site, const int *owner, const char *call,
		const void *ip)
{
	struct kmutex_thread *t = lockdep_thread();
	struct hung_wait *w = &t->wait;
	struct kmutex_stack s;
	static __thread uint64_t gens KMUTEX_TLS;
	int i;

	if (lockdep_recursion || lockdep_in_handler)
		return;
	if (!__atomic_load_n(&monitor_started, __ATOMIC_RELAXED))
		monitor_start();
	stack_save(&s, ip);
	/*
	 * gen is 0 already; an ACQUIRE exchange (not a fence, which TSan
	 * does not model) keeps the stores below after it, as a seqlock
	 * writer's barrier does.
	 */
	__atomic_exchange_n(&w->gen, 0, __ATOMIC_ACQ_REL);
	__atomic_store_n(&w->start_ns, now_ns(), __ATOMIC_RELAXED);
	__atomic_store_n(&w->lock, lock, __ATOMIC_RELAXED);
	__atomic_store_n(&w->kind, kind, __ATOMIC_RELAXED);
	__atomic_store_n(&w->name, name, __ATOMIC_RELAXED);
	__atomic_store_n(&w->site, site, __ATOMIC_RELAXED);
	__atomic_store_n(&w->owner, owner, __ATOMIC_RELAXED);
	__atomic_store_n(&w->call, call, __ATOMIC_RELAXED);
	__atomic_store_n(&w->stack.n, s.n, __ATOMIC_RELAXED);
	for (i = 0; i < s.n; i++)
		__atomic_store_n(&w->stack.ip[i], s.ip[i], __ATOMIC_RELAXED);
	/* RELEASE: the fields above before the number that shows them. */
	__atomic_store_n(&w->gen, ++gens, __ATOMIC_RELEASE);
}

/* The wait hung_begin() announced is over. */
void hung_end(void)
{
	struct kmutex_thread *t = lockdep_self;

	if (t && !lockdep_recursion && !lockdep_in_handler)
		__atomic_store_n(&t->wait.gen, 0, __ATOMIC_RELEASE);
}
