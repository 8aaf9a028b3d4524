/*
 * model/ww_mutex.pml - Promela model of the ww_mutex rules of
 * src/ww_mutex.c (wait-die with -DWAIT_DIE, wound-wait without).
 *
 * Change together with src/ww_mutex.c.  Run with model/check_ww;
 * model/WW.md says what is proven and what is abstracted.
 *
 * N contexts (3) each loop for ever: ww_acquire_init() (a new stamp: the
 * context becomes the youngest), lock K ww_mutexes of its own sequence,
 * unlock them all; or stop for good.  The sequences overlap in a cycle
 * (context i locks i, i+1, ... mod NL), so without the rules three
 * contexts deadlock.  On -EDEADLK a context unlocks everything, waits
 * for the contended lock with ww_mutex_lock_slow() and starts again.
 *
 * What it models, and where each part is in the C code:
 *
 *   count[l]        base.count: 1 free, 0 held, -1 held and waiters may
 *                   be queued (their unlock takes the slow path).
 *   owner[l]        the holder's context: lock->ctx, stored by the new
 *                   holder after it has the lock, cleared by its unlock.
 *   rank[c]         the order of the stamps, 0 = oldest (stamps only
 *                   grow, so only their order matters: a new stamp is
 *                   the youngest).
 *   waiting[c]      the lock context c is queued on (ww_enqueue: the
 *                   wait list is in stamp order, so "the first waiter"
 *                   is the oldest one waiting).
 *   woken[c]        its waiter's state word: 1 = WOKEN (by an unlock,
 *                   by ww_check_waiters() to die, by a wound, or passed
 *                   on by a leaving waiter), 0 = SLEEPING.
 *   sleeping[c]     ctx->sleeping: published by ww_sleep() (wound-wait,
 *                   holding locks) after the waiter's checks, cleared
 *                   when it wakes; what a wound wakes and what
 *                   WW_YOUNGER_BACKS_OFF reads.
 *   acquired[c], wounded[c]   ctx->acquired, ctx->wounded.
 *   lock            __kmutex_ww_lock_raw() (include/linux/ww_mutex.h):
 *                   the fast path in its own steps, compare-and-swap
 *                   count 1 -> 0 (no checks), store lock->ctx, read
 *                   count, and only if it is < 0 the holder's checks
 *                   (kmutex_ww_mutex_fast_waiters()); else
 *                   kmutex_ww_mutex_lock_slowpath(): xchg(count, -1),
 *                   take the lock if it was 1, else queue, check the
 *                   rules (ww_must_back_off) and for every waiter
 *                   (ww_check_waiters), sleep until woken, retry.  Each
 *                   section under the lock's wait_lock is one atomic
 *                   step here.
 *   take            ww_acquired_slow(): the new holder of the slow path
 *                   checks the rules for every waiter.
 *   back off        ww_must_back_off(): wait-die's rule; under
 *                   wound-wait, wounded, or younger than a holder that
 *                   sleeps (WW_YOUNGER_BACKS_OFF: the holder's published
 *                   ctx->sleeping).
 *   wound           ww_wound(): set wounded, wake the context if it
 *                   sleeps in a lock (ctx->sleeping).
 *   leave           ww_leave(): a waiter that gives up (-EDEADLK, or
 *                   -EINTR with -DINTR) unlinks; if the lock is held
 *                   with count 0 (a fast-path holder that did not check,
 *                   the woken waiter was to) it makes count -1 and
 *                   checks every waiter against lock->ctx; if it is free
 *                   it passes a wake-up on to the first waiter.
 *   unlock          ww_mutex_unlock() and mutex.c's slow unlock: forget
 *                   the context, count 0 -> 1, or (count -1) count 1 and
 *                   wake the first waiter (the oldest).
 *
 * -DINTR: every lock is ww_mutex_lock_interruptible(): a waiter that was
 * woken may instead have been interrupted (a free choice: waiter_sleep()
 * returns -EINTR), leaves, and its caller unlocks everything and ends
 * the transaction.  A signal that ends a sleep nobody woke is not
 * modelled.
 *
 * Deliberately broken variants (model/check_ww must catch each):
 *   BUSTED_NOKILL         nobody ever backs off.
 *   BUSTED_NOWAKE         a wound does not wake a context that sleeps.
 *   BUSTED_LEAVE_NOCHECK  ww_leave() as before the fix: it makes count
 *                         -1 under a fast-path holder but checks no
 *                         waiter against it.
 */

#ifndef N
#define N	3		/* contexts */
#endif
#ifndef NL
#define NL	3		/* ww_mutexes */
#endif
#ifndef K
#define K	2		/* locks per transaction */
#endif
#define NONE	255

#ifdef WAIT_DIE
#define WD	1
#else
#define WD	0
#endif

byte owner[NL];
short count[NL];
byte rank[N];
byte waiting[N];
bit woken[N];
bit sleeping[N];
byte acquired[N];
bit wounded[N];
byte running = N;
/*
 * Scratch variables of the atomic steps, not part of the state (each
 * atomic step sets them before use).
 */
hidden byte j, x, f, l2;
hidden byte r, r2;
hidden byte eintr;

#define older(a, b)	(rank[a] < rank[b])
#define seq(c, k)	(((c) + (k)) % NL)

/* Is some context older than @x waiting on @l? (result in @r) */
inline older_waiter(x, l, r) {
	r = 0;
	j = 0;
	do
	:: j < N ->
		if
		:: waiting[j] == l && j != x && older(j, x) -> r = 1
		:: else
		fi;
		j++
	:: else -> break
	od
}

/* ww_must_back_off(): result in @r (uses r2). */
inline must_back_off(x, l, r) {
	r = 0;
#ifndef BUSTED_NOKILL
	if
	:: acquired[x] > 0 ->
		if
		:: WD ->
			older_waiter(x, l, r2);
			r = r2 || (owner[l] != NONE && owner[l] != x &&
				   older(owner[l], x))
		:: else ->
			/* wounded, or behind an older holder that sleeps */
			r = wounded[x] || (owner[l] != NONE && owner[l] != x &&
				older(owner[l], x) && sleeping[owner[l]])
		fi
	:: else
	fi
#endif
}

/* ww_wound() */
inline wound(o) {
	assert(rank[o] != 0);	/* the oldest is never wounded */
	wounded[o] = 1;
#ifndef BUSTED_NOWAKE
	if
	:: sleeping[o] -> woken[o] = 1
	:: else
	fi
#endif
}

/* ww_check_waiters(): @o holds @l; @self is the checking waiter. */
inline check_waiters(l, o, self) {
	x = 0;
	do
	:: x < N ->
		if
		:: waiting[x] == l ->
			r = 0;
			if
			:: x != self -> must_back_off(x, l, r)
			:: else
			fi;
			if
			:: r -> woken[x] = 1
			:: !r && !WD && o != NONE && acquired[x] > 0 &&
			   older(x, o) && !wounded[o] ->
				wound(o)
			:: else
			fi
		:: else
		fi;
		x++
	:: else -> break
	od
}

/* The first (oldest) waiter on @l, or NONE, in @f. */
inline first_waiter(l, f) {
	f = NONE;
	j = 0;
	do
	:: j < N ->
		if
		:: waiting[j] == l && (f == NONE || older(j, f)) -> f = j
		:: else
		fi;
		j++
	:: else -> break
	od
}

/* ww_acquired_slow(): the slow path's new holder (wait_lock held). */
inline take(l) {
	first_waiter(l, f);
	if
	:: f == NONE -> count[l] = 0
	:: else
	fi;
	assert(owner[l] == NONE);
	owner[l] = me;
	held = held | (1 << l);
	acquired[me]++;
	check_waiters(l, me, NONE)
}

/*
 * ww_leave(): @me gives up waiting on @l (wait_lock held).  Held with
 * count 0: a fast-path holder that saw no waiters; check them for it.
 * Held with count -1: @me's own xchg may have set it, and @me backs off
 * before its checks; check them too (a caller that drops the
 * transaction then would leave the same hole).
 */
inline leave(l) {
	waiting[me] = NONE;
	first_waiter(l, f);
	if
	:: f != NONE && count[l] <= 0 ->
		count[l] = -1;
#ifndef BUSTED_LEAVE_NOCHECK
		check_waiters(l, owner[l], NONE)
#else
		skip
#endif
	:: f != NONE && count[l] == 1 -> woken[f] = 1
	:: else
	fi
}

/*
 * ww_mutex_unlock() of @l: forget the context; count 0 -> 1, or the
 * slow unlock: count 1 and wake the first (oldest) waiter.
 */
inline unlock(l) {
	assert(owner[l] == me && count[l] <= 0);
	owner[l] = NONE;
	held = held & ~(1 << l);
	acquired[me]--;
	if
	:: acquired[me] == 0 -> wounded[me] = 0
	:: else
	fi;
	if
	:: count[l] == 0 -> count[l] = 1
	:: else ->
		count[l] = 1;
		first_waiter(l, f);
		if
		:: f != NONE -> woken[f] = 1
		:: else
		fi
	fi
}

inline unlock_all() {
	l2 = 0;
	do
	:: l2 < NL ->
		if
		:: held & (1 << l2) -> unlock(l2)
		:: else
		fi;
		l2++
	:: else -> break
	od
}

proctype ctx(byte me)
{
	byte k, l, slowl;
	bit slow;
	byte held = 0;

idle:
end_idle:
	if
	:: true
	:: atomic { running--; goto end_stopped }
	fi;
	/* ww_acquire_init(): the youngest stamp */
	atomic {
		j = 0;
		do
		:: j < N ->
			if
			:: rank[j] > rank[me] -> rank[j]--
			:: else
			fi;
			j++
		:: else -> break
		od;
		rank[me] = N - 1;
		wounded[me] = 0;
		slowl = NONE;
		k = 0
	}
next:
	if
	:: k == K -> goto done
	:: else
	fi;
	l = seq(me, k);
	if
	:: l == slowl -> k++; goto next	/* held since lock_slow */
	:: else
	fi;
	slow = 0;
lock:
	atomic {
		if
		:: !slow && !WD && wounded[me] && acquired[me] > 0 ->
			goto backoff	/* a wounded context's next lock */
		:: else
		fi;
		if
		:: count[l] == 1 -> count[l] = 0; goto fast	/* CAS 1 -> 0 */
		:: else
		fi
	}
	/*
	 * kmutex_ww_mutex_lock_slowpath(): each pass through the loop is one
	 * section under wait_lock.  It comes here not queued yet, or woken
	 * (WOKEN), or wounded before it could publish where it sleeps
	 * (ww_sleep() returns at once).
	 */
wl:
	atomic {
		(waiting[me] == NONE || woken[me] ||
		 (!WD && acquired[me] > 0 && wounded[me] && !sleeping[me])) ->
		sleeping[me] = 0;
#ifdef INTR
		if
		:: waiting[me] != NONE && woken[me] -> eintr = 1; goto gone
		:: true
		fi;
#endif
		/* xchg(count, -1): take it if it was 1 */
		if
		:: count[l] == 1 ->
			count[l] = -1;
			waiting[me] = NONE;
			take(l);
			goto locked
		:: else ->
			count[l] = -1;
			waiting[me] = l;	/* queued (ww_enqueue) */
			woken[me] = 0		/* SLEEPING */
		fi;
		must_back_off(me, l, r);
		if
		:: r ->
			/* wait-die: the oldest never dies */
			assert(!WD || rank[me] != 0);
			eintr = 0;
			goto gone
		:: else
		fi;
		check_waiters(l, owner[l], me);
		if
		:: WD || acquired[me] == 0 -> goto wl	/* sleep */
		:: else -> goto publish
		fi;
gone:
		/* -EDEADLK or -EINTR: ww_leave() */
		leave(l);
		if
		:: eintr -> goto interrupted
		:: else -> goto backoff
		fi
	}
publish:
	/* ww_sleep(): publish ctx->sleeping, unless wounded already */
	atomic {
		if
		:: !wounded[me] -> sleeping[me] = 1
		:: else
		fi
	}
	goto wl;
fast:
	/* the fast path took it: store lock->ctx, then read count */
	atomic {
		assert(owner[l] == NONE);
		owner[l] = me;
		held = held | (1 << l);
		acquired[me]++
	}
	if
	:: count[l] < 0 ->
		/* kmutex_ww_mutex_fast_waiters(), under wait_lock */
		atomic { check_waiters(l, me, NONE) }
	:: else
	fi;
locked:
	if
	:: slow -> slowl = l; k = 0; goto next
	:: else -> k++; goto next
	fi;
backoff:
	atomic { unlock_all() };
	slow = 1;
	goto lock;
done:
progress:
	atomic { unlock_all() };
	goto idle;
interrupted:
	/* -EINTR: the caller unlocks everything, ends the transaction */
	atomic { unlock_all() };
	goto idle;
end_stopped:
	skip
}

/* Once every context has stopped, every lock is free (count 1). */
active proctype monitor()
{
end_watch:
	atomic {
		running == 0 ->
		j = 0;
		do
		:: j < NL -> assert(owner[j] == NONE && count[j] == 1); j++
		:: else -> break
		od
	}
}

init {
	byte i;

	atomic {
		i = 0;
		do
		:: i < NL -> owner[i] = NONE; count[i] = 1; i++
		:: else -> break
		od;
		i = 0;
		do
		:: i < N ->
			rank[i] = i;
			waiting[i] = NONE;
			run ctx(i);
			i++
		:: else -> break
		od
	}
}
