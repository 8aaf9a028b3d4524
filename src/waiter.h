/* SPDX-License-Identifier: MIT */
/*
 * waiter.h - a thread waiting on a kmutex wait list.
 *
 * Each waiter is a node on its own stack with its own futex word, so a
 * wake-up reaches exactly one thread (no thundering herd) and carries a
 * message: "try again" or "it is yours" (a handoff or grant).
 */
#ifndef _KMUTEX_SRC_WAITER_H
#define _KMUTEX_SRC_WAITER_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>
#include <kmutex/list.h>
#include "valgrind.h"
#include "tls.h"

enum waiter_state {
	WAITER_SLEEPING = 0,	/* queued; nobody has woken it */
	WAITER_WOKEN = 1,	/* woken to compete for the lock */
	WAITER_HANDOFF = 2,	/* woken owning what it waited for */
};

struct kmutex_waiter {
	struct kmutex_list node;	/* on the lock's wait_list */
	int state;			/* enum waiter_state; futex word */
	int want_handoff;		/* starved: next unlock hands it over */
	int flags;			/* per-primitive (rwsem: reader/writer) */
	uint64_t since;			/* when it queued, ns, CLOCK_MONOTONIC */
	unsigned int fork_gen;		/* waiter_fork_gen when it queued */
	unsigned int size;		/* of the struct it heads (ww_mutex) */
	unsigned long thread;		/* waiter_thread_id() of its thread */
	struct kmutex_waiter *outer;	/* the wait a signal handler's
					 * wait interrupted (waiter_stamp()) */
	int *wl;			/* the wait_lock of its list */
	bool ghost;			/* a fork() child's heap copy */
};

/*
 * Set up @w, a waiter on the caller's stack, as not yet queued and
 * WAITER_SLEEPING.  Helgrind and DRD are told to ignore it before its
 * first write: a late wake-up (waiter_futex_wake()) may read the slot
 * an earlier waiter left, and they would report that read against this
 * write.
 */
static inline void waiter_init(struct kmutex_waiter *w, int flags)
{
	vg_hook(vg_ignore_waiter(w));
	*w = (struct kmutex_waiter){ .flags = flags, .size = sizeof(*w) };
}

/*
 * fork() copies the wait lists with the nodes of the parent's waiting
 * threads, which do not exist in the child; nobody there would ever
 * take them off.  The child's fork counter moves on (pthread_atfork),
 * and the slow paths drop any node queued before it (waiter_first()).
 */
extern unsigned int waiter_fork_gen;

/*
 * A number per thread, given at its first wait, never given twice in a
 * process and its fork() children (not the address of a thread-local:
 * a thread created in a child may get the stack, and the thread-locals,
 * of a parent's thread; found in review); and that of the thread that
 * forked this process (0 in the first process).  The forking thread's
 * own waiter is not a parent's: fork() is allowed in a signal handler,
 * also one that interrupted a wait (found in review: the child dropped
 * the forking thread's node, lost its wake-up and unlinked it twice).
 */
extern unsigned long waiter_forker;

/*
 * A thread that has waited: its number and its wait in progress, on the
 * process's list of them (waiter.c), so that a fork() child can find
 * the parent's nodes before it runs any thread of its own.  glibc gives
 * the threads a child creates the stacks of the parent's, where those
 * nodes live: the child's first locker read the parent's nodes through
 * whatever its threads had written there (found by CI: a SIGSEGV).
 * The child copies them to the heap first (waiter_fork_child()).
 */
struct waiter_thread {
	unsigned long id;
	bool listed;			/* on waiter_threads */
	struct kmutex_waiter *waiting;	/* innermost, queued or not */
	struct waiter_thread *next;	/* on waiter_threads */
	struct waiter_thread **pprev;
};

extern __thread struct waiter_thread waiter_me
	KMUTEX_TLS;
unsigned long waiter_new_thread_id(void);

static inline unsigned long waiter_thread_id(void)
{
	unsigned long id = waiter_me.id;

	return __builtin_expect(id != 0, 1) ? id : waiter_new_thread_id();
}

/*
 * Stamp @w as queued now, in this process, by this thread, on the list
 * that @wl guards, and make it this thread's wait in progress, before
 * it is queued.  A waiter queued again (rwsem) is so already.  The
 * signal fences keep the stores in order against a handler of this
 * thread that forks.
 */
static inline void waiter_stamp(struct kmutex_waiter *w, int *wl)
{
	/*
	 * The number first: a handler's fork() in between makes this
	 * thread the child's forker by the number it has then, and the
	 * generation read after is the child's (found in review).
	 */
	w->thread = waiter_thread_id();
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	/* RELAXED: only a fork() child's one thread writes it (waiter.c). */
	w->fork_gen = __atomic_load_n(&waiter_fork_gen, __ATOMIC_RELAXED);
	w->wl = wl;
	if (waiter_me.waiting != w) {
		w->outer = waiter_me.waiting;
		__atomic_signal_fence(__ATOMIC_SEQ_CST);
		waiter_me.waiting = w;
		__atomic_signal_fence(__ATOMIC_SEQ_CST);
	}
}

/*
 * The end of @w's scope (__attribute__((cleanup)), WAITER_SCOPE): it is
 * no longer this thread's wait.  @w may never have been set up: only
 * its address is compared then.
 */
static inline void waiter_done(struct kmutex_waiter *w)
{
	if (waiter_me.waiting == w)
		waiter_me.waiting = w->outer;
}

/* A waiter on the stack, this thread's wait until its scope ends. */
#define WAITER_SCOPE __attribute__((cleanup(waiter_done)))

/*
 * Whether @w, queued, is a node of a thread this process does not have:
 * queued before the last fork(), by another thread than the one that
 * forked.  @gen: waiter_fork_gen.
 */
static inline bool waiter_is_stale(const struct kmutex_waiter *w,
				   unsigned int gen)
{
	return w->fork_gen != gen && w->thread != waiter_forker;
}

bool waiter_stale(struct kmutex_waiter *w);
bool waiter_purge(struct kmutex_list *head);
struct kmutex_waiter *waiter_first(struct kmutex_list *head);

/*
 * The waker's RELEASE (WOKEN, HANDOFF: a lock or unit handed over) pairs
 * with the sleeper's ACQUIRE read after futex_wait(): a thread handed a
 * lock sees the last owner's critical section, whose RELEASE the waker
 * acquired (on count, or through wait_lock) before it handed over.
 */
static inline int waiter_state(struct kmutex_waiter *w)
{
	return __atomic_load_n(&w->state, __ATOMIC_ACQUIRE);
}

static inline void waiter_set_state(struct kmutex_waiter *w, int state)
{
	__atomic_store_n(&w->state, state, __ATOMIC_RELEASE);
}

/*
 * A batch of wake-ups to do once the wait list's lock is released (the
 * kernel's wake_q idea).  It keeps futex word addresses, never the
 * waiters: a waiter told WAITER_HANDOFF may return at once and its node
 * be gone.  Past WAKE_Q_SIZE the wake is done at once, under the lock.
 */
#define WAKE_Q_SIZE 16
struct wake_q {
	int n;
	int *words[WAKE_Q_SIZE];
};

void wake_q_add(struct wake_q *q, struct kmutex_waiter *w, int state);
void wake_q_grant(struct wake_q *q, struct kmutex_waiter *w);
void wake_q_wake(struct wake_q *q);

int waiter_sleep(struct kmutex_waiter *w, bool intr,
		 const struct timespec *deadline);
void waiter_wake(struct kmutex_waiter *w);

void __attribute__((noreturn, cold))
wait_list_fatal(const char *site, const char *kind, const void *obj,
		const char *init);

/*
 * Called under wait_lock, where the list is written: zeroed memory
 * (never initialised) has a NULL list head, which the slow paths would
 * follow into a crash far from the cause.  Say what happened instead.
 */
static inline void wait_list_check(struct kmutex_list *head, const char *site,
				   const char *kind, const void *obj,
				   const char *init)
{
	if (__builtin_expect(head->next == NULL, 0))
		wait_list_fatal(site, kind, obj, init);
}

/* Absolute CLOCK_MONOTONIC deadline @ms milliseconds from now. */
struct timespec deadline_after_ms(long ms);
/* Milliseconds left until @deadline, at least 0. */
long ms_until(const struct timespec *deadline);

#endif /* _KMUTEX_SRC_WAITER_H */
