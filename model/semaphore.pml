/*
 * model/semaphore.pml - Promela model of kmutex's struct semaphore
 * protocol, as changed for issue 15 (bugs 1 and 2).
 *
 * Change together with src/semaphore.c, src/wait_lock.h and
 * include/linux/semaphore.h: this file is only worth something while it
 * says what the C code does.  Run it with model/check_semaphore (spin -a,
 * cc, ./pan); model/SEMAPHORE.md says what is proven, what is abstracted
 * and what the numbers were.
 *
 * What it models, and where each part is in the C code:
 *
 *   count            struct semaphore .count: n > 0 free units, 0 none,
 *                    -1 none and the wait list may be non-empty.  Every C
 *                    atomic on it is one Promela step.  A CAS loop is one
 *                    step: the step of its successful CAS, or of the read
 *                    that made it give up (a failed CAS only re-reads).
 *   fast paths       <linux/semaphore.h>: __kmutex_down_fast() (n > 0 ->
 *                    n - 1) and up()'s CAS (n >= 0 -> n + 1).
 *   wait_lock        src/wait_lock.h, a correct futex lock, abstracted to
 *                    a lock word (wl: 0 free, else holder + 1); a blocked
 *                    acquire is a thread waiting for wl == 0.  Its
 *                    FUTEX_WAKE after the release's xchg is no access.
 *   irq nodes        wait_lock_irq_acquire() / _release() / _find(): the
 *                    thread-local node a thread pushes before it takes
 *                    wait_lock and pops after it released it (node[t]),
 *                    with the count of up()s its handlers deferred to it
 *                    (deferred[t]).  The thread reads the count after the
 *                    pop and does that many up()s before its call returns.
 *   wait_list        .wait_list, a FIFO of waiter ids q[0..qlen-1].
 *   waiters          struct kmutex_waiter .state (SLEEPING, HANDOFF).
 *   futex            waiter_sleep() on .state: fq[t] is "thread t is
 *                    queued in FUTEX_WAIT on its state word" (compare and
 *                    queue in one step); up()'s wake_q_wake() after the
 *                    release dequeues it.  A late wake hits the thread's
 *                    next wait: the spurious wake-up the code tolerates.
 *                    The wake of a waiter's word is no semaphore access.
 *   down             kmutex_down_common_slowpath(): wait_lock, then
 *                    sem_take_or_mark(); timeout 0: sem_unmark_if_idle(),
 *                    -ETIME; else queue, release, sleep until HANDOFF or
 *                    giving up (a timeout, or a signal in
 *                    down_interruptible(): a free choice while asleep,
 *                    also after a handoff crossed it), then ALWAYS take
 *                    wait_lock again: HANDOFF is success, else unlink and
 *                    sem_unmark_if_idle().
 *   up               sem_up(): loop { CAS n >= 0 -> n + 1 and return (the
 *                    last access); else if this thread has a node for
 *                    the lock (a handler interrupted it), defer and
 *                    return; else take wait_lock: count -1 with waiters:
 *                    sem_grant() (unlink the first, unmark if idle,
 *                    HANDOFF, release, wake); else release and loop }.
 *                    Never publishes a unit while holding wait_lock.
 *   signal handler   a thread with handlers left may, between any two of
 *                    its steps, run a handler that calls up() in its
 *                    context (its id, its node): hook().  The handler is
 *                    not interrupted itself (a handler's own signal is
 *                    blocked while it runs), except with -DNESTED: then
 *                    another signal's handler may interrupt it once.  A handler that interrupts
 *                    FUTEX_WAIT ends that wait (-EINTR): down() waits
 *                    again, down_interruptible() may return.
 *
 * Two configurations:
 *
 *   default (3 threads)  each thread does up to ROUNDS (2) calls, each
 *                    one of up(), down(), a down that may give up while
 *                    asleep (down_interruptible() / down_timeout(t > 0))
 *                    and down_timeout(0); or stops.  Each has HMAX (1)
 *                    signal handler calling up() at any moment.  Initial
 *                    count INIT (0).
 *   -DUAF (2 threads)    issue 15's use-after-free: W (thread 0) calls
 *                    down_timeout(), which may time out, then down()
 *                    until it has every unit that will ever be up()ed,
 *                    then frees the semaphore (freed = 1); P (thread 1)
 *                    calls up(), and with -DUAF_HANDLER a handler in P
 *                    calls up() once too, at any moment of P's call (or
 *                    after it).
 *
 * Properties:
 *   - in every state (monitor): units are conserved, ups published ==
 *     downs that got a unit + free units (count > 0) + units handed to a
 *     waiter that has not yet taken them; count >= -1; whenever wait_lock
 *     is free, count == -1 exactly when the list is non-empty (so a
 *     lock-free up() never skips a waiter, and the slow up() always finds
 *     one: the C code's "cannot happen" is asserted in place);
 *   - when nothing can move any more (spin's timeout: threads finished
 *     or asleep in down() with no handler left): wait_lock free, no unit
 *     handed to a thread that still sleeps (a lost wake-up), every up()
 *     called was published (none lost in a deferral), no node or
 *     deferral left;
 *   - no deadlock: spin's invalid-end-state check (only a down() asleep
 *     on its state word is a valid end: its unit may never come);
 *   - no use-after-free (-DUAF): every access to count, wait_lock or the
 *     list asserts !freed.
 *
 * Deliberately broken variants, one plausible bug each (spin -D...):
 *   OLD_UP        issue 15 bug 2: up()'s slow path publishes count + 1
 *                 (or 1 with the list empty) under wait_lock, then
 *                 releases: a use-after-free (with -DUAF)
 *   NO_DEFER      issue 15 bug 1: a handler's up() takes wait_lock even
 *                 when its own thread holds it: a deadlock
 *   POP_EARLY     the node is popped before wait_lock is released: a
 *                 handler in between finds no node and deadlocks
 *   READ_EARLY    the deferred count is read before the release: a
 *                 handler in between defers an up() nobody does
 *   NO_RECHECK    a waiter that gave up trusts its -ETIME / -EINTR and
 *                 ignores a HANDOFF that crossed it: a unit lost
 *   NO_RELOCK     a waiter handed the unit returns without taking
 *                 wait_lock: it may free the semaphore before up()'s
 *                 release (with -DUAF)
 *   SPLIT_DEFER   the deferral is a load, then a store of the value
 *                 plus one (not one atomic increment): a nested handler
 *                 in between loses an up() (with -DNESTED)
 * model/check_semaphore runs them all.
 */

#ifdef UAF
#define N		2
#define W_ID		0	/* the waiter that frees the semaphore */
#define P_ID		1	/* the thread that calls up() */
#ifdef UAF_HANDLER
#define UPS_TOTAL	2
#else
#define UPS_TOTAL	1
#endif
#else
#ifndef N
#define N		3
#endif
#endif
#ifndef ROUNDS
#define ROUNDS		2
#endif
#ifndef HMAX
#define HMAX		1
#endif
#ifndef INIT
#define INIT		0
#endif
#ifndef HMASK
#define HMASK		7	/* the threads that have handlers, one bit each */
#endif

#define NONE		255	/* no waiter / empty list slot */

/* enum waiter_state, src/waiter.h (WOKEN is not used by semaphores) */
#define SLEEPING	0
#define HANDOFF		2

/* the kinds of down */
#define PLAIN		0	/* down(): waits as long as it takes */
#define GIVEUP		1	/* down_interruptible(), down_timeout(t > 0) */
#define TRY0		2	/* down_timeout(0): never waits */

/* where a thread goes after the up()s it has to do */
#define R_NEXT		0	/* its next call */
#define R_SLEEP		1	/* the sleep of the down() it queued for */
#define R_DOWN		2	/* the end of a down() */

short count = INIT;		/* struct semaphore .count */
byte  wl;			/* .wait_lock: 0 free, else holder id + 1 */
byte  q[N] = NONE;		/* .wait_list, q[0] is the first waiter */
byte  qlen;
byte  state[N];			/* kmutex_waiter .state (SLEEPING = 0) */
bit   fq[N];			/* thread queued in FUTEX_WAIT on .state */
bit   node[N];			/* a wait_lock_irq node for .wait_lock */
byte  deferred[N];		/* that node's .deferred */
bit   freed;			/* the semaphore was freed (-DUAF) */

byte  hleft[N];			/* signal handlers still to come */

/* Ghosts, for the properties only. */
bit   parked[N];		/* in down()'s FUTEX_WAIT, cannot give up */
bit   done[N];			/* finished */
byte  upsopen;			/* up() calls whose unit is not yet out */
short units = INIT;		/* units published (CAS n -> n + 1, HANDOFF)
				 * less units taken by down()s */
byte  handed;			/* waiters in state HANDOFF */

/* --- the wait list (list_add_tail / list_del), under wait_lock --------- */

inline list_add_tail(t)
{
	q[qlen] = t;
	qlen++
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
	i = 0
}

/* sem_unmark_if_idle(): with nobody left waiting, fast paths work again */
inline unmark_if_idle()
{
	if
	:: qlen == 0 -> count = 0
	:: else
	fi
}

/* --- wait_lock with its irq node (src/wait_lock.h) ---------------------- */

/*
 * wait_lock_irq_acquire(): push the node, then take the lock.  A read of
 * the word while it is held is an access too: a thread blocked on a
 * freed semaphore's lock is caught when it looks.  H: the hook for a
 * signal handler between steps (skip inside a handler).
 */
#define WL_LOCK(H)							\
	atomic { node[me] = 1; deferred[me] = 0 };			\
	H;								\
	atomic { (wl == 0 || freed) -> assert(!freed); wl = me + 1 }

#if defined(POP_EARLY)
/* Bug: pops the node, then releases: a handler in between finds no
 * node and waits for the lock its own thread holds. */
#define WL_UNLOCK(todo, H)						\
	node[me] = 0;							\
	H;								\
	atomic { assert(!freed); assert(wl == me + 1); wl = 0 };	\
	H;								\
	atomic { todo = todo + deferred[me]; deferred[me] = 0 }
#elif defined(READ_EARLY)
/* Bug: takes the deferred up()s, then releases: a handler in between
 * defers to a node whose count nobody reads again. */
#define WL_UNLOCK(todo, H)						\
	atomic { todo = todo + deferred[me]; deferred[me] = 0 };	\
	H;								\
	atomic { assert(!freed); assert(wl == me + 1); wl = 0 };	\
	H;								\
	node[me] = 0
#else
/*
 * wait_lock_irq_release(): the release's xchg (its FUTEX_WAKE of the
 * word is no access), then pop the node, then read what handlers left
 * in it: a handler before the pop deferred and is seen; one after it
 * takes the lock itself.
 */
#define WL_UNLOCK(todo, H)						\
	atomic { assert(!freed); assert(wl == me + 1); wl = 0 };	\
	H;								\
	atomic { node[me] = 0; todo = todo + deferred[me]; deferred[me] = 0 }
#endif

/* --- up() ---------------------------------------------------------------- */

/*
 * UP_LOOP: do todo up()s (sem_up(); the first CAS is the inline fast
 * path).  A release inside adds the up()s deferred to it meanwhile, as
 * sem_unlock() does them before returning.  pubd, c and w are scratch;
 * H is the handler hook.
 */
#ifndef OLD_UP
#define UP_SLOW(todo, c, w, pubd, H)					\
	WL_LOCK(H);							\
	atomic {							\
		assert(!freed);						\
		c = count;						\
		if							\
		:: c < 0 ->						\
			assert(qlen > 0);	/* "cannot happen" */	\
			w = q[0];					\
			list_del(w);					\
			unmark_if_idle()				\
		:: else							\
		fi							\
	};								\
	H;								\
	if								\
	:: c < 0 ->	/* sem_grant() */				\
		atomic { state[w] = HANDOFF; handed++; upsopen--; units++ };	\
		H;							\
		WL_UNLOCK(todo, H);					\
		H;							\
		fq[w] = 0;	/* wake_q_wake(): no access */		\
		atomic { c = 0; w = NONE };				\
		break							\
	:: else ->	/* they left: publish lock-free */		\
		c = 0;							\
		WL_UNLOCK(todo, H);					\
		H							\
	fi
#else
/* Issue 15 bug 2: publishes under wait_lock, then releases; after the
 * publish, a fast-path down() may take the unit and free the semaphore
 * before the release writes it. */
#define UP_SLOW(todo, c, w, pubd, H)					\
	WL_LOCK(H);							\
	atomic {							\
		assert(!freed);						\
		c = count;						\
		if							\
		:: c >= 0 -> count++; upsopen--; units++; pubd = 1		\
		:: c < 0 && qlen == 0 -> count = 1; upsopen--; units++; pubd = 1	\
		:: else ->						\
			w = q[0];					\
			list_del(w);					\
			unmark_if_idle()				\
		fi							\
	};								\
	H;								\
	if								\
	:: pubd ->							\
		pubd = 0;						\
		c = 0;							\
		WL_UNLOCK(todo, H);					\
		H;							\
		break							\
	:: else ->							\
		atomic { state[w] = HANDOFF; handed++; upsopen--; units++ };	\
		H;							\
		WL_UNLOCK(todo, H);					\
		H;							\
		fq[w] = 0;						\
		atomic { c = 0; w = NONE };				\
		break							\
	fi
#endif

#if defined(NO_DEFER)
/* Issue 15 bug 1: the handler takes wait_lock like anyone. */
#define UP_DEFER(c, H)	skip
#elif defined(SPLIT_DEFER)
/* Bug (with nested handlers): the count is loaded, then stored plus
 * one; a handler in between adds an up() that the store overwrites. */
#define UP_DEFER(c, H)							\
	if								\
	:: node[me] ->							\
		c = deferred[me];					\
		H;							\
		atomic { deferred[me] = c + 1; c = 0 };			\
		break							\
	:: else								\
	fi
#else
/* wait_lock_irq_find(): this thread has a node for the lock, so this is
 * a handler that interrupted it: leave the up() in the node, with one
 * atomic increment (a nested handler may do the same meanwhile). */
#define UP_DEFER(c, H)							\
	if								\
	:: node[me] -> deferred[me]++; break				\
	:: else								\
	fi
#endif

#define UP_LOOP(todo, c, w, pubd, H)					\
	do								\
	:: todo == 0 -> break						\
	:: else ->							\
		todo--;							\
		do							\
		:: atomic {						\
			assert(!freed);					\
			if						\
			:: count >= 0 -> count++; upsopen--; units++; pubd = 1	\
			:: else						\
			fi						\
		   };							\
		   if							\
		   :: pubd -> pubd = 0; break				\
		   :: else						\
		   fi;							\
		   H;							\
		   UP_DEFER(c, H);					\
		   UP_SLOW(todo, c, w, pubd, H)				\
		od							\
	od

/* --- the signal handler ---------------------------------------------------- */

#ifndef NESTED
/* A handler in thread me calls up(); it is not interrupted itself. */
inline handler()
{
	atomic { upsopen++; htodo = 1 };
	UP_LOOP(htodo, hc, hw, hpubd, skip)
}
#else
/*
 * -DNESTED: another signal's handler may interrupt the first one, once
 * (the first handler's own signal is blocked, another one is not), and
 * calls up() too, in the same thread's context.
 */
inline handler2()
{
	atomic { upsopen++; h2todo = 1 };
	UP_LOOP(h2todo, h2c, h2w, h2pubd, skip)
}

inline hook2()
{
	if
	:: h2left > 0 -> h2left--; handler2()
	:: skip
	fi
}

inline handler()
{
	atomic { upsopen++; htodo = 1 };
	UP_LOOP(htodo, hc, hw, hpubd, hook2())
}
#endif

/* Between two steps of the thread: maybe a signal handler runs. */
inline hook()
{
	if
	:: hleft[me] > 0 -> hleft[me]--; handler()
	:: skip
	fi
}

/* --- the threads ----------------------------------------------------------- */

active [N] proctype thread()
{
	byte me = _pid;	/* active processes are numbered from 0 */
	byte kind;	/* PLAIN, GIVEUP or TRY0 */
	byte todo;	/* up()s to do: the call's own and deferred ones */
	byte ret_to;	/* R_*: where to go when todo is done */
	bit got;	/* this down() has its unit */
	bit gaveup;	/* waiter_sleep() returned -ETIMEDOUT / -EINTR */
	bit pubd;
	short c;
	byte w = NONE;
	byte i;
	/* the handler's up(): its own locals, it interrupts anything */
	byte htodo;
	short hc;
	byte hw = NONE;
	bit hpubd;
#ifdef NESTED
	/* the nested handler's */
	byte h2left = 1;
	byte h2todo;
	short h2c;
	byte h2w = NONE;
	bit h2pubd;
#endif
#ifdef UAF
	byte mine;	/* W: units taken */
	bit first;	/* W: its first down, P: its up, are done */
#else
	byte rounds;
#endif

#ifdef UAF
	if
#ifdef UAF_HANDLER
	:: me == P_ID -> hleft[me] = 1
#endif
	:: else
	fi;
#else
	if
	:: (HMASK >> me) & 1 -> hleft[me] = HMAX
	:: else
	fi;
#endif

next:
#ifdef UAF
	if
	:: me == W_ID ->
		if
		:: mine == UPS_TOTAL -> freed = 1; goto finish	/* free() */
		:: else
		fi;
		if
		:: !first -> first = 1; kind = GIVEUP	/* down_timeout() */
		:: !first -> first = 1; kind = TRY0	/* down_timeout(0) */
		:: else -> kind = PLAIN			/* down() */
		fi;
		goto down
	:: me == P_ID ->
		if
		:: !first -> first = 1; atomic { upsopen++; todo = 1 };
			goto ups
		:: else ->
			/* the handler comes after up() returned, if not before */
			if
			:: hleft[me] > 0 -> hleft[me]--; handler()
			:: else
			fi;
			goto finish
		fi
	fi;
#else
	if
	:: rounds == ROUNDS -> goto finish
	:: else -> rounds++
	fi;
	if
	:: goto finish	/* stop for good */
	:: atomic { upsopen++; todo = 1 }; goto ups
	:: kind = PLAIN; goto down
	:: kind = GIVEUP; goto down
	:: kind = TRY0; goto down
	fi;
#endif

/* the up()s of this thread, its own or deferred to it */
ups:
	UP_LOOP(todo, c, w, pubd, hook());
	if
	:: ret_to == R_SLEEP -> ret_to = R_NEXT; goto sleep
	:: ret_to == R_DOWN -> ret_to = R_NEXT; goto down_done
	:: else -> goto next
	fi;

down:
	/* __kmutex_down_fast() */
	atomic {
		assert(!freed);
		if
		:: count > 0 -> count--; units--; got = 1
		:: else
		fi
	};
	if
	:: got -> goto down_done
	:: else
	fi;
	hook();
	/* kmutex_down_common_slowpath() */
	WL_LOCK(hook());
	atomic {	/* sem_take_or_mark() */
		assert(!freed);
		if
		:: count > 0 -> count--; units--; got = 1
		:: count == 0 -> count = -1
		:: else
		fi
	};
	hook();
	if
	:: got -> ret_to = R_DOWN
	:: !got && kind == TRY0 ->
		atomic { assert(!freed); unmark_if_idle() };	/* -ETIME */
		hook();
		ret_to = R_DOWN
	:: else ->
		atomic {
			assert(!freed);
			state[me] = SLEEPING;
			list_add_tail(me)
		};
		hook();
		ret_to = R_SLEEP
	fi;
	WL_UNLOCK(todo, hook());
	hook();
	goto ups;

sleep:
	/* waiter_sleep(): until state != SLEEPING, or giving up */
	do
	:: state[me] != SLEEPING -> break
	:: else ->
		/* FUTEX_WAIT(&state, SLEEPING): compare and queue at once */
		atomic {
			if
			:: state[me] == SLEEPING ->
				fq[me] = 1;
				parked[me] = (kind == PLAIN)
			:: else
			fi
		};
end_sleep:	/* down() may wait for ever: its unit may never come */
		if
		:: atomic { fq[me] == 0 -> parked[me] = 0 }
			/* woken, or the word differed */
		:: kind == GIVEUP -> fq[me] = 0; gaveup = 1; break
			/* the deadline passed, or (interruptible) a signal;
			 * maybe after a HANDOFF crossed it */
		:: hleft[me] > 0 ->
			atomic { fq[me] = 0; parked[me] = 0; hleft[me]-- };
			handler()
			/* a signal: FUTEX_WAIT returns -EINTR; down() and
			 * down_timeout() wait again, and an interruptible
			 * waiter may give up at the next round */
		fi
	od;
	hook();
#ifdef NO_RELOCK
	/* Bug: a waiter handed the unit returns at once; the up() that
	 * handed it may not have released wait_lock yet. */
	if
	:: atomic { state[me] == HANDOFF && !gaveup ->
			state[me] = SLEEPING; handed--; units--; got = 1 };
		goto down_done
	:: else
	fi;
#endif
	/* always take wait_lock again: up() releases it after the handoff */
	WL_LOCK(hook());
	atomic {
		assert(!freed);
		if
#ifdef NO_RECHECK
		/* Bug: gave up, so returns -ETIME / -EINTR without looking:
		 * a handoff that crossed the timeout or signal is dropped. */
		:: gaveup && state[me] == HANDOFF ->
			state[me] = SLEEPING; handed--
#endif
		:: else ->
			if
			:: state[me] == HANDOFF ->	/* keep it, even if
							 * giving up */
				state[me] = SLEEPING; handed--; units--;
				got = 1
			:: else ->
				list_del(me);
				unmark_if_idle()
			fi
		fi;
		gaveup = 0
	};
	hook();
	ret_to = R_DOWN;
	WL_UNLOCK(todo, hook());
	hook();
	goto ups;

down_done:
#ifdef UAF
	if
	:: me == W_ID && got -> mine++
	:: else
	fi;
#endif
	got = 0;
	kind = PLAIN;
	goto next;

finish:
	done[me] = 1
}

/* --- invariants ------------------------------------------------------------ */

#define UNITS		(count > 0 -> count : 0)
/* No unit created or lost, in every state: those published and not
 * taken are free or handed to a waiter. */
#define INV_UNITS	(units == UNITS + handed)
#define INV_COUNT	(count >= -1)
/* Between wait_lock sections: -1 exactly when someone waits.  So a
 * lock-free up() (which needs count >= 0) never passes a waiter, and a
 * waiter never sleeps while a unit is free. */
#define INV_MARK	(wl != 0 || ((count == -1) == (qlen > 0)))

/*
 * Nothing can move any more: each thread has finished or sleeps in
 * down() with no handler to come (written out for N <= 3).  Then
 * wait_lock is free, no unit is handed to a sleeper (a lost wake-up),
 * every up() called is published (none lost in a deferral), and no node
 * or deferral is left.
 */
#define STILL(t)	(t >= N || done[t] || \
			 (parked[t] && fq[t] && hleft[t] == 0))
#define IDLE(t)		(t >= N || (node[t] == 0 && deferred[t] == 0))
#define QUIESCENT	(STILL(0) && STILL(1) && STILL(2))
#define INV_QUIET	(!QUIESCENT || \
			 (wl == 0 && handed == 0 && upsopen == 0 && \
			  IDLE(0) && IDLE(1) && IDLE(2)))

#ifndef NO_INVARIANTS
#define INV		(INV_UNITS && INV_COUNT && INV_MARK && INV_QUIET)
#else
#define INV		(INV_UNITS && INV_QUIET)
#endif

active proctype monitor()
{
end:	atomic {
		!INV ->
		assert(INV_UNITS);
		assert(INV_COUNT);
		assert(INV_MARK);
		assert(INV_QUIET)
	}
}
