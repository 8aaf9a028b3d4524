// SPDX-License-Identifier: MIT
/*
 * mutex.c - the slow paths of struct mutex (fast paths: <linux/mutex.h>).
 *
 * The protocol (modelled in model/mutex.pml; change the two together):
 *
 *   count      1 free; 0 held; -1 held and the wait list may be non-empty.
 *              Only a thread holding wait_lock sets it to -1 for a
 *              waiter, so a holder's unlock finds -1 and comes here
 *              whenever there may be someone to wake.
 *   lock       fast path CAS 1 -> 0.  Slow path: spin a little (one
 *              spinner at a time), then under wait_lock xchg(count, -1);
 *              old value 1 means acquired, else queue at the tail and
 *              sleep on the waiter's own futex word.
 *   unlock     fast path CAS 0 -> 1.  Slow path, under wait_lock: if the
 *              first waiter is starving, hand the lock to it (count stays
 *              -1); else store 1 (so a running thread may take it at
 *              once: barging) and wake the first waiter, unless it was
 *              already woken and has not yet run (one woken at a time).
 *   woken      the first waiter retries xchg(count, -1) under wait_lock.
 *              (While the owner keeps the lock, a first waiter woken
 *              from an untimed sleep sleeps again, timed, first.)
 *              If it loses to a barger for longer than MUTEX_STARVE_NS
 *              since it queued, it asks for a handoff.
 *   leaving    an interrupted waiter unlinks itself; if others remain it
 *              makes sure the next unlock will wake them (count 0 -> -1)
 *              or, if the lock is already free, wakes the next itself: a
 *              wake-up meant for it is never swallowed.
 *   acquired   the new owner unlinks itself and, if the list is now
 *              empty, stores count 0 so that its unlock is fast again.
 */
#include "api.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include <linux/mutex.h>

#include "cpu.h"
#include "list.h"
#include "hooks.h"
#include "policy_count.h"
#include "ticks.h"
#include "tls.h"
#include "wait_lock.h"
#include "waiter.h"

/* Reads of count before queueing (with the backoff below, up to about
 * 120 us on the x86 measured, whose pause takes ~19 ns). */
#ifndef MUTEX_SPINS
#define MUTEX_SPINS		200
#endif
/*
 * Between two reads of count the spinner pauses 1, 2, 4 ... and then
 * MUTEX_SPIN_BACKOFF times: exponential backoff, as glibc's adaptive
 * mutex has done since 2.35 (without its jitter: one spinner at a time
 * has nobody to fall out of step with).  A spinner that reads every
 * pause pulls the lock's line to its CPU at once; one that reads less
 * often leaves the owner time to unlock and lock again on its own CPU,
 * so the lock, and the line, stay there for a few acquisitions.  That
 * matters where the lock word is most of what moves: measured in one
 * process against the build without it (far pair, 403-484 ns, 7 reps),
 * empty section 1.05 / 1.07 / 1.11 / 1.06x at 2 / 4 / 8 / 16 threads
 * (1.03 / 1.05 / 1.03 / 0.99x the adaptive pthread, against 0.95 / 0.96 /
 * 0.92 / 0.93x), 100 ns section and 24-line section 0.98-1.03x, CPU per
 * operation with 8 and 16 threads the same.  Near pair (73-156 ns, four
 * runs of 3 reps, other work running), 100 ns section: medians per run
 * 0.87-1.17x, even overall (0.93 / 1.01 / 1.00 / 1.05x).
 */
#ifndef MUTEX_SPIN_BACKOFF
#define MUTEX_SPIN_BACKOFF	32
#endif
/* The kernel hands off once the first waiter lost a race; Go after 1 ms. */
#ifndef MUTEX_STARVE_NS
#define MUTEX_STARVE_NS		1000000ull
#endif

static void __attribute__((noreturn, cold))
mutex_fatal(struct mutex *lock, const char *site, const char *what)
{
	fprintf(stderr, "kmutex: %s: mutex %p %s; aborting\n", site,
		(void *)lock, what);
	abort();
}

/*
 * Cheap checks that turn corruption into a clear message, then take
 * wait_lock.  The list is looked at under wait_lock, where it is written
 * (read before it, it would race with a waiter queueing: ThreadSanitizer
 * says so in the debugging build); a zeroed mutex has a free wait_lock.
 */
static void mutex_check_and_lock(struct mutex *lock, const char *site)
{
	/* RELAXED: a sanity check of the value, not a synchronisation. */
	int c = __atomic_load_n(&lock->count, __ATOMIC_RELAXED);

	if (c < -1 || c > 1)
		mutex_fatal(lock, site, "is corrupted (count out of range)");
	wait_lock_acquire(&lock->wait_lock);
	if (lock->wait_list.next == NULL)
		mutex_fatal(lock, site, "was never initialised "
			    "(use DEFINE_MUTEX or mutex_init)");
}

/*
 * Whether to take the lock at once when it is released, or leave it to
 * the thread that has it (issue 10).  A spinner that takes the lock at
 * every release runs the critical section on its CPU while the releaser
 * does its private work on the other: up to 1.7x pthread where the two
 * CPUs are near (~70 ns cache-line round trip).  But the lock and the
 * critical section's data then cross between the CPUs at every
 * acquisition; where they are far (350-450 ns: separate L3 complexes,
 * sockets), or the section writes many lines, that costs more than it
 * overlaps, and the lock does best staying with its owner, as a sleeping
 * lock's owner keeps it (pthread: the speed of one thread alone).
 *
 * Measured, not guessed, by the threads that come back for the lock: a
 * thread that took it in the slow path and comes back to the slow path
 * (the fast path failed) a cycle C later, then waits W for the release,
 * has held it H and worked privately P for C = H + P while the other
 * thread held it H after taking it, W = H - P.  Moving the lock pays
 * while H, the hold with the move's cost in it, is not much above P:
 * H < 1.5 P, that is W/C < 0.2.  Each thread averages W/C over a look
 * of MUTEX_SAMPLES samples; MUTEX_KEEP_LOOKS looks in a row above 0.375
 * make the owner keep the lock, process-wide (a flag written only on a
 * flip, so its line stays shared).  The keep side is wide because an
 * empty section's W is mostly the lock word's trip, which the other
 * thread's private work overlaps: with 0.25 it chose keep about half
 * the time on a far pair (463 ns) and ran 0.79-0.98x pthread at 2-16
 * threads; with 0.375, in the same make bench run, 0.96-1.03x, the
 * 100 ns and 24-line sections unchanged (they stay kept).
 * While the owner keeps the lock, spinners wait patiently
 * (mutex_spin_patient()), and MUTEX_PROBE_US after the flip the next
 * slow path lets the lock move again, so that the threads measure again:
 * the pair and the workload can change.  This catches both causes of
 * an expensive move, a far pair and a data-heavy section,
 * where timing only the lock word's move (~70 ns vs ~150 ns one way
 * here: AMD hands a just-read dirty line over exclusive, so a CAS after
 * the read is local and times nothing) would miss the second.
 * The idea of choosing by measured effect: SmartLocks (Eastep et al.).
 */
/* 1: choose between moving and keeping as below; 0: always move. */
#ifndef MUTEX_ADAPT
#define MUTEX_ADAPT		1
#endif
#ifndef MUTEX_KEEP_ABOVE
#define MUTEX_KEEP_ABOVE	96	/* W/C in 256ths: 0.375 */
#endif
#ifndef MUTEX_MOVE_BELOW
#define MUTEX_MOVE_BELOW	56	/* 0.22 */
#endif
#ifndef MUTEX_SAMPLES
#define MUTEX_SAMPLES		16	/* per look at the average */
#endif
#ifndef MUTEX_KEEP_LOOKS
#define MUTEX_KEEP_LOOKS	2
#endif
/*
 * How long the owner keeps the lock before the threads measure again:
 * by time, process-wide.  It was 1 slow path in 64 of each thread's
 * (MUTEX_PROBE_EVERY), but while the owner keeps the lock a thread
 * comes to the slow path about once per 100 us turn (MUTEX_KEEP_NS),
 * so one look above the threshold kept it for 6 ms and more, and with
 * 8 threads for most of a 0.2 s window: traced on a near pair (95-155
 * ns), 100 ns section, 8 threads, one flip to keep and one probe in
 * 0.6 s, 3.10 M ops/s against 4.39 never keeping.  One look of 16
 * samples, a few microseconds, decided for milliseconds; the trace
 * showed 1 in 200 looks above 0.375 where moving pays, every look above
 * it in the 24-line section.  Hence the looks in a row too.  A probe
 * costs the lock that should stay kept three looks of moving (one not
 * counted, below, two to keep again): in the 24-line section on a far
 * pair, 2 threads, 3.54 M ops/s probing every 1 ms against 4.03 every
 * 4 ms; on a near pair the 100 ns section was the same with either
 * (1.80-2.14x and 1.75-2.10x pthread, where it was 1.3-1.5x at 8-16
 * threads with the old probe).
 */
#ifndef MUTEX_PROBE_US
#define MUTEX_PROBE_US		4000
#endif
/*
 * A probe that only confirms the choice (the owners keep the lock again
 * within MUTEX_PROBE_SAME_US of it) doubles the time to the next one, up
 * to MUTEX_PROBE_MAX_US; any other flip to keep starts again from
 * MUTEX_PROBE_US.  Measured, far pair (440-552 ns), 24-line section,
 * 2-16 threads, 7 reps: a probe every 32 ms ran 1.02-1.06x one every
 * 4 ms, never probing 1.05-1.08x (each probe moves the lock for three
 * looks, and the section's 24 lines with it).
 */
#ifndef MUTEX_PROBE_MAX_US
#define MUTEX_PROBE_MAX_US	64000
#endif
#define MUTEX_PROBE_SAME_US	2000
#define MUTEX_CYCLE_MAX_NS	100000	/* longer: descheduled, or other work */

/*
 * The policy's clock, and how often it reads it.  The spinner reads the
 * clock when it sees the lock free, before its CAS, to end W and to
 * start the next C: in the gap between a release and the acquisition,
 * when nobody holds the lock.  With clock_gettime() (25 ns on kvm-clock)
 * at every handover, the always-moving build without the read ran
 * 1.06-1.10x the one with it on a near pair (100 ns section).  So the
 * policy counts in policy_ticks() (the TSC on x86: ~10 ns), and once a
 * thread's look has said "move", it times only one cycle in
 * MUTEX_TIME_EVERY until it sees the owner keep the lock: a look then
 * takes 8 times as many cycles, tens of microseconds, and timing every
 * cycle is only needed where the choice is close, near keep.  Timing
 * 1 in 8 throughout cost the keep side (far pair, 0.66-0.86x): it is
 * dense from a look above MUTEX_KEEP_ABOVE or a keep seen on.  Measured
 * against clock_gettime() at every cycle: docs/benchmark.md, "Policy
 * experiments".  MUTEX_POLICY_NS=1 counts in now_ns() (for comparison).
 */
#ifndef MUTEX_TIME_EVERY
#define MUTEX_TIME_EVERY	8
#endif
#if MUTEX_TIME_EVERY < 1
#error "MUTEX_TIME_EVERY: 1 (every cycle) or more"
#endif
#ifndef MUTEX_POLICY_NS
#define MUTEX_POLICY_NS		POLICY_TICKS_NS
#endif

static uint64_t mutex_ticks(void)
{
	return MUTEX_POLICY_NS ? now_ns() : policy_ticks();
}

/*
 * MUTEX_CYCLE_MAX_NS in ticks: at 4 ticks per ns until src/ticks.c has
 * calibrated them (a bound a few times too long only keeps a few cycles
 * that had other work in them).  The slow paths' entries, where the lock
 * is held (in W, not in the handover), take the readings.
 */
static uint64_t mutex_cycle_max(void)
{
	if (MUTEX_POLICY_NS)
		return MUTEX_CYCLE_MAX_NS;
	return ticks_from_ns(MUTEX_CYCLE_MAX_NS);
}

/* Tests only (make's keep variant): keep from the start, for ever. */
#ifndef MUTEX_FORCE_KEEP
#define MUTEX_FORCE_KEEP	0
#endif
/*
 * Tests only (make's count variant): every look says "move", and the
 * policy counts what it timed (src/policy_count.h).
 */
#ifndef MUTEX_POLICY_COUNT
#define MUTEX_POLICY_COUNT	0
#endif
#if MUTEX_POLICY_COUNT
KMUTEX_API __thread struct kmutex_policy_count kmutex_policy_count;
#define policy_count(field, n)	(kmutex_policy_count.field += (n))
#define policy_count_set(field, v)	(kmutex_policy_count.field = (v))
#else
#define policy_count(field, n)	do { } while (0)
#define policy_count_set(field, v)	do { } while (0)
#endif

/*
 * Process-wide: 0 while the lock moves, else since when the owner keeps
 * it, in units of 1024 ns (never 0; wraps after 73 minutes, compared by
 * difference).  32 bits: a plain atomic on 32-bit targets too.
 */
static uint32_t mutex_kept = MUTEX_FORCE_KEEP;
/* When the last probe let the locks move (ticks; 0: not since the flip) */
static uint32_t mutex_probed;
/* Keep this long before the next probe, in ticks */
static uint32_t mutex_probe_ticks = MUTEX_PROBE_US * 1000 / 1024;

static uint32_t mutex_now_ticks(void)
{
	uint32_t t = (uint32_t)(now_ns() >> 10);

	return t ? t : 1;
}

/*
 * While the owner keeps the lock, the first waiter sleeps at most
 * MUTEX_KEEP_NS and then wakes itself to try again; an unlock meanwhile
 * frees the lock without waking it (w->flags says so).  Waking it at
 * every unlock, as before, let it come back within a few microseconds and
 * take the lock in the owner's private work 2 times in 3: with 2
 * threads the lock crossed between the CPUs every few acquisitions, each
 * time with a FUTEX_WAKE and a FUTEX_WAIT, and ran at 0.3-0.5x pthread
 * (whose waker pays the same but whose waiter comes back later).  Now
 * the owner keeps the lock, and its data, for 100 us at a time with no
 * system call, and the waiters take turns: lock cohorting by time
 * (Dice et al., PPoPP 2012, hand a lock on within a cluster for a
 * bounded batch).  Measured in one make bench (far pair, 380-516 ns,
 * 2026-12-04) against the wake-every-unlock build: 2 threads 3.9x at
 * 100 ns and 2.7x in the 24-line section, 1.0-1.07x at 4-16 threads.
 * The cost: a waiter whose lock is freed within MUTEX_KEEP_NS of its
 * sleep, and not taken again, waits until then (never longer; the
 * starving waiter's handoff is untimed and woken as before).
 *
 * A waiter that becomes first while asleep slept untimed, and the next
 * unlock wakes it.  It then sleeps again at once, timed, without trying
 * for the lock: trying, it took the lock in the owner's private work
 * about 13 us after the wake-up, so that with 3 threads or more (the
 * next waiter asleep untimed again) the lock crossed to the other CPU
 * every ~15 us, with a FUTEX_WAKE each time (traced with perf sched,
 * far pair, 24-line section, 4 threads).  Measured against trying at
 * once, same run, far pair (447-493 ns), 24-line section: 1.05x at 4
 * threads (3.67 against 3.49 M ops/s; 1.12x with the lock kept for
 * ever), the same at 2, 8 and 16 threads.
 */
#ifndef MUTEX_KEEP_NS
#define MUTEX_KEEP_NS		100000
#endif

static __thread KMUTEX_TLS struct {
	struct mutex *lock;	/* taken in a slow path last ... */
	uint64_t acquired;	/* ... at this time (ticks; 0: not timed) */
	unsigned int sum;	/* of W/C in 256ths, this look's samples */
	unsigned int n;		/* samples in this look */
	unsigned int above;	/* looks in a row above MUTEX_KEEP_ABOVE */
	unsigned int skip;	/* cycles not to time before the next */
	bool sparse;		/* time 1 cycle in MUTEX_TIME_EVERY */
	bool settle;		/* the owner kept the lock during this look */
} mutex_tl;

/* Whether the cycle that the next acquisition starts is to be timed. */
static bool mutex_time_next(void)
{
	return MUTEX_ADAPT && !mutex_tl.skip;
}

/*
 * The slow path took @lock; @when: mutex_ticks() then if the cycle that
 * starts now is to be timed (mutex_time_next()), else 0; @stat:
 * hook_clock() then.
 */
static void mutex_took(struct mutex *lock, uint64_t when, uint64_t stat)
{
	policy_count_set(every, MUTEX_TIME_EVERY);
	policy_count(took[mutex_tl.sparse], 1);
	policy_count(timed[mutex_tl.sparse], when != 0);
	mutex_tl.lock = lock;
	mutex_tl.acquired = when;
	if (!when)
		mutex_tl.skip -= mutex_tl.skip > 0;
	else if (mutex_tl.sparse)
		mutex_tl.skip = MUTEX_TIME_EVERY - 1;
	else
		mutex_tl.skip = 0;
	hook_took(stat);
}

/* mutex_took() for the paths that took the lock other than spinning. */
static void mutex_took_now(struct mutex *lock)
{
	mutex_took(lock, mutex_time_next() ? mutex_ticks() : 0, hook_clock());
}

/*
 * The owners keep their locks from now on; when to probe next.  The
 * variables are shared lines written only on a flip (racing flips are
 * harmless: each stores a sane value).
 */
static void mutex_probe_next(void)
{
	uint32_t now = mutex_now_ticks();
	uint32_t probed = __atomic_load_n(&mutex_probed, __ATOMIC_RELAXED);
	uint32_t next = MUTEX_PROBE_US * 1000 / 1024;

	if (probed && now - probed < MUTEX_PROBE_SAME_US * 1000 / 1024) {
		next = __atomic_load_n(&mutex_probe_ticks, __ATOMIC_RELAXED) * 2;
		if (next > MUTEX_PROBE_MAX_US * 1000 / 1024)
			next = MUTEX_PROBE_MAX_US * 1000 / 1024;
	}
	__atomic_store_n(&mutex_probe_ticks, next, __ATOMIC_RELAXED);
	__atomic_store_n(&mutex_probed, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&mutex_kept, now, __ATOMIC_RELAXED);
}

/* The end of a look: @avg, its mean W/C in 256ths. */
static void mutex_policy_look(unsigned int avg)
{
	bool kept = __atomic_load_n(&mutex_kept, __ATOMIC_RELAXED);

	policy_count(looks, 1);
	if (MUTEX_POLICY_COUNT)
		avg = 0;
	/*
	 * A look that began while the owner kept the lock, or spans the
	 * probe, measures the change of regime (waiters waking up, cold
	 * caches), not the regime: it is not counted.
	 */
	if (mutex_tl.settle) {
		mutex_tl.settle = false;
		mutex_tl.above = 0;
		return;
	}
	/* Moving pays: time less often; near keep: every cycle. */
	mutex_tl.sparse = avg <= MUTEX_KEEP_ABOVE;
	if (avg <= MUTEX_KEEP_ABOVE) {
		mutex_tl.above = 0;
		/* A shared line: written only when the choice flips. */
		if (kept && avg < MUTEX_MOVE_BELOW)
			__atomic_store_n(&mutex_kept, 0, __ATOMIC_RELAXED);
		return;
	}
	if (++mutex_tl.above < MUTEX_KEEP_LOOKS || kept)
		return;
	mutex_tl.above = 0;
	mutex_probe_next();
}

static void mutex_policy_sample(uint64_t wait, uint64_t cycle)
{
	uint64_t r = cycle ? wait * 256 / cycle : 256;

	if (MUTEX_FORCE_KEEP)
		return;
	policy_count(samples, 1);
	policy_count_set(per_look, MUTEX_SAMPLES);
	mutex_tl.sum += r < 256 ? (unsigned int)r : 256;
	if (++mutex_tl.n < MUTEX_SAMPLES)
		return;
	mutex_policy_look(mutex_tl.sum / MUTEX_SAMPLES);
	mutex_tl.sum = 0;
	mutex_tl.n = 0;
}

/*
 * Whether owners keep their locks now (the choice is process-wide).
 * MUTEX_PROBE_US (or, after probes that changed nothing, up to
 * MUTEX_PROBE_MAX_US) after they began to, the first thread here lets
 * the locks move again (the probe).
 */
static bool mutex_keeping(void)
{
	uint32_t since = __atomic_load_n(&mutex_kept, __ATOMIC_RELAXED), now;

	if (!MUTEX_ADAPT || !since)
		return false;
	mutex_tl.settle = true;
	mutex_tl.sparse = false;
	mutex_tl.skip = 0;
	now = mutex_now_ticks();
	if (MUTEX_FORCE_KEEP || now - since <
	    __atomic_load_n(&mutex_probe_ticks, __ATOMIC_RELAXED))
		return true;
	__atomic_store_n(&mutex_probed, now, __ATOMIC_RELAXED);
	__atomic_store_n(&mutex_kept, 0, __ATOMIC_RELAXED);
	return false;
}

/*
 * While the owner keeps the lock, a thread in the slow path does not
 * spin at all (0), or waits patiently (N pauses between reads, taking
 * the lock only when it was free at two reads in a row).  Measured in
 * one make bench run with both built in (kmutex-patient against
 * kmutex, far pair, 429 ns, quiet), sleeping at once won at 4-16
 * threads: 1.33-1.38x pthread at 100 ns against 0.82-0.97 patient, and
 * 4.0-4.7 M ops/s in the 24-line section (absl's speed, one thread's)
 * against 1.2-2.3; the lock free at two reads 32 pauses apart is not
 * rare (the owner is away half the time), so the patient spinner still
 * took it across.  It lost at 2 threads, 100 ns: 0.31x pthread against
 * 0.93 (issue 10, open).
 */
#ifndef MUTEX_PATIENT_PAUSES
#define MUTEX_PATIENT_PAUSES	0
#endif

static bool mutex_spin_patient(struct mutex *lock)
{
	bool got = false, free_before = false;
	int i, j;

	if (MUTEX_PATIENT_PAUSES == 0 || !spinner_claim(&lock->spinner))
		return false;
	for (i = 0; i < MUTEX_SPINS; i++) {
		int c = __atomic_load_n(&lock->count, __ATOMIC_RELAXED);

		if (c == 1 && free_before &&
		    __kmutex_mutex_trylock_fast(lock)) {
			mutex_took_now(lock);
			got = true;
			break;
		}
		free_before = c == 1;
		for (j = 0; j < MUTEX_PATIENT_PAUSES; j++)
			cpu_relax();
	}
	spinner_release(&lock->spinner);
	return got;
}

/*
 * This slow path's cycle C (ticks) and its start of W, @enter, if its
 * cycle was timed; else ~0.
 */
static uint64_t mutex_cycle(struct mutex *lock, uint64_t *enter)
{
	uint64_t max;

	if (!MUTEX_ADAPT || mutex_tl.lock != lock || !mutex_tl.acquired)
		return ~0ull;
	*enter = mutex_ticks();
	if (!MUTEX_POLICY_NS)
		ticks_calibrate(false);
	max = mutex_cycle_max();
	/* Also drops a count that went back (another CPU's counter). */
	if (*enter - mutex_tl.acquired >= max)
		return ~0ull;
	return *enter - mutex_tl.acquired;
}

static bool mutex_spin(struct mutex *lock)
{
	uint64_t enter = 0, cycle;
	unsigned int pauses = 1, j;
	bool got = false;
	int i;

	if (mutex_keeping())
		return mutex_spin_patient(lock);
	if (!spinner_claim(&lock->spinner))
		return false;
	cycle = mutex_cycle(lock, &enter);
	for (i = 0; i < MUTEX_SPINS; i++) {
		int c = __atomic_load_n(&lock->count, __ATOMIC_RELAXED);

		if (c == 1) {
			bool start = mutex_time_next();
			uint64_t t = 0, stat;

			if (cycle != ~0ull || start)
				t = mutex_ticks();
			/* lock_stat's, after ours: in C, not in W. */
			stat = hook_clock();
			if (cycle != ~0ull) {
				if (t >= enter)
					mutex_policy_sample(t - enter, cycle);
				cycle = ~0ull;
			}
			if (__kmutex_mutex_trylock_fast(lock)) {
				mutex_took(lock, start ? t : 0, stat);
				got = true;
				break;
			}
		}
		/*
		 * Keep spinning even when others sleep (parking_lot and WebKit
		 * stop): on 2 CPUs with 8-16 threads, stopping left the CPUs
		 * idle while the lock passed through wake-ups, 3.8-4.2 M ops/s
		 * against 4.7-5.2 spinning on (100 ns critical section).
		 * Sleepers are protected by the handoff rule instead.
		 */
		for (j = 0; j < pauses; j++)
			cpu_relax();
		if (pauses < MUTEX_SPIN_BACKOFF)
			pauses <<= 1;
	}
	spinner_release(&lock->spinner);
	return got;
}

static struct kmutex_waiter *first_waiter(struct mutex *lock)
{
	return waiter_first(&lock->wait_list);
}

/*
 * Called with wait_lock held by a waiter that gives up.  If the lock is
 * free, a wake-up may have been meant for this waiter: pass it on.
 */
static void mutex_leave(struct mutex *lock, struct kmutex_waiter *w)
{
	struct kmutex_waiter *next;
	int held = 0;

	list_del(&w->node);
	/* A fork() child's lock handed to a parent's thread: free it. */
	if (waiter_purge(&lock->wait_list))
		__atomic_store_n(&lock->count, 1, __ATOMIC_RELAXED);
	next = first_waiter(lock);
	if (!next)
		return;	/* count may stay -1: one needless slow unlock */
	/*
	 * RELAXED: it publishes nothing.  The owner's unlock CAS 0 -> 1 is
	 * ordered against it by count's modification order, and the slow
	 * unlock it forces reads the list under wait_lock.
	 */
	if (__atomic_compare_exchange_n(&lock->count, &held, -1, false,
					__ATOMIC_RELAXED, __ATOMIC_RELAXED))
		return;	/* held: its unlock now comes to the slow path */
	if (held == 1 && waiter_state(next) == WAITER_SLEEPING) {
		/* Rare: woken under wait_lock, which keeps next alive. */
		waiter_set_state(next, WAITER_WOKEN);
		waiter_wake(next);
	}
}

/*
 * Whether @w, about to sleep under wait_lock, sleeps timed (until
 * @until) and is left asleep by unlocks: only the first waiter, only
 * while the owner keeps the lock, and never one that asked for a
 * handoff.  The others are woken one at a time as before, when they
 * reach the front.  Nor an interruptible one: it learns of a handler
 * only from a sleep that the handler ends (-EINTR), and a waiter that
 * wakes every MUTEX_KEEP_NS would spend more of its wait awake, where a
 * handler goes unseen (docs/porting.md, signals just before the sleep).
 */
static bool mutex_keep_timed(struct mutex *lock, struct kmutex_waiter *w,
			     bool intr, struct timespec *until)
{
	uint64_t t;

	if (!MUTEX_KEEP_NS || !MUTEX_ADAPT || intr || w->want_handoff ||
	    !__atomic_load_n(&mutex_kept, __ATOMIC_RELAXED) ||
	    first_waiter(lock) != w)
		return false;
	t = now_ns() + MUTEX_KEEP_NS;
	until->tv_sec = t / 1000000000;
	until->tv_nsec = t % 1000000000;
	return true;
}

/* The new owner leaves the wait list (wait_lock held). */
static void mutex_acquired(struct mutex *lock, struct kmutex_waiter *w)
{
	if (w)
		list_del(&w->node);
	/*
	 * RELAXED, and a plain store is safe: while count is -1 no fast
	 * path changes it (lock and unlock CAS only from 1 and 0), and every
	 * writer of -1 holds wait_lock, as we do.
	 */
	if (list_empty(&lock->wait_list))
		__atomic_store_n(&lock->count, 0, __ATOMIC_RELAXED);
}

static int mutex_lock_common(struct mutex *lock, bool intr, const char *site)
{
	struct kmutex_waiter w WAITER_SCOPE;
	struct timespec until;
	int ret;

#if KMUTEX_BUSTED == 1
	/* Deliberately broken build: now and then let a second thread in. */
	static unsigned int busted;

	if (__atomic_fetch_add(&busted, 1, __ATOMIC_RELAXED) % 64 == 63)
		return 0;
#endif
	if (mutex_spin(lock))
		return 0;
	mutex_check_and_lock(lock, site);
	/*
	 * fork() as an unlock handed the lock to a thread of the parent
	 * (found in review): nobody here owns it.  Free it for the xchg.
	 */
	if (waiter_purge(&lock->wait_list))
		__atomic_store_n(&lock->count, 1, __ATOMIC_RELAXED);
	/* ACQUIRE pairs with the unlock's RELEASE (CAS or store of 1). */
	if (__atomic_exchange_n(&lock->count, -1, __ATOMIC_ACQUIRE) == 1) {
		mutex_acquired(lock, NULL);
		wait_lock_release(&lock->wait_lock);
		mutex_took_now(lock);
		return 0;
	}
	waiter_init(&w, 0);
	w.since = now_ns();
	waiter_stamp(&w, &lock->wait_lock);
	list_add_tail(&w.node, &lock->wait_list);
	w.flags = mutex_keep_timed(lock, &w, intr, &until);
	for (;;) {
		bool timed;

		wait_lock_release(&lock->wait_lock);
		ret = waiter_sleep(&w, intr, w.flags ? &until : NULL);
		if (ret == -ETIMEDOUT)
			ret = 0;
		wait_lock_acquire(&lock->wait_lock);
		timed = w.flags;
		w.flags = 0;
		if (waiter_state(&w) == WAITER_HANDOFF)
			break;		/* ours, even if a signal came too */
		if (ret) {
			mutex_leave(lock, &w);
			wait_lock_release(&lock->wait_lock);
			return ret;
		}
		/* Woken while the owner keeps the lock: its turn goes on. */
		if (!timed &&
		    (w.flags = mutex_keep_timed(lock, &w, intr, &until))) {
			waiter_set_state(&w, WAITER_SLEEPING);
			continue;
		}
		if (__atomic_exchange_n(&lock->count, -1, __ATOMIC_ACQUIRE) == 1)
			break;
		/* A running thread took it first: bound how often. */
		if (now_ns() - w.since >= MUTEX_STARVE_NS)
			w.want_handoff = 1;
		waiter_set_state(&w, WAITER_SLEEPING);
		w.flags = mutex_keep_timed(lock, &w, intr, &until);
	}
	mutex_acquired(lock, &w);
	wait_lock_release(&lock->wait_lock);
	mutex_took_now(lock);
	return 0;
}

/**
 * kmutex_mutex_lock_slowpath - mutex_lock() when the fast path failed
 * @lock: the mutex
 *
 * Spins briefly, then queues and sleeps until it owns @lock.
 */
KMUTEX_API void kmutex_mutex_lock_slowpath(struct mutex *lock)
{
	HOOK_WAIT(lock, STAT_MUTEX,
		  mutex_lock_common(lock, false, "mutex_lock"));
}

/**
 * kmutex_mutex_lock_interruptible_slowpath - mutex_lock_interruptible()
 *	when the fast path failed
 * @lock: the mutex
 *
 * Return: 0 with the lock held, or -EINTR if a signal handler ran while
 * the thread slept (the thread has then left the wait list).
 */
KMUTEX_API int kmutex_mutex_lock_interruptible_slowpath(struct mutex *lock)
{
	return HOOK_WAIT(lock, STAT_MUTEX,
			 mutex_lock_common(lock, true, "mutex_lock_interruptible"));
}

/**
 * kmutex_mutex_unlock_slowpath - mutex_unlock() when count was not 0
 * @lock: the mutex
 * @site: the caller, for the message if @lock was not locked at all
 *
 * Either hands @lock to a starving first waiter, or frees it and wakes
 * the first waiter unless one is already awake.
 */
KMUTEX_API void kmutex_mutex_unlock_slowpath(struct mutex *lock,
					     const char *site)
{
	struct kmutex_waiter *w;

	/* RELAXED: the misuse check reads our own lock's word. */
	if (__atomic_load_n(&lock->count, __ATOMIC_RELAXED) == 1) {
#if KMUTEX_BUSTED == 1
		return;	/* the broken build's second owner unlocks too */
#endif
		mutex_fatal(lock, site, "is not locked (count would pass 1, "
			    "letting later lockers in together)");
	}
	mutex_check_and_lock(lock, site);
	w = first_waiter(lock);
	if (w && w->want_handoff) {
		waiter_set_state(w, WAITER_HANDOFF);	/* count stays -1 */
		hook_handoff(lock, STAT_MUTEX);
		wait_lock_release(&lock->wait_lock);
		waiter_wake(w);
		return;
	}
	/* RELEASE pairs with the next owner's ACQUIRE CAS or exchange. */
	__atomic_store_n(&lock->count, 1, __ATOMIC_RELEASE);
	/* w->flags: a timed sleeper wakes itself (mutex_keep_timed()). */
	if (!w || waiter_state(w) != WAITER_SLEEPING || w->flags) {
		wait_lock_release(&lock->wait_lock);
		return;
	}
#if KMUTEX_BUSTED == 2
	/* Deliberately broken build: now and then drop the wake-up. */
	static unsigned int busted;

	if (__atomic_fetch_add(&busted, 1, __ATOMIC_RELAXED) % 64 == 63) {
		wait_lock_release(&lock->wait_lock);
		return;
	}
#endif
	waiter_set_state(w, WAITER_WOKEN);
	wait_lock_release(&lock->wait_lock);
	waiter_wake(w);		/* outside wait_lock: see waiter_wake() */
}
