// SPDX-License-Identifier: MIT
/*
 * rwsem.c - the slow paths of struct rw_semaphore (count encoding and
 * fast paths: <linux/rwsem.h>).
 *
 * The protocol (modelled in model/rwsem.pml; change the two together):
 *
 *   flags      RWSEM_FLAG_WAITERS is set and cleared only under
 *              wait_lock, and is set exactly while the wait list is
 *              non-empty; with it set, every fast path fails, so a
 *              release with waiters always comes to rwsem_wake_head().
 *              RWSEM_FLAG_HANDOFF (also only under wait_lock) says the
 *              first waiter is a writer, or a reader that has waited
 *              RWSEM_STARVE_NS: nobody may barge in, the lock goes to
 *              that waiter directly.
 *   read       a reader whose fast path failed still carries its bias.
 *              Under wait_lock it keeps it (nothing conflicts any more)
 *              or drops it, queues and calls rwsem_wake_head(): that
 *              call after queueing is what keeps it from sleeping with
 *              nobody left to wake it (the model shows the order of
 *              setting WAITERS and dropping the bias does not matter).
 *   write      a writer spins a little (one spinner at a time) and takes
 *              the lock when it is free, also when others wait (count ==
 *              WAITERS: barging, as the mutex allows), unless HANDOFF;
 *              then under wait_lock tries once more, else queues.
 *   wake       rwsem_wake_head() runs under wait_lock after every change
 *              that may let the head of the queue in (a release, a new
 *              waiter, a waiter leaving).  If the lock is free for the
 *              head, it dequeues the head (the first writer, or the
 *              readers up to the first writer) and wakes it to try again
 *              (WAITER_WOKEN), unless woken waiters have not run yet
 *              (a performance rule: one batch competes at a time; each
 *              loser calls rwsem_wake_head() again, so none is lost).  A
 *              writer at the head, or starving readers, are instead
 *              handed the lock (WAITER_HANDOFF: WRITER_LOCKED or the
 *              readers' biases are set for it).
 *   woken      a woken reader adds its bias and keeps it if no writer
 *              holds the lock and no HANDOFF is pending, even though
 *              waiters queued after it are waiting; a woken writer
 *              (the model's choice; the C code hands writers the lock)
 *              starts over.  One that loses queues again in arrival
 *              order (by ->since), so it keeps its place.
 *   leaving    an interrupted waiter re-checks its state under
 *              wait_lock: a grant that crossed the signal is kept (the
 *              call succeeds); else it leaves and calls
 *              rwsem_wake_head(), passing on any wake-up meant for it.
 *
 * Why wake to try rather than always hand over, as the kernel does:
 * with more threads than CPUs a granted reader holds the lock while it
 * waits for a CPU, so every writer waited for a queue of readers that
 * were not running, and the readers behind it slept in turn (95% reads,
 * 16 threads on 2 CPUs: about one sleep per operation).  Handing over is
 * kept for readers that starve, and for a writer, which is one thread:
 * woken to try, it cleared WAITERS behind it (nobody else queued), the
 * readers came in on their fast paths and kept both CPUs busy, and the
 * writer, woken onto a CPU with a reader running, waited for a scheduler
 * tick.  Handed the lock, it holds it: the readers queue and sleep, and
 * its CPU is free.  Measured (far pair, 95% reads, 4 threads, make
 * bench's rwsem workload, two runs of 27 windows alternated with the
 * build that woke it to try): the longest writer wait in a 0.1 s window
 * passed 1 ms in 9 windows of 54 against 21 (medians 102 and 208 us
 * against 232 and 526), throughput 1.15-1.21x pthread_rwlock_t at 2-16
 * threads against 1.13-1.18x.  The rest are preemptions: a writer
 * preempted in its spin, or a reader holding the lock, waits out the
 * other thread's slice on that CPU (4 ms ticks); spinning 20 reads
 * instead of 200 had as few, and lower throughput at 99.9% reads.
 */
#include "api.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include <linux/rwsem.h>

#include "cpu.h"
#include "list.h"
#include "hooks.h"
#include "wait_lock.h"
#include "waiter.h"

#define WAITER_READER	0
#define WAITER_WRITER	1

#define READERS(c)	((c) >> RWSEM_READER_SHIFT)

/* Reads of count a writer spins for before it queues (as the mutex). */
#define RWSEM_SPINS		200
/* Reads of count a reader waits for a writer to leave before queueing. */
#ifndef RWSEM_READ_SPINS
#define RWSEM_READ_SPINS	100
#endif
/* A reader at the head is handed the lock once it has waited this long. */
#define RWSEM_STARVE_NS		1000000ull

static void __attribute__((noreturn, cold))
rwsem_fatal(struct rw_semaphore *sem, const char *what)
{
	fprintf(stderr, "kmutex: rw_semaphore %p: %s; aborting\n",
		(void *)sem, what);
	abort();
}

static void rwsem_lock(struct rw_semaphore *sem, const char *site)
{
	wait_lock_acquire(&sem->wait_lock);
	wait_list_check(&sem->wait_list, site, "rw_semaphore", sem,
			"DECLARE_RWSEM or init_rwsem");
}

/*
 * A reader's bias set RWSEM_FLAG_READFAIL: more than RWSEM_READERS_MAX
 * readers hold it or are on their way in.  Going on would leave a count
 * that reads as "not held" (a writer would get in beside them).
 */
_Static_assert(RWSEM_READERS_MAX == 8388607, "update the message below");
static void __attribute__((noreturn, cold))
rwsem_too_many_readers(struct rw_semaphore *sem)
{
	rwsem_fatal(sem, "more than 8388607 concurrent readers "
		    "(RWSEM_READERS_MAX, the limit of its 32-bit count)");
}

/* Under wait_lock, or with a bias of our own: the count's readers fit. */
static int rwsem_check_readers(struct rw_semaphore *sem, int c)
{
	if (__kmutex_unlikely(c & RWSEM_FLAG_READFAIL))
		rwsem_too_many_readers(sem);
	return c;
}

static struct kmutex_waiter *rwsem_first(struct rw_semaphore *sem)
{
	return waiter_first(&sem->wait_list);
}

/*
 * RELAXED: read under wait_lock to decide whom to wake; every decision
 * that lets a thread in is an RMW on count (one total order), which
 * rereads it.
 */
static int rwsem_count(struct rw_semaphore *sem)
{
	return __atomic_load_n(&sem->count, __ATOMIC_RELAXED);
}

/* Under wait_lock: queue @w in arrival order (->since). */
static void rwsem_enqueue(struct rw_semaphore *sem, struct kmutex_waiter *w)
{
	struct kmutex_list *pos = sem->wait_list.prev;

	while (pos != &sem->wait_list &&
	       list_entry(pos, struct kmutex_waiter, node)->since > w->since)
		pos = pos->prev;
	waiter_set_state(w, WAITER_SLEEPING);
	waiter_stamp(w, &sem->wait_lock);
	list_add_tail(&w->node, pos->next);
	/* RELAXED: a routing bit (send releasers to the slow path); the
	 * releaser's RMW sees it by count's modification order, and reads
	 * the list under wait_lock.  The flag bits below alike. */
	__atomic_fetch_or(&sem->count, RWSEM_FLAG_WAITERS, __ATOMIC_RELAXED);
}

/*
 * sem->woken counts the readers woken to try that have not run yet in
 * its low 16 bits, and says in the bits above which process counted
 * them: the fork generation (waiter_fork_gen, 15 bits of it).  fork()
 * copies the count of a parent's reader woken but not yet run, a thread
 * the child does not have: the child, seeing another generation, takes
 * the count for 0.  Otherwise it would wait for that reader for ever
 * and leave its own readers asleep on a free lock (found in review).
 */
#define RWSEM_WOKEN_MASK	0xffff

static int rwsem_woken_tag(void)
{
	/* RELAXED: see waiter_stamp(). */
	unsigned int gen = __atomic_load_n(&waiter_fork_gen, __ATOMIC_RELAXED);

	return (int)((gen & 0x7fff) << 16);
}

/* Readers woken to try, in this process, that have not run yet. */
static int rwsem_woken(struct rw_semaphore *sem)
{
	/* RELAXED: see rwsem_wake_head(). */
	int v = __atomic_load_n(&sem->woken, __ATOMIC_RELAXED);

	if ((v & ~RWSEM_WOKEN_MASK) != rwsem_woken_tag())
		return 0;	/* a parent's, before a fork() */
	return v & RWSEM_WOKEN_MASK;
}

/* Under wait_lock: one more reader woken to try. */
static void rwsem_woken_inc(struct rw_semaphore *sem)
{
	int tag = rwsem_woken_tag();
	int v = __atomic_load_n(&sem->woken, __ATOMIC_RELAXED);

	/*
	 * A parent's count: no reader of this process is counted in it,
	 * so none decrements it meanwhile (their increments come here).
	 */
	if ((v & ~RWSEM_WOKEN_MASK) != tag)
		__atomic_store_n(&sem->woken, tag, __ATOMIC_RELAXED);
	__atomic_fetch_add(&sem->woken, 1, __ATOMIC_RELAXED);
}

/* Under wait_lock: dequeue @w, to be woken granted or to try again. */
static void rwsem_dequeue(struct rw_semaphore *sem, struct kmutex_waiter *w,
			  struct wake_q *q, bool grant)
{
	list_del(&w->node);
	/* RELAXED: see rwsem_wake_head()'s read of woken. */
	if (!grant)
		rwsem_woken_inc(sem);
	wake_q_add(q, w, grant ? WAITER_HANDOFF : WAITER_WOKEN);
	if (grant)
		hook_handoff(sem, w->flags & WAITER_READER ? STAT_RWSEM_READ :
			     STAT_RWSEM_WRITE);
}

/*
 * Under wait_lock, the first waiter @w a writer or starving: forbid
 * barging, then hand it the lock if the holders are gone.  Return:
 * false if they are not (the last of them comes back to
 * rwsem_wake_head()).
 */
static bool rwsem_hand_over(struct rw_semaphore *sem, struct kmutex_waiter *w)
{
	/* ACQUIRE (and the CAS's below): the waiter handed the lock must
	 * see the holders' critical sections; it acquires them from us
	 * through its state's RELEASE/ACQUIRE (waiter.h). */
	int c = __atomic_or_fetch(&sem->count, RWSEM_FLAG_HANDOFF,
				  __ATOMIC_ACQUIRE);

	if (w->flags == WAITER_READER) {
		if (c & RWSEM_WRITER_LOCKED)
			return false;
		return true;	/* no writer can get in now: add the biases */
	}
	/* Readers passing a failed fast path may add a bias. */
	do {
		if (c & RWSEM_WRITER_LOCKED || READERS(c))
			return false;
	} while (!__atomic_compare_exchange_n(&sem->count, &c,
			c | RWSEM_WRITER_LOCKED, false, __ATOMIC_ACQUIRE,
			__ATOMIC_RELAXED));
	return true;
}

/* Under wait_lock: let the head of the queue in, or wake it to try. */
static void rwsem_wake_head(struct rw_semaphore *sem, struct wake_q *q)
{
	struct kmutex_waiter *w = rwsem_first(sem);
	int c = rwsem_count(sem);
	bool grant;

	if (!w) {
		if (c & (RWSEM_FLAG_WAITERS | RWSEM_FLAG_HANDOFF))
			__atomic_fetch_and(&sem->count, ~(RWSEM_FLAG_WAITERS |
					   RWSEM_FLAG_HANDOFF), __ATOMIC_RELAXED);
		return;
	}
	grant = w->flags == WAITER_WRITER ||
		now_ns() - w->since >= RWSEM_STARVE_NS;
	if (grant) {
		if (!rwsem_hand_over(sem, w))
			return;
	} else {
		if (c & RWSEM_FLAG_HANDOFF)	/* its starving waiter left */
			__atomic_fetch_and(&sem->count, ~RWSEM_FLAG_HANDOFF,
					   __ATOMIC_RELAXED);
		if (c & RWSEM_WRITER_LOCKED ||
		    (w->flags == WAITER_WRITER && READERS(c)))
			return;		/* the holder comes back here */
		/*
		 * RELAXED: increments are made under wait_lock (we see them
		 * all); the woken decrement theirs outside it, so a stale
		 * value is only too high: a woken thread still to try count,
		 * whose RMW there and the releaser's are totally ordered,
		 * so one of them lets it in.
		 */
		if (rwsem_woken(sem))
			return;		/* they will, win or lose */
	}
	if (w->flags == WAITER_WRITER) {
		rwsem_dequeue(sem, w, q, grant);
	} else {
		do {
			if (grant)	/* ACQUIRE: as in rwsem_hand_over() */
				rwsem_check_readers(sem, __atomic_add_fetch(
					&sem->count, RWSEM_READER_BIAS,
					__ATOMIC_ACQUIRE));
			rwsem_dequeue(sem, w, q, grant);
			w = rwsem_first(sem);
#if KMUTEX_BUSTED == 4
			/* Deliberately broken build: one reader at a time,
			 * the others dequeued but left asleep. */
			if (w && w->flags == WAITER_READER) {
				list_del(&w->node);
				w = rwsem_first(sem);
			}
#endif
		} while (w && w->flags == WAITER_READER);
	}
	if (list_empty(&sem->wait_list))
		__atomic_fetch_and(&sem->count, ~RWSEM_FLAG_WAITERS,
				   __ATOMIC_RELAXED);
	if (grant)
		__atomic_fetch_and(&sem->count, ~RWSEM_FLAG_HANDOFF,
				   __ATOMIC_RELAXED);
}

/* Release wait_lock, then wake the threads rwsem_wake_head() chose. */
static void rwsem_unlock_and_wake(struct rw_semaphore *sem, struct wake_q *q)
{
	wait_lock_release(&sem->wait_lock);
	wake_q_wake(q);
}

/*
 * Queue @w (wait_lock held), let in what can go, sleep.  Return: 0 if
 * handed the lock, 1 if woken to try again, -EINTR if interrupted.
 */
static int rwsem_wait(struct rw_semaphore *sem, struct kmutex_waiter *w,
		      int intr)
{
	struct wake_q q = { 0 };
	int ret, state;

	rwsem_enqueue(sem, w);
	rwsem_wake_head(sem, &q);
	rwsem_unlock_and_wake(sem, &q);

	ret = waiter_sleep(w, intr, NULL);
	state = waiter_state(w);
	if (ret == 0 && state == WAITER_WOKEN) {
		/* RELAXED: see rwsem_wake_head()'s read of woken. */
		__atomic_fetch_sub(&sem->woken, 1, __ATOMIC_RELAXED);
		return 1;
	}
	if (ret == 0)
		return 0;
	wait_lock_acquire(&sem->wait_lock);
	state = waiter_state(w);
	if (state == WAITER_HANDOFF) {
		ret = 0;	/* granted as the signal came: keep it */
	} else {
		if (state == WAITER_WOKEN)
			__atomic_fetch_sub(&sem->woken, 1, __ATOMIC_RELAXED);
		else
			list_del(&w->node);
		/* Pass on what it leaves: the head may go now. */
		rwsem_wake_head(sem, &q);
	}
	rwsem_unlock_and_wake(sem, &q);
	return ret;
}

/**
 * rwsem_down_read_slow - down_read() when its fast path failed
 * @sem: the rwsem; the caller's reader bias is already in count
 * @intr: whether a signal handler ends the wait (-EINTR)
 *
 * Return: 0 with a read lock held, or -EINTR.
 */
/*
 * A reader that found a writer in, with nobody queued: wait a little for
 * the writer to leave instead of queueing and sleeping.  Its bias is
 * already counted, so the read of count that shows neither a writer nor
 * a waiter is the moment it holds the lock, exactly as if its fast path
 * had succeeded then.  A write section is short; a sleep and its
 * wake-up are two system calls (~1 us each on the machines measured).
 * WAITERS means someone queued (a writer, whom readers must not pass):
 * then it queues too.
 */
static bool rwsem_read_spin(struct rw_semaphore *sem)
{
	int i, c;

	for (i = 0; i < RWSEM_READ_SPINS; i++) {
		/* Acquire: pairs with the writer's release of the lock. */
		c = __atomic_load_n(&sem->count, __ATOMIC_ACQUIRE);
		if (c & (RWSEM_FLAG_WAITERS | RWSEM_FLAG_READFAIL))
			return false;
		if (!(c & RWSEM_WRITER_LOCKED))
			return true;
		cpu_relax();
	}
	return false;
}

static int rwsem_down_read_slow(struct rw_semaphore *sem, int intr)
{
	struct kmutex_waiter w WAITER_SCOPE;
	/* What keeps it out: once woken, waiters queued later do not. */
	int conflict = RWSEM_WRITER_LOCKED | RWSEM_FLAG_WAITERS;
	int ret, c;

	if (RWSEM_READ_SPINS && rwsem_read_spin(sem))
		return 0;	/* keep our bias */
	waiter_init(&w, WAITER_READER);
	for (;;) {
		rwsem_lock(sem, "down_read");
		/* ACQUIRE: we may keep our bias and go in on this read. */
		c = __atomic_load_n(&sem->count, __ATOMIC_ACQUIRE);
		rwsem_check_readers(sem, c);
		if (!(c & conflict)) {
			wait_lock_release(&sem->wait_lock);
			return 0;	/* keep our bias */
		}
		__atomic_fetch_or(&sem->count, RWSEM_FLAG_WAITERS,
				  __ATOMIC_RELAXED);
		/* RELAXED: our bias leaves; we held nothing under it. */
		__atomic_fetch_sub(&sem->count, RWSEM_READER_BIAS,
				   __ATOMIC_RELAXED);
		if (conflict & RWSEM_FLAG_WAITERS)
			w.since = now_ns();
		ret = rwsem_wait(sem, &w, intr);
		if (ret <= 0)
			return ret;
		conflict = RWSEM_WRITER_LOCKED | RWSEM_FLAG_HANDOFF;
		/* ACQUIRE pairs with the writer's RELEASE, as the fast path. */
		c = rwsem_check_readers(sem, __atomic_add_fetch(&sem->count,
				RWSEM_READER_BIAS, __ATOMIC_ACQUIRE));
#if KMUTEX_BUSTED == 3
		/* Deliberately broken build: now and then ignore a writer. */
		static unsigned int busted;

		if (__atomic_fetch_add(&busted, 1, __ATOMIC_RELAXED) % 8 == 7)
			return 0;
#endif
		if (!(c & conflict))
			return 0;
	}
}

/* Take it for writing if it is free, waiters or not, unless HANDOFF. */
static bool rwsem_write_try(struct rw_semaphore *sem)
{
	int c = rwsem_count(sem);

	while (!(c & ~RWSEM_FLAG_WAITERS))
		if (__atomic_compare_exchange_n(&sem->count, &c,
				c | RWSEM_WRITER_LOCKED, false,
				__ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
			return true;
	return false;
}

/*
 * Spin a little for the holders to leave: a writer that sleeps makes
 * every reader after it queue, so a short wait is worth spinning for.
 */
static bool rwsem_write_spin(struct rw_semaphore *sem)
{
	bool got = false;
	int i;

	if (!spinner_claim(&sem->spinner))
		return false;
	for (i = 0; i < RWSEM_SPINS; i++) {
		if (rwsem_write_try(sem)) {
			got = true;
			break;
		}
		if (rwsem_count(sem) & RWSEM_FLAG_HANDOFF)
			break;	/* it goes to the first waiter */
		cpu_relax();
	}
	spinner_release(&sem->spinner);
	return got;
}

/**
 * rwsem_down_write_slow - down_write() when its fast path failed
 * @sem: the rwsem
 * @intr: whether a signal handler ends the wait (-EINTR)
 *
 * Return: 0 with the write lock held, or -EINTR.
 */
static int rwsem_down_write_slow(struct rw_semaphore *sem, int intr)
{
	struct kmutex_waiter w WAITER_SCOPE;
	int ret;

	waiter_init(&w, WAITER_WRITER);
	w.since = now_ns();
	do {
		if (rwsem_write_spin(sem))
			return 0;
		rwsem_lock(sem, "down_write");
		if (rwsem_write_try(sem)) {
			wait_lock_release(&sem->wait_lock);
			return 0;
		}
		ret = rwsem_wait(sem, &w, intr);
	} while (ret == 1);
	return ret;
}

/**
 * kmutex_rwsem_wake - the slow path of up_read(), up_write() and
 *	downgrade_write()
 * @sem: the rwsem
 * @op: which release (__KMUTEX_RWSEM_UP_READ, _UP_WRITE, _DOWNGRADE)
 *
 * Clears the writer bit for up_write(), then lets the head of the queue
 * in.  A release of a rwsem not held that way aborts with a message:
 * going on would let readers and writers in together.
 */
KMUTEX_API void kmutex_rwsem_wake(struct rw_semaphore *sem, int op)
{
	struct wake_q q = { 0 };
	/* RELAXED: misuse checks of the caller's own hold. */
	int c = __atomic_load_n(&sem->count, __ATOMIC_RELAXED);

	/* From 0: flags less one bias; a count past the readers' limit
	 * (another reader about to abort) is far more negative. */
	if (op == __KMUTEX_RWSEM_UP_READ && c < INT_MIN / 2)
		rwsem_too_many_readers(sem);
	if (op == __KMUTEX_RWSEM_UP_READ && c < 0)
		rwsem_fatal(sem, "up_read() without a read lock held");
	if (op == __KMUTEX_RWSEM_DOWNGRADE && (c & RWSEM_WRITER_LOCKED))
		rwsem_fatal(sem, "downgrade_write() without the write lock");
	if (op == __KMUTEX_RWSEM_UP_WRITE && !(c & RWSEM_WRITER_LOCKED))
		rwsem_fatal(sem, "up_write() without the write lock");
	rwsem_lock(sem, op == __KMUTEX_RWSEM_UP_READ ? "up_read" :
			op == __KMUTEX_RWSEM_UP_WRITE ? "up_write" :
			"downgrade_write");
	/* RELEASE pairs with the next holder's ACQUIRE on count. */
	if (op == __KMUTEX_RWSEM_UP_WRITE)
		__atomic_fetch_and(&sem->count, ~RWSEM_WRITER_LOCKED,
				   __ATOMIC_RELEASE);
	rwsem_wake_head(sem, &q);
	rwsem_unlock_and_wake(sem, &q);
}

/**
 * kmutex_down_read_slowpath - down_read() when its fast path failed
 * @sem: the rwsem; the caller's reader bias is already in count
 * @intr: whether a signal handler ends the wait (-EINTR)
 *
 * rwsem_down_read_slow(), counted by the lock statistics (stat.h).
 * Return: 0 with the read lock held, or -EINTR.
 */
KMUTEX_API int kmutex_down_read_slowpath(struct rw_semaphore *sem, int intr)
{
	return HOOK_WAIT(sem, STAT_RWSEM_READ, rwsem_down_read_slow(sem, intr));
}

/**
 * kmutex_down_write_slowpath - down_write() when its fast path failed
 * @sem: the rwsem
 * @intr: whether a signal handler ends the wait (-EINTR)
 *
 * rwsem_down_write_slow(), counted by the lock statistics (stat.h).
 * Return: 0 with the write lock held, or -EINTR.
 */
KMUTEX_API int kmutex_down_write_slowpath(struct rw_semaphore *sem, int intr)
{
	return HOOK_WAIT(sem, STAT_RWSEM_WRITE,
			 rwsem_down_write_slow(sem, intr));
}
