// SPDX-License-Identifier: MIT
/*
 * waiter.c - sleeping and waking one waiter (see waiter.h).
 */
#include "api.h"

#include <errno.h>
#include <signal.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kmutex/tsan.h>

#include "futex.h"
#include "list.h"
#include "hooks.h"
#include "valgrind.h"
#include "waiter.h"

/**
 * waiter_sleep - sleep until someone changes w->state
 * @w: the calling thread's waiter, queued on a wait list
 * @intr: whether a signal handler ends the wait
 * @deadline: absolute CLOCK_MONOTONIC time at which to give up, or NULL
 *
 * Return: 0 once w->state is no longer WAITER_SLEEPING, -EINTR if @intr
 * and a signal handler ran in this thread, -ETIMEDOUT at @deadline.  On
 * an error the caller must re-check w->state under its wait_lock: a
 * wake-up may have crossed the signal or the timeout.
 */
int waiter_sleep(struct kmutex_waiter *w, bool intr,
		 const struct timespec *deadline)
{
	while (waiter_state(w) == WAITER_SLEEPING) {
		int ret;

		hook_sleep();
		if (!intr && !deadline) {
			futex_wait(&w->state, WAITER_SLEEPING);
			continue;
		}
		ret = futex_wait_intr(&w->state, WAITER_SLEEPING, deadline);
		if (ret == -ETIMEDOUT || (ret == -EINTR && intr))
			return ret;
	}
	return 0;
}

/*
 * A wake-up sent after the waiter was told its new state: the word may
 * be on the stack of a waiter that has returned (see waiter_wake()).
 * FUTEX_WAKE only hashes the address, but Valgrind checks the word as
 * if the call read it: memcheck finds it uninitialised, Helgrind a racy
 * read.  Quiet them for this one call.  Helgrind and DRD still record
 * the read; the next waiter in that stack slot hides itself before its
 * first write (waiter_init()), so it is not reported there later.
 */
static void waiter_futex_wake(int *word)
{
	vg_quiet(true);
	futex_wake(word, 1);
	vg_quiet(false);
}

/**
 * waiter_wake - wake a waiter whose state was just changed
 * @w: a waiter; the caller stored its new state under the wait list's
 *	lock and has released that lock since
 *
 * Waking outside the lock spares the woken thread from blocking on it at
 * once (the kernel's wake_q does the same).  By now @w may have seen its
 * new state and returned, its stack reused: the futex_wake() may then hit
 * an unrelated word, a spurious wake-up that every futex waiter must
 * tolerate (kmutex's own waiters loop on their state).
 */
void waiter_wake(struct kmutex_waiter *w)
{
	waiter_futex_wake(&w->state);
}

/**
 * wake_q_add - tell a dequeued waiter its new state, wake it later
 * @q: the batch of wake-ups of this release
 * @w: the waiter, already unlinked, under the wait list's lock
 * @state: WAITER_HANDOFF (it got what it waited for) or WAITER_WOKEN
 *	(it is to try again)
 *
 * Nothing of @w may be touched after this: it may return at once.
 */
void wake_q_add(struct wake_q *q, struct kmutex_waiter *w, int state)
{
	waiter_set_state(w, state);
	if (q->n < WAKE_Q_SIZE)
		q->words[q->n++] = &w->state;
	else
		waiter_futex_wake(&w->state);
}

/**
 * wake_q_grant - tell a dequeued waiter it got what it waited for
 * @q: the batch of wake-ups of this release
 * @w: the waiter, already unlinked, under the wait list's lock
 */
void wake_q_grant(struct wake_q *q, struct kmutex_waiter *w)
{
	wake_q_add(q, w, WAITER_HANDOFF);
}

/**
 * wake_q_wake - do the wake-ups of a batch
 * @q: the batch, filled under a lock that is now released
 */
void wake_q_wake(struct wake_q *q)
{
	int i;

	for (i = 0; i < q->n; i++)
		waiter_futex_wake(q->words[i]);
	q->n = 0;
}

unsigned int waiter_fork_gen;
__thread struct waiter_thread waiter_me
	KMUTEX_TLS;
unsigned long waiter_forker;
static unsigned long waiter_thread_ids;

/*
 * The threads that have waited, newest first.  Threads join and leave
 * under waiter_threads_lock, with their signals blocked, and with single
 * stores that keep the chain of next pointers whole at every instant: a
 * fork() child walks it without the lock, which another thread may have
 * held at the fork.  Closed when the library is unloaded or the process
 * exits (waiter_teardown()).
 */
static struct waiter_thread *waiter_threads;
static pthread_mutex_t waiter_threads_lock = PTHREAD_MUTEX_INITIALIZER;
static bool waiter_closed;
static pthread_key_t waiter_exit_key;
static bool waiter_have_key;
static pthread_once_t waiter_key_once = PTHREAD_ONCE_INIT;

/*
 * Only with glibc, whose stack cache hands the parent's threads' stacks
 * to the child's new threads; musl unmaps a thread's stack when it ends
 * and never reuses a stack the child inherits, so the nodes stay intact
 * there.  Not under ThreadSanitizer, which does not support fork() in a
 * threaded process (the fork tests are skipped there): it takes a
 * thread's thread-locals, where the list's links are, for written at
 * the thread's start unordered with the other threads, and reported
 * every unlink by another thread as a race (found by CI).
 */
#if defined(__GLIBC__) && !defined(KMUTEX_TSAN)
#define WAITER_LISTS_THREADS true
#else
#define WAITER_LISTS_THREADS false
#endif

/*
 * The list changes with the thread's signals blocked (found in review):
 * a handler's wait while this thread lists itself would list it twice;
 * a handler's fork() in the child numbers the thread and resets the
 * list (waiter_fork_child()), which the interrupted code must not
 * undo; a handler that blocks while this thread holds the list's lock
 * would stall every other thread's first wait.
 */
static void waiter_block_signals(sigset_t *old)
{
	sigset_t all;

	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, old);
}

static void waiter_threads_lock_all(sigset_t *old)
{
	waiter_block_signals(old);
	pthread_mutex_lock(&waiter_threads_lock);
}

static void waiter_threads_unlock_all(const sigset_t *old)
{
	pthread_mutex_unlock(&waiter_threads_lock);
	pthread_sigmask(SIG_SETMASK, old, NULL);
}

static void waiter_threads_add(struct waiter_thread *t)
{
	t->next = waiter_threads;
	t->pprev = &waiter_threads;
	if (t->next)
		t->next->pprev = &t->next;
	t->listed = true;
	__atomic_store_n(&waiter_threads, t, __ATOMIC_RELEASE);
}

/*
 * A thread's exit (its pthread key's destructor): glibc gives its stack
 * and thread-locals to a later thread, which must find them unlisted.
 * It keeps its number: a wait in a later destructor does not list it
 * again (found in review: nothing would unlist it a second time).
 */
static void waiter_thread_exit(void *arg)
{
	struct waiter_thread *t = arg;
	sigset_t old;

	waiter_threads_lock_all(&old);
	if (t->listed && !waiter_closed) {
		__atomic_store_n(t->pprev, t->next, __ATOMIC_RELEASE);
		if (t->next)
			t->next->pprev = t->pprev;
		t->listed = false;
	}
	waiter_threads_unlock_all(&old);
}

/* Once, at the first wait: a C++ static initialiser may wait before
 * the library's constructors have run (found in review). */
static void waiter_key_create(void)
{
	waiter_have_key = !pthread_key_create(&waiter_exit_key,
					      waiter_thread_exit);
}

/*
 * This thread's first wait: its number (see waiter_thread_id()), and
 * its place on the list, only with its key set, so that its exit
 * unlists it.  Once per thread: the cost does not count.
 */
unsigned long waiter_new_thread_id(void)
{
	unsigned long id;
	sigset_t old;

	waiter_block_signals(&old);
	/* Blocked too: a handler's first wait would call it again. */
	pthread_once(&waiter_key_once, waiter_key_create);
	pthread_mutex_lock(&waiter_threads_lock);
	id = waiter_me.id;	/* a handler's wait or fork() may have */
	if (!id) {
		id = __atomic_add_fetch(&waiter_thread_ids, 1,
					__ATOMIC_RELAXED);
		if (WAITER_LISTS_THREADS && waiter_have_key && !waiter_closed &&
		    pthread_setspecific(waiter_exit_key, &waiter_me) == 0)
			waiter_threads_add(&waiter_me);
		waiter_me.id = id;
	}
	waiter_threads_unlock_all(&old);
	return id;
}

/*
 * In the child, copy @w, a node of a parent's thread, to the heap and
 * put the copy in its place on its wait list: the child's threads will
 * write over the original (see struct waiter_thread).  The copy is
 * freed when a slow path drops it (waiter_stale()).  Without memory
 * the node stays where it is, read as before.
 *
 * Not when the list's wait_lock was held at the fork: by another
 * thread, the lock is lost in the child anyway; by this one (a handler
 * that forks), a list operation may be under way in the code the
 * handler interrupted, which would go on in the child with the
 * original nodes (found in review: a broken list).
 */
static void waiter_ghost(struct kmutex_waiter *w)
{
	struct kmutex_waiter *g;

	if (!w->node.next)
		return;		/* not queued: not yet, or no longer */
	if (__atomic_load_n(w->wl, __ATOMIC_RELAXED))
		return;
	g = malloc(w->size);
	if (!g)
		return;
	memcpy(g, w, w->size);
	g->ghost = true;
	g->node.prev->next = &g->node;
	g->node.next->prev = &g->node;
}

/*
 * In the child, run by the thread that forked (the child has no other:
 * no atomics), before it can start any.  Its own waiters stay live: the
 * same thread waits on in the child.  The other threads' go to the
 * heap, and only this thread stays listed.
 *
 * With its signals blocked: a handler's up() or complete() in the
 * child would drop a half-spliced copy, or take this thread's own node
 * for a parent's between the two stores below (found in review).  A
 * thread that never waited is number 0, which no node has: no
 * pthread_once() here, which musl leaves running in a child forked
 * while another thread ran it (found in review).
 */
static void waiter_fork_child(void)
{
	struct waiter_thread *t;
	struct kmutex_waiter *w;
	sigset_t old;

	waiter_block_signals(&old);
	waiter_forker = waiter_me.id;
	waiter_fork_gen++;
	for (t = waiter_threads; t; t = t->next) {
		if (t == &waiter_me)
			continue;
		for (w = t->waiting; w; w = w->outer)
			waiter_ghost(w);
	}
	/* A parent's thread may have held it at the fork. */
	waiter_threads_lock = (pthread_mutex_t)PTHREAD_MUTEX_INITIALIZER;
	waiter_threads = NULL;
	if (waiter_me.listed) {
		waiter_me.next = NULL;
		waiter_me.pprev = &waiter_threads;
		waiter_threads = &waiter_me;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
}

static void __attribute__((constructor)) waiter_fork_setup(void)
{
	pthread_atfork(NULL, NULL, waiter_fork_child);
}

/*
 * dlclose() of the library (or of a plugin linked with its archive)
 * drops the atfork handler but not the key, whose destructor would run
 * at the next thread exit in unmapped code (found in review).  At
 * exit() other threads may still run, and exit: unlisted no more, they
 * could leave their entries to the threads that get their stacks, so
 * the list closes first (found in review).
 */
static void __attribute__((destructor)) waiter_teardown(void)
{
	sigset_t old;

	waiter_threads_lock_all(&old);
	waiter_closed = true;
	__atomic_store_n(&waiter_threads, NULL, __ATOMIC_RELEASE);
	waiter_threads_unlock_all(&old);
	if (waiter_have_key)
		pthread_key_delete(waiter_exit_key);
}

/**
 * waiter_stale - drop one node that a fork() copied from the parent
 * @w: a node of a thread this process does not have, on a wait list
 *	whose lock the caller holds
 *
 * Return: whether it had been handed what it waited for (WAITER_HANDOFF)
 * and had not run since: a lock handed to it has no owner here.
 */
bool waiter_stale(struct kmutex_waiter *w)
{
	bool handed = waiter_state(w) == WAITER_HANDOFF;

	list_del(&w->node);
	if (w->ghost)
		free(w);
	return handed;
}

/**
 * waiter_purge - drop the nodes a fork() copied from the parent
 * @head: the wait list, under its lock
 *
 * Nodes of threads the child does not have sit at the front, since every
 * waiter of the child queues after them, but for the forking thread's
 * own (waiter_is_stale()): those behind it go when it has left.  Their
 * memory (the parent threads' stacks) is still mapped in the child.
 *
 * Return: whether one of them had been handed the lock (waiter_stale()).
 */
bool waiter_purge(struct kmutex_list *head)
{
	struct kmutex_waiter *w;
	/* RELAXED: see waiter_stamp(). */
	unsigned int gen = __atomic_load_n(&waiter_fork_gen, __ATOMIC_RELAXED);
	bool handed = false;

	while ((w = list_first_entry_or_null(head, struct kmutex_waiter,
					     node)) && waiter_is_stale(w, gen))
		handed |= waiter_stale(w);
	return handed;
}

/**
 * waiter_first - the first waiter of a wait list, under its lock
 * @head: the wait list
 *
 * Drops the nodes of a fork()'s parent on the way (waiter_purge()).
 *
 * Return: the first waiter of this process, or NULL.
 */
struct kmutex_waiter *waiter_first(struct kmutex_list *head)
{
	waiter_purge(head);
	return list_first_entry_or_null(head, struct kmutex_waiter, node);
}

/**
 * wait_list_fatal - abort on a lock object that was never initialised
 * @site: the call that found it, e.g. "down"
 * @kind: "semaphore", "completion", "rw_semaphore"
 * @obj: the object
 * @init: how to initialise it, for the message
 */
void wait_list_fatal(const char *site, const char *kind, const void *obj,
		     const char *init)
{
	fprintf(stderr, "kmutex: %s: %s %p was never initialised (use %s); "
		"aborting\n", site, kind, obj, init);
	abort();
}

struct timespec deadline_after_ms(long ms)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	if (ms < 0)
		ms = 0;
	ts.tv_sec += ms / 1000;
	ts.tv_nsec += (ms % 1000) * 1000000;
	if (ts.tv_nsec >= 1000000000) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000;
	}
	return ts;
}

long ms_until(const struct timespec *deadline)
{
	struct timespec now;
	long s, ns;

	/* In seconds and ns apart: ns alone overflows past 292 years. */
	clock_gettime(CLOCK_MONOTONIC, &now);
	s = deadline->tv_sec - now.tv_sec;
	ns = deadline->tv_nsec - now.tv_nsec;
	if (ns < 0) {
		s--;
		ns += 1000000000;
	}
	if (s < 0)
		return 0;
	return s * 1000 + (ns + 999999) / 1000000;
}
