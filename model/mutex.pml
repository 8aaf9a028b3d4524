/*
 * model/mutex.pml - Promela model of kmutex's struct mutex protocol.
 *
 * Change together with src/mutex.c and include/linux/mutex.h: this file
 * is only worth something while it says what the C code does.  Run it
 * with model/check (spin -a, gcc, ./pan); model/README.md says what is
 * proven and what is abstracted.
 *
 * What it models, and where each part is in the C code:
 *
 *   count            struct mutex .count: 1 free, 0 held, -1 held and
 *                    the wait list may be non-empty.  Every C atomic on
 *                    it (CAS, xchg, store) is one Promela step.
 *   fast paths       <linux/mutex.h>: __kmutex_mutex_trylock_fast()
 *                    (CAS 1 -> 0, used by mutex_lock() and
 *                    mutex_lock_interruptible()) and
 *                    __kmutex_mutex_unlock() (CAS 0 -> 1).
 *   spinning         mutex_spin(): the .spinner flag, then reads of
 *                    count, a CAS 1 -> 0 when one reads 1, and a give-up
 *                    after any number of reads (MUTEX_SPINS, here
 *                    nondeterministic), also while others sleep.
 *   wait_lock        src/wait_lock.[ch], a correct three-state futex
 *                    lock, abstracted to a plain lock word (wl): only
 *                    its mutual exclusion matters to this protocol.
 *   wait_list        .wait_list, a FIFO of waiter ids q[0..qlen-1].
 *   waiters          struct kmutex_waiter (src/waiter.h): state
 *                    (SLEEPING/WOKEN/HANDOFF), want_handoff, and flags
 *                    (timed[]: a timed first waiter, below).
 *   futex            waiter_sleep()/waiter_wake() (src/waiter.c) on
 *                    futex(2) (src/futex.h).  fq[t] is "thread t is
 *                    queued in the kernel on its futex word": FUTEX_WAIT
 *                    compares the word and queues in one step, blocks
 *                    until a FUTEX_WAKE dequeues it (or a signal, for
 *                    interruptible waits), and the caller loops on its
 *                    state.  A FUTEX_WAKE is per thread, so a late one
 *                    (the waiter already returned and waits again on the
 *                    reused stack word) is the spurious wake-up the C
 *                    code tolerates, and one on an idle thread a no-op.
 *   slow lock        mutex_lock_common(): spin, then under wait_lock
 *                    xchg(count, -1), queue, sleep, retry, starvation
 *                    (want_handoff; the time test is a nondeterministic
 *                    choice), handoff, interruption.
 *   timed waiter     mutex_keep_timed(): while the process-wide policy
 *                    flag mutex_kept is set, the first waiter, unless it
 *                    wants a handoff, sets w->flags under wait_lock and
 *                    sleeps with a deadline (MUTEX_KEEP_NS); on waking
 *                    (timeout, wake-up or spurious) it clears w->flags
 *                    under wait_lock before anything else.  The policy
 *                    flag is an input, so each sleep of a first waiter
 *                    is timed or not by a free choice; the timeout is a
 *                    spontaneous return from FUTEX_WAIT, always enabled
 *                    for a timed sleeper (the model has no clock), which
 *                    is therefore never blocked.  A first waiter woken
 *                    from an untimed sleep while the flag is set sleeps
 *                    again at once, timed, without trying for the lock.
 *   leave            mutex_leave(): an interrupted waiter unlinks and
 *                    passes on a wake-up that may have been meant for it.
 *   acquired         mutex_acquired(): the new owner unlinks and stores
 *                    count 0 if the list is now empty.
 *   slow unlock      kmutex_mutex_unlock_slowpath(): handoff to a
 *                    starving first waiter, else store 1 and wake the
 *                    first waiter unless it is already awake or timed
 *                    (a timed sleeper wakes itself).  mutex_leave() may
 *                    still wake a timed first waiter: harmless.
 *
 * N threads (3) each loop for ever: mutex_lock() or
 * mutex_lock_interruptible(), critical section, mutex_unlock(); or stop
 * for good.  The number of rounds is unbounded: the state is finite
 * because nothing counts rounds.  Stopping is what lets spin's end-state
 * check see a lost wake-up: once the others have stopped, a waiter that
 * nobody will wake is a blocked process at a non-end label.  Sections
 * under wait_lock are not atomic: the fast paths (which never take
 * wait_lock) interleave with every count operation in them.
 *
 * Properties:
 *   - the monitor process asserts, in every reachable state: mutual
 *     exclusion (holders, incs <= 1); count 1 => nobody holds it; count
 *     0 => somebody does; only the first waiter is ever timed; and,
 *     whenever wait_lock is free: a non-empty list with count != -1 has
 *     its first waiter WOKEN or timed (what a fast unlock, which wakes
 *     nobody, relies on: the first waiter will retry); no waiter but the
 *     first is awake (one woken at a time); all threads stopped => the
 *     mutex is free, unqueued, as initialised;
 *   - the assert in the slow unlock: mutex_fatal("is not locked") never
 *     fires for a correct unlock;
 *   - spin's invalid-end-state check: no deadlock, no lost wake-up (an
 *     untimed sleeper nobody wakes);
 *   - with -DLIVE, the LTL claim waiter_progress (pan -a -f): under weak
 *     fairness a queued waiter leaves the list, owning the lock or
 *     interrupted (no starvation: bargers are bounded by the handoff;
 *     weak fairness also makes a timed sleeper time out in the end).
 *
 * Deliberately broken variants, one plausible bug each (spin -D...):
 *   BUSTED_WAKE       the slow unlock frees the lock but wakes nobody
 *   BUSTED_FUTEX      it sets WOKEN but forgets the FUTEX_WAKE
 *   BUSTED_LEAVE      an interrupted waiter does not pass a wake-up on
 *   BUSTED_COUNT0     the new owner stores count 0 with waiters queued
 *   BUSTED_HANDOFF    a waiter checks for a signal before the handoff
 *   BUSTED_EXCL       the handoff also stores count 1
 *   BUSTED_NOHANDOFF  the unlock ignores want_handoff (liveness only)
 *   BUSTED_TIMED      a waiter sets w->flags for a timed sleep but never
 *                     clears it: a later untimed sleep is skipped by
 *                     unlocks (a lost wake-up)
 *   BUSTED_RESLEEP    a woken first waiter that sleeps again without
 *                     trying (the owner keeps the lock) sleeps untimed
 * With -DNO_INVARIANTS the monitor checks mutual exclusion only, to show
 * what each bug does to the threads (a lost wake-up: a blocked thread).
 * model/check runs them all.
 */

#ifndef N
#define N		3
#endif

#define NONE		255	/* no waiter / empty list slot */

/* enum waiter_state, src/waiter.h */
#define SLEEPING	0
#define WOKEN		1
#define HANDOFF		2

short count = 1;		/* struct mutex .count */
byte  wl;			/* .wait_lock: 0 free, else holder id + 1 */
byte  q[N] = NONE;		/* .wait_list, q[0] is the first waiter */
byte  qlen;
bit   spinner;			/* .spinner */

byte  state[N];			/* kmutex_waiter .state (SLEEPING = 0) */
bit   want_handoff[N];	/* kmutex_waiter .want_handoff */
bit   fq[N];			/* thread queued in FUTEX_WAIT on .state */
bit   timed[N];			/* kmutex_waiter .flags: a timed sleeper */

/* Ghosts, for the properties only. */
bit   inlist[N];		/* thread is on the wait list */
byte  holders;			/* threads that own the lock */
byte  incs;			/* threads in the critical section */
byte  running = N;		/* threads that have not stopped */

#define FIRST		(qlen > 0 -> q[0] : NONE)

/* waiter_sleep()'s deadline: in C, w.flags ? &until : NULL */
#ifndef BUSTED_TIMED
#define DEADLINE	timed[me]
#else
#define DEADLINE	dl
#endif

/* --- wait_lock (wait_lock_acquire / wait_lock_release) ---------------- */

#ifndef LIVE
inline wl_acquire()
{
	atomic { wl == 0 -> wl = me + 1 }
}
#else
/*
 * The liveness run makes wait_lock FIFO.  The C wait_lock, like any
 * futex lock, is not fair: a thread that wants it sees it free now and
 * then but may always be beaten to it, and spin's weak fairness allows
 * that for ever (a WOKEN waiter starved of wait_lock by two threads that
 * keep locking and unlocking through the slow paths).  Its sections are
 * a few instructions, so that takes a scheduler adversarial for ever;
 * what is checked here is the protocol on top of a fair wait_lock.
 */
byte wlq[N] = NONE;	/* threads waiting for wait_lock, in order */
byte wlqlen;

inline wl_acquire()
{
	if
	:: atomic { wl == 0 && wlqlen == 0 -> wl = me + 1 }
	:: else ->
		d_step { wlq[wlqlen] = me; wlqlen++ };
		atomic {
			wl == 0 && wlq[0] == me -> wl = me + 1;
			i = 0;
			do
			:: i + 1 < wlqlen -> wlq[i] = wlq[i + 1]; i++
			:: else -> break
			od;
			wlqlen--;
			wlq[wlqlen] = NONE;
			i = 0
		}
	fi
}
#endif

inline wl_release()
{
	d_step { assert(wl == me + 1); wl = 0 }
}

/* --- wait_list (list_add_tail / list_del) ----------------------------- */

inline list_add_tail(t)
{
	q[qlen] = t;
	qlen++;
	inlist[t] = 1
}

inline list_del(t)
{
	i = 0;
	do
	:: q[i] == t -> break
	:: else -> i++
	od;
	do
	:: i + 1 < qlen -> q[i] = q[i + 1]; i++
	:: else -> break
	od;
	qlen--;
	q[qlen] = NONE;
	inlist[t] = 0;
#ifdef BUSTED_TIMED
	timed[t] = 0;	/* dead: canonical value (never cleared before) */
#endif
	i = 0
}

/* --- futex_wake (waiter_wake) ------------------------------------------ */

/* FUTEX_WAKE on t's word: dequeues t if queued, else nothing. */
inline futex_wake(t)
{
	fq[t] = 0
}

/* --- mutex_acquired ---------------------------------------------------- */

/* wait_lock held.  t: the waiter that now owns the lock, or NONE. */
inline mutex_acquired(t)
{
	d_step {
		if
		:: t != NONE -> list_del(t)
		:: else
		fi
	};
#ifdef BUSTED_COUNT0
	/* Bug: forgets that others still wait; their wake-up is lost. */
	count = 0
#else
	if
	:: qlen == 0 -> count = 0	/* unlock is fast again */
	:: else
	fi
#endif
}

/* --- mutex_leave ------------------------------------------------------- */

/* wait_lock held; the calling thread (me) gives up. */
inline mutex_leave()
{
	d_step { list_del(me); w = FIRST };
	if
	:: w == NONE	/* count may stay -1: one needless slow unlock */
	:: else ->
		/* CAS 0 -> -1; c is the value it saw */
		d_step {
			c = count;
			if
			:: count == 0 -> count = -1
			:: else
			fi
		};
		if
		:: c == 0	/* held: its unlock now comes to the slow path */
#ifndef BUSTED_LEAVE
		:: c == 1 && state[w] == SLEEPING ->
			/* free: a wake-up may have been ours, pass it on */
			state[w] = WOKEN;
			futex_wake(w)
#endif
		:: else
		fi
	fi;
	w = NONE;
	c = 0
}

/* --- the threads ------------------------------------------------------- */

active [N] proctype thread()
{
	byte me = _pid;	/* active processes are numbered from 0 */
	bit intr;	/* sleeping in mutex_lock_interruptible() */
	bit ret;	/* waiter_sleep(): 1 = -EINTR */
	bit got;	/* this thread's CAS / xchg found count 1 */
	bit was;	/* the sleep just ended was timed */
#ifdef BUSTED_TIMED
	bit dl;		/* this sleep has a deadline */
#endif
#ifdef LIVE
	bit lost;	/* lost a race without asking for a handoff */
#endif
	short c;
	byte w = NONE;
	byte i;

idle:
	if
	:: goto finish
	:: skip
	fi;

	/* mutex_lock() / mutex_lock_interruptible(): fast path, CAS 1 -> 0 */
	if
	:: atomic { count == 1 -> count = 0; holders++ }; goto locked
	:: else
	fi;

	/* mutex_spin(): one spinner at a time */
	if
	:: atomic { spinner == 0 -> spinner = 1 };
		do
		:: atomic { count == 1 -> count = 0; holders++ }; got = 1; break
		:: count != 1 -> skip	/* cpu_relax(), read again; also
					 * when others sleep (ab51bc1) */
		:: break		/* MUTEX_SPINS reads used up */
		od;
		spinner = 0;
		if
		:: got -> got = 0; goto locked
		:: else
		fi
	:: else
	fi;

	/* mutex_lock_common(): the wait list */
	/* mutex_check_and_lock()'s range check */
	assert(count >= -1 && count <= 1);
	wl_acquire();
	d_step {	/* xchg(count, -1) == 1 */
		if
		:: count == 1 -> got = 1; holders++
		:: else
		fi;
		count = -1
	};
	if
	:: got -> got = 0; mutex_acquired(NONE); wl_release(); goto locked
	:: else
	fi;
	/* mutex_lock() or mutex_lock_interruptible()?  They differ only
	 * in how they sleep, so the model chooses here, not at the call:
	 * fewer states, the same runs. */
	atomic {
		if
		:: intr = 0
		:: intr = 1
		fi;
		state[me] = SLEEPING;
		want_handoff[me] = 0;
		list_add_tail(me)
	};

sleep:
	/* mutex_keep_timed(): while the policy flag mutex_keep is set (an
	 * input, so a free choice here), the first waiter, unless it wants a
	 * handoff, sleeps with a deadline and unlocks leave it asleep.  One
	 * step with the release: nobody reads timed[me] without wait_lock. */
#ifndef BUSTED_TIMED
	atomic {
		if
		:: q[0] == me && !want_handoff[me] -> timed[me] = 1
		:: skip
		fi;
		assert(wl == me + 1);
		wl = 0
	};
#else
	/* Bug: w->flags is set when the sleep is timed but never cleared,
	 * and the deadline comes from the decision (dl), not the flag: a
	 * later untimed sleep keeps the flag, and unlocks skip it. */
	atomic {
		if
		:: q[0] == me && !want_handoff[me] -> timed[me] = 1; dl = 1
		:: dl = 0
		fi;
		assert(wl == me + 1);
		wl = 0
	};
#endif

	/* waiter_sleep(): loop until state != SLEEPING, -EINTR, or (timed)
	 * -ETIMEDOUT */
waiting:
	do
	:: state[me] != SLEEPING -> break
	:: else ->
		/* FUTEX_WAIT(&state, SLEEPING): compare and queue at once */
		d_step {
			if
			:: state[me] == SLEEPING -> fq[me] = 1
			:: else
			fi
		};
		if
		:: fq[me] == 0	/* FUTEX_WAKE came, or the word differed */
#ifdef SPURIOUS
		/* Spurious return: a handler ran in mutex_lock(), or a
		 * FUTEX_WAKE from another use of the stack word.  It adds
		 * no reachable state (model/check compares the counts),
		 * and left in, it would hide lost wake-ups from the
		 * end-state check: a thread that can always wake is never
		 * blocked.  So it is checked once, then left out. */
		:: fq[me] = 0
#endif
		:: atomic { intr -> fq[me] = 0; ret = 1 };
			break	/* a signal handler ran: -EINTR */
		/* The deadline passed: -ETIMEDOUT, which the caller turns into
		 * 0.  Always enabled for a timed sleeper (no clock: a timeout
		 * may come at any time), so a timed sleeper is never blocked,
		 * and weak fairness makes it time out if nothing else comes. */
		:: atomic { DEADLINE -> fq[me] = 0 };
			break
		fi
	od;

	wl_acquire();
	was = DEADLINE;	/* timed = w.flags */
#ifndef BUSTED_TIMED
	timed[me] = 0;	/* w.flags = 0, before anything else */
#endif
#ifndef BUSTED_HANDOFF
	if
	:: d_step { state[me] == HANDOFF -> holders++ };
		ret = 0;
		goto acquired	/* ours, even if a signal came too */
	:: else
	fi;
#endif
	if
	:: ret ->
		/* interrupted */
		mutex_leave();
		d_step {
			state[me] = SLEEPING;	/* dead: canonical value */
			want_handoff[me] = 0;
			ret = 0;
			intr = 0;
			was = 0
		};
#ifdef LIVE
		lost = 0;
#endif
		wl_release();
		goto idle
	:: else
	fi;
#ifdef BUSTED_HANDOFF
	/* Bug: checks for a signal before the handoff; a handoff that
	 * crosses the signal is dropped with the lock in it. */
	if
	:: d_step { state[me] == HANDOFF -> holders++ }; goto acquired
	:: else
	fi;
#endif
	/* Woken from an untimed sleep while the policy flag is set (a free
	 * choice), the first waiter sleeps again, timed, without trying:
	 * the owner's turn goes on (mutex_keep_timed() in the C loop).
	 * Timed, or nobody would wake it (BUSTED_RESLEEP). */
	if
	:: !was && q[0] == me && !want_handoff[me] ->
		atomic {
			state[me] = SLEEPING;
#ifndef BUSTED_RESLEEP
			timed[me] = 1;
#endif
#ifdef BUSTED_TIMED
			dl = 1;
#endif
			assert(wl == me + 1);
			wl = 0
		};
		goto waiting
	:: true -> was = 0
	fi;
	d_step {	/* xchg(count, -1) == 1 */
		if
		:: count == 1 -> got = 1; holders++
		:: else
		fi;
		count = -1
	};
	if
	:: got -> got = 0; goto acquired
	:: else
	fi;
	/* A running thread took it first.  Starving (by the clock)?  Sticky:
	 * want_handoff is never cleared while queued, as in the C code. */
#ifdef LIVE
	/* The model has no clock, and MUTEX_STARVE_NS does pass: the
	 * liveness run lets a waiter lose once without asking, then it
	 * asks.  (The safety run: any number of times.) */
	if
	:: want_handoff[me] = 1
	:: want_handoff[me] == 0 && !lost -> lost = 1
	fi;
#else
	if
	:: want_handoff[me] = 1
	:: skip
	fi;
#endif
	state[me] = SLEEPING;
	goto sleep;

acquired:
	mutex_acquired(me);
	d_step {
		state[me] = SLEEPING;	/* dead: canonical value */
		want_handoff[me] = 0;
		intr = 0;
		was = 0
	};
#ifdef LIVE
	lost = 0;
#endif
	wl_release();

locked:
	incs++;		/* the critical section */
	incs--;

	/* mutex_unlock(): fast path, CAS 0 -> 1 */
	if
	:: atomic { count == 0 -> count = 1; holders-- }; goto idle
	:: else
	fi;

	/* kmutex_mutex_unlock_slowpath() */
	assert(count != 1);	/* mutex_fatal(): "is not locked" */
	wl_acquire();
	w = FIRST;
	if
#ifndef BUSTED_NOHANDOFF
	:: w != NONE && want_handoff[w] ->
#else
	/* Bug: never hands over: a waiter can lose to bargers for ever. */
	:: false ->
#endif
#ifdef BUSTED_EXCL
		/* Bug: frees the lock as well as handing it over. */
		count = 1;
#endif
		d_step { state[w] = HANDOFF; holders-- };	/* count stays -1 */
		wl_release();
		futex_wake(w);
		w = NONE;
		goto idle
	:: else
	fi;
	d_step { count = 1; holders-- };	/* barging allowed */
	if
	:: w == NONE || state[w] != SLEEPING || timed[w] ->
		/* nobody, or already woken and not yet run: one at a time;
		 * or a timed sleeper, which wakes itself */
		wl_release();
		w = NONE;
		goto idle
	:: else
	fi;
#ifdef BUSTED_WAKE
	/* Bug: the unlocker forgets to wake the first waiter. */
	wl_release();
	w = NONE;
	goto idle;
#endif
	state[w] = WOKEN;
	wl_release();
#ifndef BUSTED_FUTEX
	futex_wake(w);	/* outside wait_lock; may be late (spurious) */
#endif
	w = NONE;
	goto idle;

finish:
	running--
}

/* --- invariants --------------------------------------------------------- */

/* Only the first waiter may be awake (written out for N <= 4). */
#define ASLEEP(k)	(qlen <= k || state[q[k]] == SLEEPING)
#if N > 4
#error "REST_ASLEEP is written out for at most 4 threads"
#elif N == 4
#define REST_ASLEEP	(ASLEEP(1) && ASLEEP(2) && ASLEEP(3))
#else
#define REST_ASLEEP	(ASLEEP(1) && ASLEEP(2))
#endif

#define INV_EXCL	(incs <= 1 && holders <= 1)
#define INV_FREE	(count != 1 || holders == 0)
#define INV_HELD	(count != 0 || holders == 1)
/* What a fast unlock (which wakes nobody) relies on: if count is not -1
 * and someone waits, the first waiter is awake and will retry, or timed
 * and will wake itself (a timed first waiter stays SLEEPING: neither
 * unlock wakes it).  Only between wait_lock sections: inside one, the
 * list is being changed. */
#define INV_WOKEN	(wl != 0 || qlen == 0 || count == -1 || \
			 state[q[0]] == WOKEN || timed[q[0]])
#define INV_ONE		(wl != 0 || REST_ASLEEP)
/* Only the first waiter is ever timed (what lets the unlock look at the
 * first waiter's flag alone), at every step, not only between wait_lock
 * sections. */
#define UNTIMED(k)	(!timed[k] || (qlen > 0 && q[0] == k))
#if N == 4
#define INV_TIMED	(UNTIMED(0) && UNTIMED(1) && UNTIMED(2) && UNTIMED(3))
#elif N == 3
#define INV_TIMED	(UNTIMED(0) && UNTIMED(1) && UNTIMED(2))
#else
#define INV_TIMED	(UNTIMED(0) && UNTIMED(1))
#endif
/* All threads stopped: the mutex is back to its initial state. */
#define INV_END		(running > 0 || \
			 (count == 1 && qlen == 0 && wl == 0 && spinner == 0))

#ifndef NO_INVARIANTS
#define INV	(INV_EXCL && INV_FREE && INV_HELD && INV_WOKEN && INV_ONE && \
		 INV_TIMED && INV_END)
#else
/* To see what a broken variant does to the threads, not to the state. */
#define INV	INV_EXCL
#endif

active proctype monitor()
{
end:	atomic {
		!INV ->
		assert(INV_EXCL);
		assert(INV_FREE);
		assert(INV_HELD);
		assert(INV_WOKEN);
		assert(INV_ONE);
		assert(INV_TIMED);
		assert(INV_END)
	}
}

#ifdef LIVE
/* A queued waiter (thread 0; the threads are symmetric) leaves the list:
 * it gets the lock or is interrupted.  Under weak fairness (pan -f). */
ltl waiter_progress { [] (inlist[0] -> <> !inlist[0]) }
#endif
