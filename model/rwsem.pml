/*
 * model/rwsem.pml - Promela model of kmutex's struct rw_semaphore protocol.
 *
 * Change together with src/rwsem.c, include/kmutex/rwsem_fast.h and
 * include/linux/rwsem.h: this file
 * is only worth something while it says what the C code does.  Run it
 * with model/check_rwsem (spin -a, cc, ./pan); model/RWSEM.md says what
 * is proven, what is abstracted and what the numbers were.
 *
 * What it models, and where each part is in the C code:
 *
 *   count            struct rw_semaphore .count with its real encoding:
 *                    bit 0 RWSEM_WRITER_LOCKED (W), bit 1
 *                    RWSEM_FLAG_WAITERS (WT), bit 2 RWSEM_FLAG_HANDOFF
 *                    (HO), RWSEM_READER_BIAS (256) per reader, including
 *                    readers passing through a failed fast path.  Every C
 *                    atomic on it is one Promela step, in the C order.
 *                    Tests of data private under wait_lock (the list, a
 *                    waiter's flags) share a step with the atomic they
 *                    lead to: nobody else can see them.
 *   woken            .woken: fetch_add under wait_lock in rwsem_dequeue(),
 *                    fetch_sub lock-free by the woken waiter, or under
 *                    wait_lock by an interrupted one.
 *   fast paths       <kmutex/rwsem_fast.h>, shared by both builds:
 *                    __kmutex_rwsem_down() (read: add_fetch BIAS, fails
 *                    on W|WT, keeps the bias; write: CAS 0 -> W),
 *                    __kmutex_rwsem_up() (read: sub_fetch BIAS, slow if
 *                    the result is in 1..255 or negative; write: CAS W ->
 *                    0, else slow), __kmutex_rwsem_downgrade() (add_fetch
 *                    BIAS - W, slow on WT|W), __kmutex_rwsem_trylock()
 *                    (read: load + CAS loop while no W|WT; write: CAS).
 *                    Not modelled: the sign bit RWSEM_FLAG_READFAIL, also
 *                    in the read masks, which only the 2^23rd reader's
 *                    bias sets (it then aborts; the trylock fails).
 *   wait_lock        src/wait_lock.[ch], a correct futex lock, abstracted
 *                    to a lock word (wl).
 *   wait_list        .wait_list as an array q[0..qlen-1]; isw[t] is the
 *                    waiter's .flags (WAITER_WRITER).  rwsem_enqueue()
 *                    inserts by ->since: sn[t] is the rank of thread t's
 *                    since among the threads that hold one (1 = oldest),
 *                    taken where the C code calls now_ns() (a writer on
 *                    entering its slow path, a reader before it first
 *                    queues) and kept while it re-queues, so a woken
 *                    waiter that loses goes back to its place.
 *   waiters          kmutex_waiter .state (src/waiter.h): SLEEPING,
 *                    WOKEN or HANDOFF, stored by wake_q_add().
 *   futex            waiter_sleep(): block until state[t] != SLEEPING.
 *                    The futex_wake() of wake_q_wake() after wait_lock is
 *                    dropped is folded into that (every wake_q_add() is
 *                    followed by one).  A signal may end the sleep at any
 *                    moment, also after the state changed: -EINTR with
 *                    WOKEN or HANDOFF, the cases rwsem_wait() re-checks.
 *                    It is taken in the step in which the thread gets
 *                    wait_lock: in between it changes nothing shared.
 *   rwsem_wake_head() exactly as written (load, then: list empty: clear
 *                    WT|HO; starving: rwsem_hand_over() = or_fetch(HO),
 *                    for a writer a CAS loop adding W unless an owner,
 *                    for readers fetch_add(BIAS) each up to the first
 *                    writer, dequeued HANDOFF; not starving: clear a
 *                    stale HO, return if W, a writer head and readers,
 *                    or woken > 0, else dequeue the head writer or the
 *                    readers up to the first writer WOKEN (woken++);
 *                    then clear WT if the list is empty, HO if granted).
 *                    "Starving" (queued >= RWSEM_STARVE_NS) is a free
 *                    choice at each call, so both branches are explored
 *                    in every situation.
 *   rwsem_wait()     enqueue, wake_head, drop wait_lock, sleep; WOKEN:
 *                    fetch_sub(woken), return 1 (try again); -EINTR:
 *                    under wait_lock keep a HANDOFF, else woken-- if
 *                    WOKEN or list_del if SLEEPING, and wake_head.
 *   down_read slow   kmutex_down_read_slowpath(): under wait_lock load
 *                    count; no conflict (W|WT the first time, W|HO once
 *                    woken): keep the bias; else fetch_or(WT),
 *                    fetch_sub(BIAS), rwsem_wait(); woken: add_fetch(BIAS),
 *                    keep it unless W|HO, else round again.
 *   down_write slow  kmutex_down_write_slowpath(): rwsem_write_spin(),
 *                    then under wait_lock rwsem_write_try() (load, CAS
 *                    c -> c|W while c has no bit but WT), else
 *                    rwsem_wait(); woken: start over.  The spin is 0 or 1
 *                    try: its failed tries only read, so one try at the
 *                    moment of the last stands for them all; a writer that
 *                    loses the spinner claim does not try (the 0 case).
 *                    Every writer may spin, a superset of "one at a time"
 *                    (.spinner is not modelled).
 *   releases         kmutex_rwsem_wake(): the fatal misuse checks as
 *                    assertions (correct use never reaches them), under
 *                    wait_lock fetch_and(~W) for up_write, wake_head.
 *
 * Each of N (3) threads loops: it picks down_read_interruptible() or
 * down_write_killable(); if it got the lock it is inside for a step,
 * then up_read(), or up_write(), or downgrade_write() + up_read(); or it
 * stops for good.  The state is finite because nothing counts rounds,
 * and stopping is what lets a lost wake-up show as threads all asleep or
 * stopped.  Left out of the default run because they add states but no
 * behaviour (model/RWSEM.md):
 *   - down_read() and down_write(): they are the interruptible calls
 *     never interrupted (-DWITH_PLAIN adds them: 2.3 times the states);
 *   - down_read_trylock() and down_write_trylock(): a successful one
 *     changes count exactly as the fast path's add_fetch or CAS would at
 *     that moment, a failed one changes nothing (-DWITH_TRYLOCKS adds
 *     them, with their barging assertions: 1.5 times the states).
 *
 * Properties (see model/RWSEM.md):
 *   exclusion        where a thread gets in and in every state: no writer
 *                    with anyone else; count agrees (W set while a writer
 *                    is inside, READERS(count) >= readers inside).
 *   no barging       the ways in that may not pass waiters (both fast
 *                    paths, the trylocks, the reader's first check under
 *                    wait_lock) assert the list is empty; the ways in that
 *                    may (rwsem_write_try(), the woken reader's keep,
 *                    lock-free or under wait_lock) assert HO is not set
 *                    while anyone waits: nobody passes a starving waiter.
 *   monitor          in every state: WT set iff the list is non-empty,
 *                    and HO set only if it is non-empty, whenever
 *                    wait_lock is free; woken == the number of waiters in
 *                    state WOKEN; no stalled head (below); no lost
 *                    wake-up (not all threads stopped or asleep SLEEPING);
 *                    once all threads stopped: count 0, list empty, woken
 *                    0, no since held.
 *   no stalled head  whenever wait_lock is free, the list non-empty, no
 *                    release or woken waiter is on its way to wait_lock
 *                    (npend) and woken == 0: W is set or a reader bias is
 *                    in count.  So the head sleeps only while someone
 *                    holds or passes who will come back to
 *                    rwsem_wake_head(), or a woken waiter has yet to run.
 *   sanity           -DREACH_*: each asserts that something the protocol
 *                    must allow never happens; spin must find it: SHARE
 *                    two readers inside; BATCH one rwsem_wake_head()
 *                    dequeues two readers; HANDOFF a waiter handed the
 *                    lock; BARGE a writer in by rwsem_write_try() past a
 *                    waiter; REQUEUE a waiter queued ahead of an earlier
 *                    one (by since); STALL a reader head asleep while
 *                    only readers hold (the old, stronger head rule).
 *
 * Variants (spin -D...), run by model/check_rwsem:
 *   BUSTED_BIAS_EARLY    the failed read fast path backs its bias out at
 *                        once; the slow path keeps a bias it lacks.
 *   BUSTED_BIAS_LATE     the queuing reader drops its bias after the
 *                        rwsem_wake_head() that saw it (lost wake-up).
 *   BUSTED_BIAS_ORDER    the reader drops its bias before setting WAITERS:
 *                        NOT a bug, spin finds no error (RWSEM.md).
 *   BUSTED_WAKE_WAITERS  rwsem_wake_head() does not clear WAITERS when it
 *                        empties the list.
 *   BUSTED_HANDOFF_EMPTY rwsem_wake_head() with an empty list clears
 *                        WAITERS but not HANDOFF.
 *   BUSTED_HANDOFF_READERS rwsem_hand_over() gives a writer the lock over
 *                        readers.
 *   BUSTED_WOKEN_WAIT    rwsem_wake_head() wakes the head although woken
 *                        waiters have not run: NOT a bug (a performance
 *                        rule), spin finds no error.
 *   BUSTED_WOKEN_HANDOFF the woken reader keeps its bias past a HANDOFF.
 *   BUSTED_TRY_HANDOFF   rwsem_write_try() takes the lock past a HANDOFF.
 *   BUSTED_INTR_WOKEN    an interrupted WOKEN waiter forgets woken--.
 *   BUSTED_INTR_WAKE     an interrupted WOKEN waiter does not call
 *                        rwsem_wake_head() (its wake-up is lost).
 *   BUSTED_INTR_LEAVE    no interrupted waiter calls rwsem_wake_head().
 *   BUSTED_READ_BARGE    the read fast path ignores WAITERS.
 *   NO_HEAD_OK, NO_WOKEN_OK, NO_QUIET_OK  leave out the no-stalled-head,
 *                        woken-count or final-state check, to see what
 *                        the others catch alone.
 *   N=2, N=4             2 or 4 threads instead of 3.
 */

#ifndef N
#define N		3
#endif

#define NONE		255	/* empty list slot */

/* count bits, <linux/rwsem.h> */
#define W		1	/* RWSEM_WRITER_LOCKED */
#define WT		2	/* RWSEM_FLAG_WAITERS */
#define HO		4	/* RWSEM_FLAG_HANDOFF */
#define BIAS		256	/* RWSEM_READER_BIAS */
#define READERS(x)	((x) >> 8)

/* enum waiter_state, src/waiter.h */
#define SLEEPING	0
#define WOKEN		1
#define HANDOFF		2

/* __KMUTEX_RWSEM_* */
#define UP_READ		0
#define UP_WRITE	1
#define DOWNGRADE	2

short count;			/* .count */
byte  wl;			/* .wait_lock: 0 free, else holder id + 1 */
byte  woken;			/* .woken */
byte  q[N] = NONE;		/* .wait_list, q[0] is the first waiter */
byte  qlen;
bit   isw[N];			/* queued waiter is a writer (.flags) */
byte  state[N];			/* kmutex_waiter .state */
byte  sn[N];			/* kmutex_waiter .since as a rank: 0 none,
				 * else 1 = oldest .. nsn = newest */
byte  nsn;

/* Ghosts, for the properties only. */
byte  rin;			/* readers inside */
byte  win;			/* writers inside */
byte  nwq;			/* writers on the wait list */
byte  npend;			/* threads bound to come to wait_lock: a
				 * release between its count change and its
				 * wake_head, a woken waiter from its woken--
				 * until it gets in or takes wait_lock */
bit   asleep[N];		/* thread is in waiter_sleep() */
bit   done[N];			/* thread has stopped for good */
byte  ndone;
#ifdef REACH_BATCH
byte  batch;			/* readers dequeued by this rwsem_wake_head() */
#endif

#define me		_pid	/* the threads are processes 0..N-1 */

/* --- the properties ----------------------------------------------------- */

/* Where a thread gets in. */
#define READ_IN \
	assert(win == 0); rin++; assert(READERS(count) >= rin)
#define WRITE_IN \
	assert(win == 0 && rin == 0); win++; assert((count & W) != 0)
/* Getting in without queuing where barging is not allowed. */
#define NO_BARGING \
	assert(nwq == 0); assert(qlen == 0)
/* Getting in without queuing where barging is allowed: not past a
 * starving waiter.  (HANDOFF is left set with the list empty for one
 * step of rwsem_wake_head() after it handed the lock to the last
 * waiters, who are in: nobody to barge past.) */
#define NO_HANDOFF_BARGING \
	assert((count & HO) == 0 || qlen == 0)

#define HEAD		q[0]
#define WAITERS_OK	(wl != 0 || ((count & WT) != 0) == (qlen > 0))
#define HANDOFF_OK	(wl != 0 || (count & HO) == 0 || qlen > 0)
#define ISWOKEN(t)	(state[t] == WOKEN -> 1 : 0)
#if N == 4
#define NWOKEN		(ISWOKEN(0) + ISWOKEN(1) + ISWOKEN(2) + ISWOKEN(3))
#elif N == 3
#define NWOKEN		(ISWOKEN(0) + ISWOKEN(1) + ISWOKEN(2))
#elif N == 2
#define NWOKEN		(ISWOKEN(0) + ISWOKEN(1))
#endif
#ifndef NO_WOKEN_OK
#define WOKEN_OK	(woken == NWOKEN)
#else
#define WOKEN_OK	1	/* to see what the other checks catch */
#endif
#define EXCL_OK		(win <= 1 && (win == 0 || rin == 0) &&		\
			 (win == 0 || (count & W) != 0) &&		\
			 READERS(count) >= rin)
/*
 * No stalled head: the first waiter sleeps only while someone will come
 * to rwsem_wake_head() for it: a holder or a reader passing with its
 * bias (W or READERS(count) - for a reader head as for a writer head,
 * since a woken reader may keep its bias, and a writer may downgrade,
 * while a reader queued after the wake-up sleeps), a woken waiter that
 * has not run (woken > 0) or is on its way (npend), or wait_lock's
 * holder.  -DREACH_STALL checks that the old rule (a reader head only
 * while W) no longer holds.
 */
#ifndef NO_HEAD_OK
#ifndef REACH_STALL
#define READER_HEAD_OK	(READERS(count) > 0)
#else
#define READER_HEAD_OK	0	/* the old rule: only while W */
#endif
#define HEAD_OK		(wl != 0 || npend > 0 || qlen == 0 || woken > 0 ||	\
			 (count & W) != 0 ||				\
			 (isw[HEAD] && READERS(count) > 0) ||		\
			 (!isw[HEAD] && READER_HEAD_OK))
#else
#define HEAD_OK		1	/* to see what the other checks catch */
#endif
#define STUCK(t)	(done[t] || (asleep[t] && state[t] == SLEEPING))
#if N == 4
#define ALL_STUCK	(STUCK(0) && STUCK(1) && STUCK(2) && STUCK(3) &&	\
			 ndone < N)
#elif N == 3
#define ALL_STUCK	(STUCK(0) && STUCK(1) && STUCK(2) && ndone < N)
#elif N == 2
#define ALL_STUCK	(STUCK(0) && STUCK(1) && ndone < N)
#else
#error "the monitor's ALL_STUCK is written out for N = 2, 3 or 4"
#endif
#define NOT_ALL_STUCK	(!ALL_STUCK)
#ifndef NO_QUIET_OK
#define QUIET_OK	(ndone < N || (count == 0 && qlen == 0 && wl == 0 && \
			 woken == 0 && nsn == 0))
#else
#define QUIET_OK	1	/* to see what the other checks catch */
#endif

/* --- wait_lock (wait_lock_acquire / wait_lock_release) ---------------- */

/* A thread bound to come here (npend) has come once it holds it. */
inline wl_acquire()
{
	atomic {
		wl == 0 -> wl = me + 1;
		if
		:: pend -> pend = 0; npend--
		:: else
		fi
	}
}

inline wl_release_()
{
	assert(wl == me + 1);
	wl = 0
}

inline wl_release()
{
	d_step { wl_release_() }
}

/* --- ->since ------------------------------------------------------------ */

/* w.since = now_ns(): later than every since taken so far. */
inline since_take()
{
	nsn++;
	sn[me] = nsn
}

/* The slow path returns: its since (if it took one) is gone; renumber
 * the others to stay canonical. */
inline since_drop()
{
	d_step {
		if
		:: sn[me] != 0 ->
			i = 0;
			do
			:: i < N ->
				if
				:: sn[i] > sn[me] -> sn[i]--
				:: else
				fi;
				i++
			:: else -> break
			od;
			sn[me] = 0;
			nsn--;
			i = 0
		:: else
		fi
	}
}

/* --- the wait list ------------------------------------------------------ */

/* rwsem_enqueue(): list_add_tail() after the last waiter with an earlier
 * since, state SLEEPING, fetch_or(WAITERS).  One step: the list is read
 * only under wait_lock. */
inline rwsem_enqueue(wr)
{
	d_step {
		i = qlen;
		do
		:: i > 0 && sn[q[i - 1]] > sn[me] -> q[i] = q[i - 1]; i--
		:: else -> break
		od;
#ifdef REACH_REQUEUE
		assert(i == qlen);	/* must fail */
#endif
		q[i] = me;
		qlen++;
		i = 0;
		state[me] = SLEEPING;
		isw[me] = wr;
		if
		:: wr -> nwq++
		:: else
		fi;
		count = count | WT
	}
}

/* list_del(&w->node) of thread t, anywhere in the list. */
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
	if
	:: isw[t] -> nwq--; isw[t] = 0
	:: else
	fi;
	i = 0
}

/* rwsem_dequeue() of the first waiter: list_del, woken++ unless it is a
 * grant, and wake_q_add()'s store of its new state.  The woken++ and the
 * store are one step: woken is read only under wait_lock, and the woken
 * waiter's own decrement comes after it sees the store.  (Used inside a
 * d_step.) */
inline rwsem_dequeue_(g)
{
	t = HEAD;
	list_del(t);
	if
	:: g -> state[t] = HANDOFF
	:: else -> woken++; state[t] = WOKEN
	fi;
	t = 0
}

/* --- rwsem_wake_head() -------------------------------------------------- */

/*
 * Under wait_lock.  grant: the head is starving (in C: queued >= 1 ms;
 * here a free choice at each call); stop: it returns early.  Tests of
 * the list (private under wait_lock) share a step with the count atomic
 * they lead to.
 */
inline rwsem_wake_head()
{
	atomic {
		c = count;			/* rwsem_first(), load */
		if
		:: qlen > 0 -> grant = 1
		:: qlen > 0 -> grant = 0
		:: else
		fi
	};
	if
	:: atomic { qlen == 0 ->
		if
		:: (c & (WT | HO)) != 0 ->
#ifndef BUSTED_HANDOFF_EMPTY
			count = count & ~(WT | HO)
#else
			/* Bug: a handoff left behind by a waiter that left */
			count = count & ~WT
#endif
		:: else
		fi }
	:: qlen > 0 ->
		if
		:: atomic { grant ->
			/* rwsem_hand_over(): or_fetch(HANDOFF) */
			count = count | HO;
			c = count;
			if
			:: !isw[HEAD] && (c & W) != 0 -> stop = 1
#ifndef BUSTED_HANDOFF_READERS
			:: isw[HEAD] && ((c & W) != 0 || READERS(c) != 0) ->
#else
			/* Bug: hands a writer the lock over readers. */
			:: isw[HEAD] && (c & W) != 0 ->
#endif
				stop = 1
			:: else
			fi }
			/* a writer: CAS c -> c | W while no owner */
			do
			:: stop || !isw[HEAD] -> break
			:: else ->
				if
				:: atomic { count == c -> count = c | W };
					break
				:: atomic { count != c ->
					c = count;
					if
#ifndef BUSTED_HANDOFF_READERS
					:: (c & W) != 0 || READERS(c) != 0 ->
#else
					:: (c & W) != 0 ->
#endif
						stop = 1
					:: else
					fi }
				fi
			od
		:: atomic { !grant ->
			if
			:: (c & HO) != 0 -> count = count & ~HO	/* stale */
			:: else
			fi;
			if
			:: (c & W) != 0 || (isw[HEAD] && READERS(c) != 0) ->
				stop = 1	/* the holder comes back here */
			:: else
			fi }
#ifndef BUSTED_WOKEN_WAIT
			if
			:: atomic { !stop && woken != 0 -> stop = 1 }
			:: atomic { stop || woken == 0 }
			fi
#endif
		fi;
		if
		:: stop
		:: d_step { !stop && isw[HEAD] -> rwsem_dequeue_(grant) }
		:: !stop && !isw[HEAD] ->
			/* the readers at the head, up to the first writer */
			do
			:: atomic { qlen > 0 && !isw[HEAD] && grant ->
				count = count + BIAS };
				d_step { rwsem_dequeue_(grant) }
#ifdef REACH_BATCH
				; batch++; assert(batch < 2)
#endif
			:: d_step { qlen > 0 && !isw[HEAD] && !grant ->
				rwsem_dequeue_(grant) }
#ifdef REACH_BATCH
				; batch++; assert(batch < 2)
#endif
			:: else -> break
			od
#ifdef REACH_BATCH
			; batch = 0
#endif
		fi;
		if
		:: stop
#ifndef BUSTED_WAKE_WAITERS
		:: atomic { !stop && qlen == 0 -> count = count & ~WT }
#endif
		:: else
		fi;
		if
		:: atomic { !stop && grant -> count = count & ~HO }
		:: else
		fi
	fi;
	c = 0;
	grant = 0;
	stop = 0
}

/* --- rwsem_wait() ------------------------------------------------------- */

#define GET_IN(wr) \
	if								\
	:: wr -> WRITE_IN						\
	:: else -> READ_IN						\
	fi;								\
	got = 1

/* wait_lock held.  Sets got if handed the lock, retry if woken to try
 * again; neither: -EINTR. */
inline rwsem_wait(wr)
{
	rwsem_enqueue(wr);
	rwsem_wake_head();
#ifdef BUSTED_BIAS_LATE
	/* Bug: a reader drops its bias after rwsem_wake_head() saw it and
	 * left the first writer to "the last reader", which is this one. */
	if
	:: !wr -> count = count - BIAS
	:: else
	fi;
#endif
	/* rwsem_unlock_and_wake(); waiter_sleep() begins */
	d_step { wl_release_(); asleep[me] = 1 };

	/* waiter_sleep(): state != SLEEPING, or -EINTR at any moment */
	if
	:: atomic { state[me] != SLEEPING ->
		asleep[me] = 0;
		if
		:: state[me] == HANDOFF ->
#ifdef REACH_HANDOFF
			assert(state[me] != HANDOFF);	/* must fail */
#endif
			state[me] = SLEEPING;	/* w is dead: canonical */
			GET_IN(wr)
		:: else -> retry = 1		/* WOKEN */
		fi }
		if
		:: retry ->
			/* fetch_sub(woken); it must now try, and come to
			 * wait_lock unless it gets in */
			atomic {
				woken--; state[me] = SLEEPING;
				pend = 1; npend++
			}
		:: else
		fi
	:: atomic { intr && wl == 0 ->
		/* -EINTR; the signal is taken when the thread gets
		 * wait_lock (in between it changes nothing shared) */
		asleep[me] = 0;
		wl = me + 1 };
		/* re-check under wait_lock */
		if
		:: atomic { state[me] == HANDOFF ->
			/* granted as the signal came: keep it */
			state[me] = SLEEPING;
			GET_IN(wr) }
		:: else ->
			if
			:: atomic { state[me] == WOKEN ->
#ifndef BUSTED_INTR_WOKEN
				woken--;
#endif
				state[me] = SLEEPING
#ifdef BUSTED_INTR_WAKE
				/* Bug: a woken leaver does not pass its
				 * wake-up on. */
				; stop = 1
#endif
				}
			:: d_step { state[me] == SLEEPING -> list_del(me) }
			fi;
#if defined(BUSTED_INTR_LEAVE)
			skip	/* Bug: no leaver passes anything on. */
#elif defined(BUSTED_INTR_WAKE)
			if
			:: stop -> stop = 0
			:: else -> rwsem_wake_head()
			fi
#else
			rwsem_wake_head()
#endif
		fi;
		wl_release()
	fi
}

/* --- kmutex_rwsem_wake() ------------------------------------------------ */

inline rwsem_wake(op)
{
	d_step {
		c = count;		/* the fatal misuse checks */
		assert(op != UP_READ || c >= 0);
		assert(op != DOWNGRADE || (c & W) == 0);
		assert(op != UP_WRITE || (c & W) != 0);
		c = 0
	};
	wl_acquire();
	if
	:: op == UP_WRITE -> count = count & ~W
	:: else
	fi;
	rwsem_wake_head();
	wl_release()
}

/* up_read(): sub_fetch(BIAS); slow if the result is in 1..255 (flags
 * left, no readers) or negative. */
inline up_read()
{
	atomic {
		rin--;
		count = count - BIAS;
		c = count;
		if
		:: c < BIAS && c != 0 -> pend = 1; npend++
		:: else
		fi;
		c = 0
	};
	if
	:: pend -> rwsem_wake(UP_READ)
	:: else
	fi
}

/* --- rwsem_write_try() -------------------------------------------------- */

/* CAS c -> c | W while c has no bit but WAITERS. */
inline rwsem_write_try()
{
	c = count;
	do
#ifndef BUSTED_TRY_HANDOFF
	:: (c & ~WT) != 0 -> break
#else
	/* Bug: barges past a starving waiter too. */
	:: (c & ~(WT | HO)) != 0 -> break
#endif
	:: else ->
		if
		:: atomic { count == c ->
			count = c | W;
			NO_HANDOFF_BARGING;
#ifdef REACH_BARGE
			assert(!(qlen > 0));	/* must fail */
#endif
			WRITE_IN; got = 1;
			if
			:: pend -> pend = 0; npend--
			:: else
			fi };
			break
		:: atomic { count != c -> c = count }
		fi
	od;
	c = 0
}

/* --- the threads -------------------------------------------------------- */

active [N] proctype thread()
{
	short c;	/* a value of count this thread read */
	byte i, t;	/* list walks */
	bit intr;	/* interruptible / killable */
	bit try;	/* down_write_trylock() */
	bit got;	/* got the lock */
	bit retry;	/* rwsem_wait() returned 1: woken to try again */
	bit again;	/* the reader's conflict is W|HANDOFF (woken once) */
	bit pend;	/* bound to come to wait_lock (npend) */
	bit grant;	/* rwsem_wake_head(): the head is starving */
	bit stop;	/* rwsem_wake_head() returns early */

	do
	:: /* down_read() / down_read_interruptible() */
#ifdef WITH_PLAIN
		if
		:: intr = 0
		:: intr = 1
		fi;
#else
		intr = 1;
#endif
		/* __kmutex_rwsem_down(read): add_fetch(BIAS) */
		atomic {
			count = count + BIAS;
			c = count;
			if
#ifndef BUSTED_READ_BARGE
			:: (c & (W | WT)) == 0 -> NO_BARGING; READ_IN; got = 1
#else
			/* Bug: only a writer stops the fast path; readers
			 * overtake queued writers. */
			:: (c & W) == 0 -> NO_BARGING; READ_IN; got = 1
#endif
			:: else
			fi;
			c = 0
		};
		if
		:: got
		:: else ->
#ifdef BUSTED_BIAS_EARLY
			/* Bug: the failed fast path backs its bias out at
			 * once, as up_read() would; the slow path below
			 * still believes it holds one. */
			count = count - BIAS;
#endif
			/* kmutex_down_read_slowpath(): our bias is in count */
			do
			:: wl_acquire();
				atomic {
					c = count;
					if
					:: !again && (c & (W | WT)) == 0 ->
						/* the conflict went away */
						NO_BARGING; READ_IN; got = 1
#ifndef BUSTED_WOKEN_HANDOFF
					:: again && (c & (W | HO)) == 0 ->
#else
					:: again && (c & W) == 0 ->
#endif
						/* woken once: keep it */
						NO_HANDOFF_BARGING; READ_IN;
						got = 1
					:: else
					fi;
					c = 0
				};
				if
				:: got -> wl_release(); break
				:: else
				fi;
#if defined(BUSTED_BIAS_LATE) || defined(BUSTED_BIAS_EARLY)
				/* Bug: the bias goes only after queuing (in
				 * rwsem_wait()). */
				count = count | WT;
#elif !defined(BUSTED_BIAS_ORDER)
				count = count | WT;		/* fetch_or */
				atomic {
					count = count - BIAS;	/* fetch_sub */
					if
					:: !again -> since_take()
					:: else
					fi
				}
#else
				/* Bug? the bias goes before WT is set. */
				atomic {
					count = count - BIAS;
					if
					:: !again -> since_take()
					:: else
					fi
				}
				count = count | WT
#endif
				;
#if defined(BUSTED_BIAS_LATE) || defined(BUSTED_BIAS_EARLY)
				d_step {
					if
					:: !again -> since_take()
					:: else
					fi
				}
#endif
				rwsem_wait(0);
				if
				:: retry -> retry = 0; again = 1
				:: else -> break	/* in, or -EINTR */
				fi;
				/* woken: add_fetch(BIAS), keep it unless a
				 * writer holds or a handoff is pending */
				atomic {
					count = count + BIAS;
					c = count;
					if
#ifndef BUSTED_WOKEN_HANDOFF
					:: (c & (W | HO)) == 0 ->
#else
					/* Bug: ignores a starving waiter. */
					:: (c & W) == 0 ->
#endif
						NO_HANDOFF_BARGING; READ_IN;
						got = 1;
						pend = 0; npend--
					:: else
					fi;
					c = 0
				};
				if
				:: got -> break
				:: else
				fi
			od;
			again = 0;
			since_drop()
		fi;
		intr = 0;
		c = 0;
		if
		:: got -> got = 0; up_read()	/* inside */
		:: else	/* -EINTR */
		fi

#ifdef WITH_TRYLOCKS
	:: /* down_read_trylock(): load, CAS loop while no W|WT */
		c = count;
		do
		:: (c & (W | WT)) != 0 -> break
		:: else ->
			if
			:: atomic { count == c ->
				count = c + BIAS;
				NO_BARGING; READ_IN; got = 1 };
				break
			:: atomic { count != c -> c = count }
			fi
		od;
		c = 0;
		if
		:: got -> got = 0; up_read()
		:: else
		fi
#endif

	:: /* down_write() / down_write_killable() / down_write_trylock() */
		if
#ifdef WITH_PLAIN
		:: intr = 0
#endif
		:: intr = 1
#ifdef WITH_TRYLOCKS
		:: try = 1		/* down_write_trylock() */
#endif
		fi;
		/* CAS 0 -> W; failed: the slow path takes its since */
		atomic {
			if
			:: count == 0 -> count = W; NO_BARGING; WRITE_IN; got = 1
			:: else ->
				if
				:: !try -> since_take()
				:: else
				fi
			fi
		};
		if
		:: got || try
		:: else ->
			/* kmutex_down_write_slowpath() */
			do
			:: /* rwsem_write_spin(): a spinner tries, up to
			    * RWSEM_SPINS times; one try stands for them all
			    * (the failed ones only read); the one that did
			    * not get the claim does not try at all */
				if
				:: skip
				:: rwsem_write_try()
				fi;
				if
				:: got -> break
				:: else
				fi;
				wl_acquire();
				rwsem_write_try();
				if
				:: got -> wl_release(); break
				:: else
				fi;
				rwsem_wait(1);
				if
				:: retry -> retry = 0	/* start over */
				:: else -> break	/* in, or -EINTR */
				fi
			od;
			since_drop()
		fi;
		intr = 0;
		try = 0;
		if
		:: got ->
			got = 0;
			if
			:: /* inside; up_write(): CAS W -> 0, else slow */
				atomic {
					win--;
					if
					:: count == W -> count = 0
					:: else -> got = 1	/* slow */
					fi
				};
				if
				:: got -> got = 0; rwsem_wake(UP_WRITE)
				:: else
				fi
			:: /* downgrade_write(): add_fetch(BIAS - W) */
				atomic {
					win--;
					count = count + BIAS - W;
					c = count;
					READ_IN;
					if
					:: (c & (WT | W)) != 0 -> pend = 1; npend++
					:: else
					fi;
					c = 0
				};
				if
				:: pend -> rwsem_wake(DOWNGRADE)
				:: else
				fi;
				up_read()	/* inside as a reader */
			fi
		:: else	/* -EINTR, or the trylock failed */
		fi

	:: atomic { done[me] = 1; ndone++ };
		break
	od
}

/*
 * The monitor: the invariants in every reachable state.  It is enabled
 * only when one fails, so it adds no states.
 */
active proctype monitor()
{
end:	atomic {
		!(EXCL_OK && WAITERS_OK && HANDOFF_OK && WOKEN_OK && HEAD_OK &&
		  NOT_ALL_STUCK && QUIET_OK) ->
			assert(EXCL_OK);
			assert(WAITERS_OK);
			assert(HANDOFF_OK);
			assert(WOKEN_OK);
			assert(HEAD_OK);
			assert(NOT_ALL_STUCK);
			assert(QUIET_OK)
	}
}

#ifdef REACH_SHARE
/* Readers do share: this claim must be violated. */
active proctype share()
{
end:	atomic { rin >= 2 -> assert(rin < 2) }
}
#endif
