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
 *   owner[l]        the holder's context: lock->ctx (with base.count).
 *   rank[c]         the order of the stamps, 0 = oldest (stamps only
 *                   grow, so only their order matters: a new stamp is
 *                   the youngest).
 *   waiting[c]      the lock context c is queued on (ww_enqueue: the
 *                   wait list is in stamp order, so "the first waiter"
 *                   is the oldest one waiting).
 *   woken[c]        its waiter's state word: 1 = WOKEN (by an unlock,
 *                   by ww_check_waiters() to die, or by a wound).
 *   acquired[c], wounded[c]   ctx->acquired, ctx->wounded.
 *   lock            kmutex_ww_mutex_lock_slowpath(): take the lock if
 *                   free; else queue, check the rules (ww_must_back_off)
 *                   and for every waiter (ww_check_waiters), sleep until
 *                   woken, retry.  Each step under the lock's wait_lock
 *                   is one atomic step here.
 *   take            ww_acquired_slow() and, for the fast path, its
 *                   kmutex_ww_mutex_fast_waiters(): the new holder
 *                   checks the rules for every waiter.
 *   back off        ww_must_back_off(): wait-die's rule; under
 *                   wound-wait, wounded, or younger than a holder that
 *                   waits itself (WW_YOUNGER_BACKS_OFF; the C code reads
 *                   the holder's published sleeping waiter).
 *   wound           ww_wound(): set wounded, wake the context if it
 *                   sleeps in a lock (ctx->sleeping).
 *   unlock          ww_mutex_unlock() and mutex.c's slow unlock: free
 *                   the lock, wake the first waiter (the oldest).
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
byte rank[N];
byte waiting[N];
bit woken[N];
byte acquired[N];
bit wounded[N];
byte running = N;
/*
 * Scratch variables of the atomic steps, not part of the state (each
 * atomic step sets them before use).
 */
hidden byte j, x, f, l2;
hidden byte r, r2;

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
			/* wounded, or behind an older holder that waits */
			r = wounded[x] || (owner[l] != NONE && owner[l] != x &&
				older(owner[l], x) && waiting[owner[l]] != NONE)
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
	:: waiting[o] != NONE -> woken[o] = 1
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

inline take(l) {
	assert(owner[l] == NONE);
	owner[l] = me;
	held = held | (1 << l);
	acquired[me]++;
	check_waiters(l, me, NONE)
}

/* ww_mutex_unlock() of @l: wake the oldest waiter. */
inline unlock(l) {
	owner[l] = NONE;
	held = held & ~(1 << l);
	acquired[me]--;
	if
	:: acquired[me] == 0 -> wounded[me] = 0
	:: else
	fi;
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
	od;
	if
	:: f != NONE -> woken[f] = 1
	:: else
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
		:: owner[l] == NONE -> take(l); goto locked
		:: else -> waiting[me] = l; woken[me] = 0
		fi
	}
check:
	atomic {
		must_back_off(me, l, r);
		if
		:: r ->
			/* wait-die: the oldest never dies */
			assert(!WD || rank[me] != 0);
			waiting[me] = NONE;
			goto backoff
		:: else
		fi;
		check_waiters(l, owner[l], me)
	}
	/* sleep until woken, then retry (xchg(count, -1)) */
	atomic {
		woken[me] ->
		if
		:: owner[l] == NONE -> waiting[me] = NONE; take(l); goto locked
		:: else -> woken[me] = 0; goto check
		fi
	}
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
end_stopped:
	skip
}

/* Once every context has stopped, every lock is free. */
active proctype monitor()
{
end_watch:
	atomic {
		running == 0 ->
		j = 0;
		do
		:: j < NL -> assert(owner[j] == NONE); j++
		:: else -> break
		od
	}
}

init {
	byte i;

	atomic {
		i = 0;
		do
		:: i < NL -> owner[i] = NONE; i++
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
