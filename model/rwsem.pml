/*
 * model/rwsem.pml - Promela model of kmutex's struct rw_semaphore protocol.
 *
 * Change together with src/rwsem.c and include/linux/rwsem.h: this file
 * is only worth something while it says what the C code does.  Run it
 * with model/check_rwsem (spin -a, gcc, ./pan); model/RWSEM.md says what
 * is proven, what is abstracted and what the numbers were.
 *
 * What it models, and where each part is in the C code:
 *
 *   count            struct rw_semaphore .count with its real encoding:
 *                    bit 0 RWSEM_WRITER_LOCKED (W), bit 1
 *                    RWSEM_FLAG_WAITERS (WT), RWSEM_READER_BIAS (256)
 *                    per reader, including readers passing through a
 *                    failed fast path.  Every C atomic on it (add_fetch,
 *                    sub_fetch, CAS, fetch_or, fetch_and, fetch_add,
 *                    load) is exactly one Promela step, in the C order.
 *   fast paths       <linux/rwsem.h>: __kmutex_read_fast() (add_fetch
 *                    BIAS, fails on W|WT, keeps the bias), up_read()
 *                    (sub_fetch BIAS, slow if the result is WT or < 0),
 *                    down_write()/down_write_killable() (CAS 0 -> W),
 *                    up_write() (CAS W -> 0, else slow),
 *                    downgrade_write() (add_fetch BIAS - W, slow on
 *                    WT|W), down_read_trylock() (load + CAS loop),
 *                    down_write_trylock() (CAS 0 -> W).
 *   wait_lock        src/wait_lock.[ch], a correct futex lock, abstracted
 *                    to a plain lock word (wl): only its mutual exclusion
 *                    matters to this protocol.
 *   wait_list        .wait_list, a FIFO of thread ids q[0..qlen-1];
 *                    isw[t] is the queued waiter's .flags (WAITER_WRITER).
 *   waiters          struct kmutex_waiter .state (src/waiter.h):
 *                    SLEEPING, or HANDOFF once granted (the rwsem never
 *                    uses WOKEN).
 *   futex            waiter_sleep() (src/waiter.c): block until
 *                    state[t] != SLEEPING.  The futex_wake() of
 *                    wake_q_wake() after rwsem_unlock_and_wake() drops
 *                    wait_lock is not modelled separately: every
 *                    wake_q_grant() is followed by one, so "blocked until
 *                    the state changes" is what the thread sees.  For an
 *                    interruptible wait a signal may end the sleep at any
 *                    moment, also after the grant (a signal between the
 *                    state store and the futex_wake): -EINTR with state
 *                    HANDOFF, the case rwsem_wait() re-checks.
 *   rwsem_grant()    exactly as written: nothing if the list is empty or
 *                    W is set; a writer at the head gets W by a CAS loop
 *                    unless READERS(c) != 0 (then return, WT kept);
 *                    else each reader at the head up to the first writer
 *                    gets fetch_add(BIAS), is dequeued and set HANDOFF;
 *                    then fetch_and(~WT) if the list is empty.
 *   rwsem_wait()     list_add_tail, rwsem_grant, drop wait_lock, sleep;
 *                    interrupted: under wait_lock keep a HANDOFF, else
 *                    list_del, rwsem_grant, fetch_and(~WT) if empty.
 *   down_read slow   kmutex_down_read_slowpath(): under wait_lock load
 *                    count; no W|WT: keep the bias and go in; else
 *                    fetch_or(WT), fetch_sub(BIAS), rwsem_wait().
 *   down_write slow  kmutex_down_write_slowpath(): under wait_lock CAS
 *                    0 -> W, else fetch_or(WT), rwsem_wait().
 *   releases         kmutex_rwsem_wake(): the fatal misuse checks (as
 *                    assertions: they must never fire on correct use),
 *                    under wait_lock fetch_and(~W) for up_write, then
 *                    rwsem_grant().
 *
 * Each of N (3) threads loops: it picks down_read(),
 * down_read_interruptible(), down_read_trylock(), down_write(),
 * down_write_killable() or down_write_trylock(); if it got the lock it
 * is inside for a step, then up_read(), or up_write(), or
 * downgrade_write() + up_read(); or it stops for good.  So every mix of
 * readers and writers and every number of rounds is covered; the state
 * is finite because nothing counts rounds, and stopping is what lets a
 * lost wake-up show as a thread blocked at a non-end state.
 *
 * Properties (see model/RWSEM.md):
 *   exclusion        asserted where a thread gets in: no writer with
 *                    anyone else; and count agrees (W set for a writer,
 *                    READERS(count) >= readers inside).
 *   no barging       every way in that does not queue (fast paths,
 *                    trylocks, the slow paths' own checks) asserts the
 *                    wait list is empty: in particular no reader gets in
 *                    past a queued writer (writer non-starvation, as far
 *                    as a bounded model says it: a queued writer is
 *                    overtaken by nobody, and goes in after at most the
 *                    waiters queued before it).
 *   monitor          in every state: WT set iff the list is non-empty
 *                    whenever wait_lock is free; no stalled head (wait_lock
 *                    free and no release between its count change and its
 *                    rwsem_grant(): the first waiter is a reader only
 *                    while W is set, a writer only while W or some reader
 *                    bias is there - so nobody sleeps who could be let
 *                    in); no lost wake-up (not all threads are stopped or
 *                    asleep with nobody to grant them); once all threads
 *                    stopped: count 0, list empty.
 *   deadlock         spin's invalid end states: every thread can finish.
 *   sharing          -DREACH_SHARE: asserts two readers are never inside
 *                    together; -DREACH_BATCH: asserts one rwsem_grant()
 *                    never lets two readers in; spin must find both
 *                    violated.
 *
 * Variants (spin -D...), run by model/check_rwsem:
 *   BUSTED_BIAS_EARLY    the failed read fast path backs its bias out at
 *                        once; the slow path keeps a bias it lacks.
 *   BUSTED_BIAS_LATE     the queuing reader drops its bias after the
 *                        rwsem_grant() that saw it (lost wake-up).
 *   BUSTED_GRANT_WAITERS rwsem_grant() does not clear WAITERS.
 *   BUSTED_INTR_GRANT    an interrupted waiter leaves without
 *                        rwsem_grant().
 *   BUSTED_READ_BARGE    the read fast path ignores WAITERS.
 *   BUSTED_BIAS_ORDER    the reader drops its bias before setting WAITERS
 *                        (src/rwsem.c lines 145/146 swapped): NOT a bug,
 *                        spin finds no error (model/RWSEM.md says why).
 *   NO_HEAD_OK           leave out the no-stalled-head invariant, to see
 *                        what the other checks catch alone.
 *   N=2, N=4             2 or 4 threads instead of 3.
 */

#ifndef N
#define N		3
#endif

#define NONE		255	/* empty list slot */

/* count bits, <linux/rwsem.h> */
#define W		1	/* RWSEM_WRITER_LOCKED */
#define WT		2	/* RWSEM_FLAG_WAITERS */
#define BIAS		256	/* RWSEM_READER_BIAS */
#define READERS(x)	((x) >> 8)

/* enum waiter_state, src/waiter.h */
#define SLEEPING	0
#define HANDOFF		2

/* __KMUTEX_RWSEM_* */
#define UP_READ		0
#define UP_WRITE	1
#define DOWNGRADE	2

short count;			/* .count */
byte  wl;			/* .wait_lock: 0 free, else holder id + 1 */
byte  q[N] = NONE;		/* .wait_list, q[0] is the first waiter */
byte  qlen;
bit   isw[N];			/* queued waiter is a writer (.flags) */
byte  state[N];			/* kmutex_waiter .state */

/* Ghosts, for the properties only. */
byte  rin;			/* readers inside */
byte  win;			/* writers inside */
byte  nwq;			/* writers on the wait list */
byte  npend;			/* releases between count change and grant */
bit   asleep[N];		/* thread is in waiter_sleep() */
bit   done[N];			/* thread has stopped for good */
byte  ndone;
#ifdef REACH_BATCH
byte  batch;			/* readers let in by this rwsem_grant() */
#endif

#define me		_pid	/* the threads are processes 0..N-1 */

/* --- the properties ----------------------------------------------------- */

/* Where a thread gets in. */
#define READ_IN \
	assert(win == 0); rin++; assert(READERS(count) >= rin)
#define WRITE_IN \
	assert(win == 0 && rin == 0); win++; assert((count & W) != 0)
/* Getting in without queuing: nobody may be waiting. */
#define NO_BARGING \
	assert(nwq == 0); assert(qlen == 0)

#define HEAD		q[0]
#define WAITERS_OK	(wl != 0 || ((count & WT) != 0) == (qlen > 0))
#ifndef NO_HEAD_OK
#define HEAD_OK		(wl != 0 || npend > 0 || qlen == 0 ||		\
			 (isw[HEAD] && ((count & W) != 0 ||		\
					READERS(count) > 0)) ||		\
			 (!isw[HEAD] && (count & W) != 0))
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
#define QUIET_OK	(ndone < N || (count == 0 && qlen == 0 && wl == 0))

/* --- wait_lock (wait_lock_acquire / wait_lock_release) ---------------- */

inline wl_acquire()
{
	atomic { wl == 0 -> wl = me + 1 }
}

/* A release that was pending (npend) is over once wait_lock is dropped. */
inline wl_release_()
{
	assert(wl == me + 1);
	wl = 0;
	if
	:: pend -> npend--; pend = 0
	:: else
	fi
}

inline wl_release()
{
	d_step { wl_release_() }
}

/* --- the wait list ------------------------------------------------------ */

/* list_add_tail(&w->node, &sem->wait_list); w is on the caller's stack,
 * freshly SLEEPING. */
inline list_add_tail(wr)
{
	d_step {
		state[me] = SLEEPING;
		q[qlen] = me;
		qlen++;
		isw[me] = wr;
		if
		:: wr -> nwq++
		:: else
		fi
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

/* rwsem_dequeue_granted() of the first waiter: list_del (private under
 * wait_lock) and wake_q_grant()'s store of WAITER_HANDOFF. */
inline dequeue_granted()
{
	d_step {
		t = HEAD;
		list_del(t);
		state[t] = HANDOFF;
		t = 0
	}
}

/* if (list_empty(&sem->wait_list)) fetch_and(~RWSEM_FLAG_WAITERS) */
inline clear_waiters_if_empty()
{
	d_step {
		if
		:: qlen == 0 -> count = count & ~WT
		:: else
		fi
	}
}

/* --- rwsem_grant() ------------------------------------------------------ */

inline rwsem_grant()
{
	c = count;				/* rwsem_first(), load */
	if
	:: qlen == 0 || (c & W) != 0 -> skip	/* return */
	:: else ->
		if
		:: isw[HEAD] ->
			/* first writer: CAS c -> c | W unless readers */
			do
			:: READERS(c) != 0 -> break	/* return */
			:: else ->
				if
				:: atomic { count == c -> count = c | W };
					break
				:: atomic { count != c -> c = count }
				fi
			od;
			if
			:: READERS(c) == 0 ->
				dequeue_granted();
#ifndef BUSTED_GRANT_WAITERS
				clear_waiters_if_empty()
#endif
			:: else	/* the last reader comes here again */
			fi
		:: else ->
			/* the readers at the head, up to the first writer */
			do
			:: atomic { qlen > 0 && !isw[HEAD] ->
					count = count + BIAS };
				dequeue_granted()
#ifdef REACH_BATCH
				; batch++; assert(batch < 2)
#endif
			:: else -> break
			od;
#ifdef REACH_BATCH
			batch = 0;
#endif
#ifndef BUSTED_GRANT_WAITERS
			clear_waiters_if_empty()
#endif
		fi
	fi;
	c = 0
}

/* --- rwsem_wait() ------------------------------------------------------- */

/* wait_lock held; the caller has set WT.  Sets got if it got in. */
inline rwsem_wait(wr)
{
	list_add_tail(wr);
	rwsem_grant();
#ifdef BUSTED_BIAS_LATE
	/* Bug: a reader drops its bias after rwsem_grant() saw it and left
	 * the first writer to "the last reader", which is this one. */
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
		state[me] = SLEEPING;	/* w is dead: canonical state */
		if
		:: wr -> WRITE_IN
		:: else -> READ_IN
		fi;
		got = 1 }
	:: atomic { intr -> asleep[me] = 0 }
		/* -EINTR: re-check under wait_lock */
		wl_acquire();
		if
		:: atomic { state[me] == HANDOFF ->
			/* granted as the signal came: keep it */
			state[me] = SLEEPING;
			if
			:: wr -> WRITE_IN
			:: else -> READ_IN
			fi;
			got = 1 }
		:: else ->
			d_step { list_del(me) };
#ifndef BUSTED_INTR_GRANT
			rwsem_grant();
#endif
			clear_waiters_if_empty()
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
		assert(op != UP_WRITE || (c & W) != 0)
	};
	wl_acquire();
	if
	:: op == UP_WRITE -> count = count & ~W
	:: else
	fi;
	rwsem_grant();
	wl_release()
}

/* --- the threads -------------------------------------------------------- */

active [N] proctype thread()
{
	short c;	/* a value of count this thread read */
	byte i, t;	/* list walks */
	bit intr;	/* interruptible / killable */
	bit try;	/* down_write_trylock() */
	bit got;	/* got the lock */
	bit pend;	/* this thread's release is pending (npend) */

	do
	:: /* down_read() / down_read_interruptible() */
		if
		:: intr = 0
		:: intr = 1
		fi;
		/* __kmutex_read_fast(): add_fetch(BIAS) */
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
			fi
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
			wl_acquire();
			atomic {
				c = count;
				if
				:: (c & (W | WT)) == 0 ->
					/* the conflict went away: keep it */
					NO_BARGING; READ_IN; got = 1
				:: else
				fi
			};
			if
			:: got -> wl_release()
			:: else ->
#if defined(BUSTED_BIAS_LATE) || defined(BUSTED_BIAS_EARLY)
				/* Bug: the bias goes only after queuing (in
				 * rwsem_wait()). */
				count = count | WT;
#elif !defined(BUSTED_BIAS_ORDER)
				count = count | WT;		/* fetch_or */
				count = count - BIAS;		/* fetch_sub */
#else
				/* Bug: the bias goes before WT is set. */
				count = count - BIAS;
				count = count | WT;
#endif
				rwsem_wait(0)
			fi
		fi;
		intr = 0;
		c = 0;
		if
		:: got ->
			got = 0;
			/* inside; up_read(): sub_fetch(BIAS) */
			atomic {
				rin--;
				count = count - BIAS;
				c = count;
				if
				:: c == WT || c < 0 -> pend = 1; npend++
				:: else
				fi
			};
			if
			:: pend -> rwsem_wake(UP_READ)
			:: else
			fi;
			c = 0
		:: else	/* -EINTR */
		fi

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
		:: got ->
			got = 0;
			atomic {
				rin--;
				count = count - BIAS;
				c = count;
				if
				:: c == WT || c < 0 -> pend = 1; npend++
				:: else
				fi
			};
			if
			:: pend -> rwsem_wake(UP_READ)
			:: else
			fi;
			c = 0
		:: else
		fi

	:: /* down_write() / down_write_killable() / down_write_trylock() */
		if
		:: intr = 0
		:: intr = 1
		:: try = 1		/* down_write_trylock() */
		fi;
		/* CAS 0 -> W */
		atomic {
			if
			:: count == 0 -> count = W; NO_BARGING; WRITE_IN; got = 1
			:: else
			fi
		};
		if
		:: got || try
		:: else ->
			/* kmutex_down_write_slowpath() */
			wl_acquire();
			atomic {
				if
				:: count == 0 ->
					count = W; NO_BARGING; WRITE_IN; got = 1
				:: else
				fi
			};
			if
			:: got -> wl_release()
			:: else ->
				count = count | WT;		/* fetch_or */
				rwsem_wait(1)
			fi
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
					fi
				};
				if
				:: pend -> rwsem_wake(DOWNGRADE)
				:: else
				fi;
				/* inside as a reader; up_read() */
				atomic {
					rin--;
					count = count - BIAS;
					c = count;
					if
					:: c == WT || c < 0 -> pend = 1; npend++
					:: else
					fi
				};
				if
				:: pend -> rwsem_wake(UP_READ)
				:: else
				fi;
				c = 0
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
		!(WAITERS_OK && HEAD_OK && NOT_ALL_STUCK && QUIET_OK) ->
			assert(WAITERS_OK);
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
