// SPDX-License-Identifier: MIT
/*
 * semaphore.c - struct semaphore: the kernel's counting semaphore.
 *
 * Initialisation (DEFINE_SEMAPHORE with one and two arguments,
 * sema_init), down_trylock's inverted convention (0 = acquired) and
 * that it never sleeps, counting (n holders at once, never n + 1, also
 * under oversubscribed stress), up() from any thread,
 * down_interruptible/down_killable (-EINTR when a handler runs in the
 * blocked thread, with and without SA_RESTART; plain down() and
 * down_timeout() are not ended by signals), down_timeout (-ETIME after
 * no less than the timeout, 0 when a unit comes in time, no sleep for
 * 0), jiffies, FIFO service of the waiters, the guards, and that no
 * unit is ever lost when up() races a waiter that is timing out or
 * being interrupted: every unit given is either taken or still there.
 * Under TSan the cases that signal sleeping waiters are left out, saying
 * so (fam_signals_reach_sleepers).
 */
#include <linux/semaphore.h>

#include "family.h"

static DEFINE_SEMAPHORE(one);		/* pre-6.4 form: count 1 */
static DEFINE_SEMAPHORE(three, 3);

static long call_down(struct fam_call *c)
{
	down(c->obj);
	return 0;
}

static long call_down_interruptible(struct fam_call *c)
{
	return down_interruptible(c->obj);
}

static long call_down_killable(struct fam_call *c)
{
	return down_killable(c->obj);
}

static long call_down_timeout(struct fam_call *c)
{
	return down_timeout(c->obj, c->arg);
}

static long call_up(struct fam_call *c)
{
	up(c->obj);
	return 0;
}

/* Take every free unit without waiting; how many there were. */
static int drain(struct semaphore *sem)
{
	int n = 0;

	while (!down_trylock(sem))
		n++;
	return n;
}

/*
 * The count while a waiter asleep on @sem may still change it: read
 * atomically, as the library writes it (a plain read races, for TSan).
 */
static int count_now(struct semaphore *sem)
{
	return __atomic_load_n(&sem->count, __ATOMIC_RELAXED);
}

/* The semaphore is idle with @n free units: no waiter, no -1 left. */
static void check_idle(struct semaphore *sem, int n)
{
	CHECK_EQ(sem->count, n);
	CHECK_EQ(fam_queued(FAM_LIST(sem)), 0);
}

static void test_init(void)
{
	DEFINE_SEMAPHORE(local, 2);
	struct semaphore s;

	check_idle(&one, 1);
	check_idle(&three, 3);
	check_idle(&local, 2);
	CHECK_EQ(drain(&one), 1);
	CHECK_EQ(drain(&three), 3);
	CHECK_EQ(drain(&local), 2);
	up(&one);
	up(&three);
	up(&three);
	up(&three);
	CHECK_EQ(drain(&one), 1);
	CHECK_EQ(drain(&three), 3);
	up(&one);
	up(&three);
	up(&three);
	up(&three);

	/* sema_init must not depend on what the memory held before. */
	memset(&s, 0xa5, sizeof(s));
	sema_init(&s, 5);
	check_idle(&s, 5);
	CHECK_EQ(drain(&s), 5);
	memset(&s, 0xff, sizeof(s));
	sema_init(&s, 0);
	CHECK_EQ(down_trylock(&s), 1);
	up(&s);
	CHECK_EQ(down_trylock(&s), 0);
	CHECK_EQ(down_trylock(&s), 1);

	/* HZ is 1000: a jiffy is a millisecond. */
	CHECK_EQ(HZ, 1000);
	CHECK_EQ(msecs_to_jiffies(1234), 1234);
	CHECK_EQ(jiffies_to_msecs(1234), 1234);
	CHECK_EQ(jiffies_to_msecs(msecs_to_jiffies(1)), 1);
	CHECK_EQ(msecs_to_jiffies(0), 0);
}

/* down_trylock: 0 = taken, 1 = not; never sleeps; neither does down_timeout 0. */
static void test_trylock(void)
{
	DEFINE_SEMAPHORE(s, 2);
	long sleeps;
	uint64_t t0;
	int i, fails = 0, timeouts = 0;

	CHECK_EQ(down_trylock(&s), 0);
	CHECK_EQ(s.count, 1);
	CHECK_EQ(down_trylock(&s), 0);
	CHECK_EQ(s.count, 0);
	CHECK_EQ(down_trylock(&s), 1);
	CHECK_EQ(s.count, 0);	/* a failed trylock changes nothing */

	t0 = test_now_ns();
	sleeps = test_thread_sleeps();
	for (i = 0; i < 100000; i++)
		fails += down_trylock(&s);
	for (i = 0; i < 10000; i++)
		timeouts += down_timeout(&s, 0) == -ETIME;
	sleeps = test_thread_sleeps() - sleeps;
	CHECK_EQ(fails, 100000);
	CHECK_EQ(timeouts, 10000);
	/* A sleeping call would switch once per call. */
	CHECK(sleeps <= 5);
	CHECK(test_now_ns() - t0 < 5000000000ull);
	check_idle(&s, 0);

	/* With a unit free, down_timeout 0 takes it. */
	up(&s);
	CHECK_EQ(down_timeout(&s, 0), 0);
	CHECK_EQ(down_timeout(&s, 0), -ETIME);
	up(&s);
	up(&s);
	check_idle(&s, 2);
}

/*
 * n units: n threads get in at once (each waits, holding its unit, until
 * all n are in: a semaphore that admitted fewer would deadlock here),
 * and then nobody else gets one until a unit is given back, by up()
 * from a thread that never took one.
 */
static int holders;

static void hold_until_all_in(struct fam_call *c)
{
	__atomic_fetch_add(&holders, 1, __ATOMIC_SEQ_CST);
	WAIT_UNTIL(__atomic_load_n(&holders, __ATOMIC_SEQ_CST) >= c->arg,
		   PROMPT_MS);
}

static long call_down_and_hold(struct fam_call *c)
{
	down(c->obj);
	hold_until_all_in(c);
	return 0;
}

static void test_counting(void)
{
	struct fam_call c[4], extra, giver;
	struct semaphore s;
	int i;

	sema_init(&s, 3);
	holders = 0;
	for (i = 0; i < 3; i++)
		fam_start(&c[i], call_down_and_hold, &s, 3);
	for (i = 0; i < 3; i++)
		CHECK_EQ(fam_join(&c[i]), 0);
	CHECK_EQ(holders, 3);
	/* They returned without up(): the three units are all taken. */
	CHECK_EQ(s.count, 0);
	CHECK_EQ(down_trylock(&s), 1);

	/* A fourth waits ... */
	fam_start(&extra, call_down, &s, 0);
	fam_wait_queued(&extra, FAM_LIST(&s), 1);
	CHECK_EQ(count_now(&s), -1);
	test_sleep_ms(20);
	CHECK(!fam_done(&extra));
	/* ... until a thread that never took a unit gives one. */
	fam_start(&giver, call_up, &s, 0);
	CHECK_EQ(fam_join(&giver), 0);
	CHECK_EQ(fam_join(&extra), 0);
	check_idle(&s, 0);

	/* Units given by another thread are the main thread's to take. */
	for (i = 0; i < 4; i++)
		fam_start(&c[i], call_up, &s, 0);
	for (i = 0; i < 4; i++)
		fam_join(&c[i]);
	for (i = 0; i < 4; i++)
		down(&s);
	check_idle(&s, 0);
	/* And main's up() releases a down() made by another thread. */
	fam_start(&extra, call_down, &s, 0);
	fam_wait_queued(&extra, FAM_LIST(&s), 1);
	up(&s);
	CHECK_EQ(fam_join(&extra), 0);
	check_idle(&s, 0);
}

/*
 * 12 threads on 2 CPUs share 3 units for a while, with every way of
 * taking one: never more than 3 inside, and 3 at once seen.
 */
#define STRESS_THREADS	12
#define STRESS_UNITS	3

static struct semaphore stress_sem;
static int stress_inside, stress_max;
static uint64_t stress_end;

struct stress_worker {
	long ops, over, intr_fail, timeouts, try_fail;
};

static void *stress_thread(void *arg)
{
	struct stress_worker *w = arg;
	unsigned int rnd = (unsigned int)(uintptr_t)arg;

	/*
	 * One down() at least, whatever the clock says: the window opens
	 * before the threads are created, and on a loaded CPU a thread can
	 * first run (or time out, or fail a trylock) after it closed.
	 */
	while (test_now_ns() < stress_end || !w->ops) {
		unsigned int r = fam_rand(&rnd);
		int in, m;

		switch (r % 4) {
		case 0:
			down(&stress_sem);
			break;
		case 1:
			CHECK_EQ(down_interruptible(&stress_sem), 0);
			break;
		case 2:
			if (down_timeout(&stress_sem, 1000)) {
				w->timeouts++;
				continue;
			}
			break;
		case 3:
			if (down_trylock(&stress_sem)) {
				w->try_fail++;
				sched_yield();
				continue;
			}
			break;
		}
		in = __atomic_add_fetch(&stress_inside, 1, __ATOMIC_SEQ_CST);
		if (in > STRESS_UNITS)
			w->over++;
		m = __atomic_load_n(&stress_max, __ATOMIC_RELAXED);
		while (in > m && !__atomic_compare_exchange_n(&stress_max, &m,
				in, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
			;
		if ((r >> 8) % 8 == 0)
			sched_yield();
		__atomic_sub_fetch(&stress_inside, 1, __ATOMIC_SEQ_CST);
		up(&stress_sem);
		w->ops++;
	}
	return NULL;
}

static void test_stress(void)
{
	struct stress_worker w[STRESS_THREADS] = { 0 };
	long ops = 0, over = 0, timeouts = 0, try_fail = 0;
	int i;

	sema_init(&stress_sem, STRESS_UNITS);
	stress_end = test_now_ns() + test_duration_ns(1.5);
	test_run_threads(STRESS_THREADS, stress_thread, w, sizeof(w[0]));
	for (i = 0; i < STRESS_THREADS; i++) {
		ops += w[i].ops;
		over += w[i].over;
		timeouts += w[i].timeouts;
		try_fail += w[i].try_fail;
		CHECK(w[i].ops > 0);
	}
	printf("stress: %ld downs by %d threads on %d units, max %d inside, "
	       "%ld over, %ld timeouts, %ld failed trylocks\n", ops,
	       STRESS_THREADS, STRESS_UNITS, stress_max, over, timeouts,
	       try_fail);
	CHECK_EQ(over, 0);
	CHECK(stress_max <= STRESS_UNITS);
	CHECK_EQ(stress_max, STRESS_UNITS);
	/* Every unit came back; nobody is left queued. */
	check_idle(&stress_sem, STRESS_UNITS);
}

/* While one waiter sleeps on an empty semaphore: count -1. */
static void check_queued(void *sem)
{
	CHECK_EQ(count_now(sem), -1);
}

/*
 * down_interruptible and down_killable: -EINTR when a handler runs in
 * the blocked thread, whether or not it was installed with SA_RESTART;
 * the semaphore is left as it was (count 0, not -1, once the list is
 * empty), and the next unit goes to whoever asks next.  0 when a unit
 * comes.  down() and down_timeout() go on waiting through signals.
 */
static void test_signals(int flags)
{
	long (*const fns[])(struct fam_call *) = {
		call_down_interruptible, call_down_killable,
	};
	struct semaphore s;
	struct fam_call c, d;
	unsigned int i;

	fam_handle_sigusr1(flags);
	sema_init(&s, 0);
	for (i = 0; i < 2; i++) {
		/* Interrupted: -EINTR, and no unit is taken or lost. */
		fam_interrupted_alone(fns[i], &s, FAM_LIST(&s), check_queued);
		check_idle(&s, 0);
		up(&s);
		check_idle(&s, 1);
		CHECK_EQ(down_trylock(&s), 0);

		/* Interrupted with another waiter queued behind it. */
		fam_interrupted_ahead(fns[i], call_down, &s, FAM_LIST(&s), &d);
		CHECK_EQ(count_now(&s), -1);
		up(&s);		/* goes to the one still waiting */
		CHECK_EQ(fam_join(&d), 0);
		check_idle(&s, 0);

		/* Not interrupted: 0 once a unit comes. */
		fam_start(&c, fns[i], &s, 0);
		fam_wait_queued(&c, FAM_LIST(&s), 1);
		up(&s);
		CHECK_EQ(fam_join(&c), 0);
		check_idle(&s, 0);
		/* A unit already free: 0 at once. */
		up(&s);
		CHECK_EQ(fns[i](&(struct fam_call){ .obj = &s }), 0);
		check_idle(&s, 0);
	}

	/* down() is not ended by signals. */
	fam_start(&c, call_down, &s, 0);
	fam_wait_queued(&c, FAM_LIST(&s), 1);
	fam_signal_harmlessly(&c, 5);
	up(&s);
	CHECK_EQ(fam_join(&c), 0);
	check_idle(&s, 0);

	/* Nor is down_timeout(): it still waits its whole timeout. */
	fam_start(&c, call_down_timeout, &s, 300);
	fam_wait_queued(&c, FAM_LIST(&s), 1);
	fam_signal(&c, 5);
	CHECK_EQ(fam_join(&c), -ETIME);
	CHECK(c.t1 - c.t0 >= 300000000ull);
	check_idle(&s, 0);
	fam_start(&c, call_down_timeout, &s, 5000);
	fam_wait_queued(&c, FAM_LIST(&s), 1);
	fam_signal_harmlessly(&c, 3);
	up(&s);
	CHECK_EQ(fam_join(&c), 0);
	check_idle(&s, 0);
}

/*
 * up() at the very moment the waiter is interrupted: up() runs while the
 * waiter's signal handler runs, after the kernel took it off its futex
 * and before it re-checks the wait list (see fam_interrupt_during).  It
 * may return 0 (it kept the unit handed to it) or -EINTR (then the unit
 * is still free, or went on to the next waiter), never -EINTR with the
 * unit gone.
 */
static void do_up(void *sem)
{
	up(sem);
}

static void test_handoff_vs_signal(int flags)
{
	struct semaphore s;
	int round, kept = 0, passed = 0;

	fam_handle_sigusr1(flags);
	sema_init(&s, 0);
	for (round = 0; round < 10; round++) {
		long (*fn)(struct fam_call *) = round & 1 ?
			call_down_killable : call_down_interruptible;
		long ret;
		int free_units;

		ret = fam_given_during_signal(fn, &s, FAM_LIST(&s), do_up);
		CHECK(ret == 0 || ret == -EINTR);
		free_units = drain(&s);
		if ((ret == 0) + free_units != 1) {
			fprintf(stderr, "FAIL: up() crossing a signal: the "
				"waiter returned %ld and %d units are free: "
				"a unit %s\n", ret, free_units, free_units ?
				"made up" : "lost");
			exit(1);
		}
		kept += ret == 0;
		check_idle(&s, 0);

		/* With a waiter behind it, which must not be left asleep. */
		ret = fam_given_during_signal_ahead(fn, call_down, &s,
						    FAM_LIST(&s), do_up);
		CHECK(ret == 0 || ret == -EINTR);
		passed += ret == -EINTR;
		check_idle(&s, 0);
	}
	printf("up() crossing a signal: kept %d of 10, passed on %d of 10\n",
	       kept, passed);
}

/* down_timeout: -ETIME no earlier than asked, 0 when a unit comes in time. */
static void test_timeout(void)
{
	struct semaphore s;
	struct fam_call c, d;
	uint64_t t0, dt;
	int ret, tries;

	sema_init(&s, 0);
	t0 = test_now_ns();
	ret = down_timeout(&s, 50);
	dt = test_now_ns() - t0;
	printf("down_timeout(50) on an empty semaphore: %d after %.1f ms\n",
	       ret, dt / 1e6);
	CHECK_EQ(ret, -ETIME);
	CHECK(dt >= 50000000ull);
	CHECK(dt < 5000000000ull);
	check_idle(&s, 0);

	t0 = test_now_ns();
	ret = down_timeout(&s, msecs_to_jiffies(30));
	dt = test_now_ns() - t0;
	CHECK_EQ(ret, -ETIME);
	CHECK(dt >= 30000000ull);
	CHECK(dt < 5000000000ull);

	/* Negative timeouts do not wait either. */
	t0 = test_now_ns();
	CHECK_EQ(down_timeout(&s, -5), -ETIME);
	CHECK(test_now_ns() - t0 < 1000000000ull);
	check_idle(&s, 0);

	/* A unit that comes in time ends the wait then, not at the timeout. */
	fam_start(&c, call_down_timeout, &s, 10000);
	fam_wait_queued(&c, FAM_LIST(&s), 1);
	test_sleep_ms(20);
	up(&s);
	CHECK_EQ(fam_join(&c), 0);
	dt = c.t1 - c.t0;
	CHECK(dt >= 20000000ull);
	CHECK(dt < 5000000000ull);
	check_idle(&s, 0);

	/*
	 * A timed waiter timing out ahead of another leaves it queued.  If
	 * the second was not asleep behind it before the timeout (a thread
	 * descheduled for a second, on a loaded machine), the round shows
	 * nothing: the second gets a unit, and again.
	 */
	for (tries = 0;; tries++) {
		CHECK(tries < 5);
		fam_start(&c, call_down_timeout, &s, 1000);
		fam_wait_queued(&c, FAM_LIST(&s), 1);
		fam_start(&d, call_down, &s, 0);
		WAIT_UNTIL(fam_done(&c) ||
			   (__atomic_load_n(&d.started, __ATOMIC_SEQ_CST) &&
			    fam_queued(FAM_LIST(&s)) >= 2 &&
			    test_thread_state(d.tid) == 'S'), PROMPT_MS);
		if (!fam_done(&c))
			break;
		CHECK_EQ(fam_join(&c), -ETIME);
		up(&s);
		CHECK_EQ(fam_join(&d), 0);
		check_idle(&s, 0);
	}
	CHECK(!fam_done(&d));
	CHECK_EQ(fam_join(&c), -ETIME);
	CHECK(c.t1 - c.t0 >= 1000000000ull);
	CHECK_EQ(count_now(&s), -1);
	CHECK(!fam_done(&d));
	up(&s);
	CHECK_EQ(fam_join(&d), 0);
	check_idle(&s, 0);

	/* Timeouts too long to ever expire still wait for the unit. */
	fam_start(&c, call_down_timeout, &s, MAX_SCHEDULE_TIMEOUT);
	fam_wait_queued(&c, FAM_LIST(&s), 1);
	fam_start(&d, call_down_timeout, &s, MAX_SCHEDULE_TIMEOUT - 1);
	fam_wait_queued(&d, FAM_LIST(&s), 2);
	test_sleep_ms(20);
	CHECK(!fam_done(&c) && !fam_done(&d));
	up(&s);
	CHECK_EQ(fam_join(&c), 0);
	up(&s);
	CHECK_EQ(fam_join(&d), 0);
	check_idle(&s, 0);

	/* A unit free at the call: 0 at once. */
	up(&s);
	CHECK_EQ(down_timeout(&s, 50), 0);
	check_idle(&s, 0);
}

/*
 * FIFO: waiters queued in a known order, each with a different kind of
 * down, are served in that order, one per up().
 */
#define FIFO_WAITERS	6

static int fifo_order[FIFO_WAITERS], fifo_served;

static pthread_mutex_t fifo_lock = PTHREAD_MUTEX_INITIALIZER;

/* The slot is written before the count that the main thread waits on. */
static void fifo_record(struct fam_call *c)
{
	pthread_mutex_lock(&fifo_lock);
	fifo_order[fifo_served] = c->id;
	__atomic_store_n(&fifo_served, fifo_served + 1, __ATOMIC_SEQ_CST);
	pthread_mutex_unlock(&fifo_lock);
}

static void test_fifo(void)
{
	long (*const fns[])(struct fam_call *) = {
		call_down, call_down_interruptible, call_down_killable,
		call_down_timeout,
	};
	struct fam_call c[FIFO_WAITERS];
	struct semaphore s;
	int i;

	sema_init(&s, 0);
	fifo_served = 0;
	for (i = 0; i < FIFO_WAITERS; i++) {
		/* As fam_start, with an id and a hook set before it runs. */
		c[i] = (struct fam_call){ .fn = fns[i % 4], .obj = &s,
					  .arg = 60000, .id = i,
					  .after = fifo_record };
		CHECK(pthread_create(&c[i].thread, NULL, fam_call_thread,
				     &c[i]) == 0);
		fam_wait_queued(&c[i], FAM_LIST(&s), i + 1);
		CHECK_EQ(count_now(&s), -1);
	}
	test_sleep_ms(20);
	CHECK_EQ(__atomic_load_n(&fifo_served, __ATOMIC_SEQ_CST), 0);
	for (i = 0; i < FIFO_WAITERS; i++) {
		up(&s);
		WAIT_UNTIL(__atomic_load_n(&fifo_served, __ATOMIC_SEQ_CST) ==
			   i + 1, PROMPT_MS);
		/* One up(), one waiter served: the first in the queue. */
		test_sleep_ms(5);
		CHECK_EQ(__atomic_load_n(&fifo_served, __ATOMIC_SEQ_CST),
			 i + 1);
		CHECK_EQ(fifo_order[i], i);
		CHECK_EQ(fam_queued(FAM_LIST(&s)), FIFO_WAITERS - 1 - i);
	}
	for (i = 0; i < FIFO_WAITERS; i++)
		CHECK_EQ(fam_join(&c[i]), 0);
	check_idle(&s, 0);
}

/*
 * No unit lost when up() meets a waiter that is giving up.  Each round,
 * RACERS threads wait with a 1 ms timeout (or until signalled) and the
 * main thread gives one unit at about the moment they give up.  The one
 * unit given must then be either taken by a waiter that reports success
 * or still free: taken + free == 1.  A waiter that is handed the unit as
 * it times out and then reports -ETIME loses it (0); one that takes it
 * and leaves the count wrong makes it 2.  The delay adapts to sit on the
 * boundary between "it came in time" and "it timed out".
 */
#define RACE_MAX	3

struct race {
	struct semaphore sem;
	int racers;
	int interrupt;		/* down_interruptible + signal, not timeout */
	int round;		/* the round the racers may start */
	int stop;
	int finished;		/* racers done with this round */
	int got[RACE_MAX];	/* units taken, this round */
	pthread_t thread[RACE_MAX];
};

struct racer {
	struct race *r;
	int id;
};

static void *racer_thread(void *arg)
{
	struct racer *me = arg;
	struct race *r = me->r;
	int round = 0, ret;

	while (fam_next_round(&r->round, &r->stop, round)) {
		round++;
		if (r->interrupt)
			ret = down_interruptible(&r->sem);
		else
			ret = down_timeout(&r->sem, 1);
		if (r->interrupt)
			CHECK(ret == 0 || ret == -EINTR);
		else
			CHECK(ret == 0 || ret == -ETIME);
		r->got[me->id] = ret == 0;
		__atomic_fetch_add(&r->finished, 1, __ATOMIC_SEQ_CST);
	}
	return NULL;
}

static void race(int racers, int interrupt, double seconds)
{
	struct racer me[RACE_MAX];
	struct race r = { .racers = racers, .interrupt = interrupt };
	uint64_t end, delay = 900000;	/* ns after they queue */
	long rounds = 0, taken = 0, left = 0;
	unsigned int rnd = 12345;
	int i;

	sema_init(&r.sem, 0);
	for (i = 0; i < racers; i++) {
		me[i] = (struct racer){ .r = &r, .id = i };
		CHECK(pthread_create(&r.thread[i], NULL, racer_thread,
				     &me[i]) == 0);
	}
	end = test_now_ns() + test_duration_ns(seconds);
	/* A few rounds even on a machine too loaded to do many. */
	while (rounds < 20 || test_now_ns() < end) {
		int got = 0, free_units;

		__atomic_store_n(&r.finished, 0, __ATOMIC_SEQ_CST);
		__atomic_store_n(&r.round, r.round + 1, __ATOMIC_RELEASE);
		/*
		 * From the moment they are all queued (or one has already
		 * given up), so that the load of the machine does not
		 * decide when the race happens.
		 */
		POLL_UNTIL(fam_queued(FAM_LIST(&r.sem)) == racers ||
			   __atomic_load_n(&r.finished, __ATOMIC_SEQ_CST),
			   PROMPT_MS);
		fam_spin_ns(delay + fam_rand(&rnd) % 20000);
		if (interrupt) {
			/* Signal each racer and give the unit, either order. */
			fam_give_and_signal(do_up, &r.sem, r.thread, racers,
					    &rnd);
			/* Racers not interrupted wait for more units. */
			if (!POLL_UNTIL(__atomic_load_n(&r.finished,
					__ATOMIC_SEQ_CST) == racers, 20)) {
				for (i = 0; i < racers; i++)
					up(&r.sem);
				WAIT_UNTIL(__atomic_load_n(&r.finished,
					   __ATOMIC_SEQ_CST) == racers,
					   PROMPT_MS);
				got -= racers;
			}
		} else {
			up(&r.sem);
			WAIT_UNTIL(__atomic_load_n(&r.finished,
				   __ATOMIC_SEQ_CST) == racers, PROMPT_MS);
		}
		for (i = 0; i < racers; i++)
			got += r.got[i];
		free_units = drain(&r.sem);
		if (got + free_units != 1) {
			fprintf(stderr, "FAIL: round %ld: %d racers, one unit "
				"given; %d taken by them (net), %d still "
				"free: a unit %s\n", rounds, racers, got,
				free_units, got + free_units < 1 ? "lost" :
				"made up");
			exit(1);
		}
		check_idle(&r.sem, 0);
		if (!interrupt) {
			/* Home in on the boundary: later if in time. */
			if (got && delay < 3000000)
				delay += 10000;
			else if (!got && delay >= 10000)
				delay -= 10000;
		} else {
			delay = fam_rand(&rnd) % 30000;
		}
		rounds++;
		taken += free_units == 0;
		left += free_units;
	}
	__atomic_store_n(&r.stop, 1, __ATOMIC_RELEASE);
	for (i = 0; i < racers; i++)
		CHECK(pthread_join(r.thread[i], NULL) == 0);
	printf("race (%d %s): %ld rounds, unit taken in %ld, left free in "
	       "%ld\n", racers, interrupt ? "interrupted" : "timing out",
	       rounds, taken, left);
}

/* The guards: guard(semaphore), semaphore_try, semaphore_intr. */
static long guarded(struct semaphore *s)
{
	guard(semaphore)(s);
	return s->count;	/* read inside the guard */
}

static long call_scoped_intr(struct fam_call *c)
{
	scoped_cond_guard(semaphore_intr, return -EINTR, c->obj)
		return 0;
	return 1;	/* not reached: the guard runs its body or its fail */
}

static void test_guards(void)
{
	struct semaphore s;
	int ran, i;

	sema_init(&s, 1);
	CHECK_EQ(guarded(&s), 0);
	check_idle(&s, 1);

	scoped_guard(semaphore, &s)
		CHECK_EQ(s.count, 0);
	check_idle(&s, 1);

	/* Leaving the block early releases too. */
	for (i = 0; i < 3; i++) {
		scoped_guard(semaphore, &s) {
			CHECK_EQ(s.count, 0);
			if (i == 1)
				break;
		}
		check_idle(&s, 1);
	}

	ran = 0;
	scoped_guard(semaphore_try, &s) {
		CHECK_EQ(s.count, 0);
		ran = 1;
	}
	CHECK_EQ(ran, 1);
	check_idle(&s, 1);

	/* No unit free: the try guard skips its block and gives nothing. */
	down(&s);
	ran = 0;
	scoped_guard(semaphore_try, &s)
		ran = 1;
	CHECK_EQ(ran, 0);
	check_idle(&s, 0);
	up(&s);

	ran = 0;
	scoped_cond_guard(semaphore_intr, CHECK(0), &s) {
		CHECK_EQ(s.count, 0);
		ran = 1;
	}
	CHECK_EQ(ran, 1);
	check_idle(&s, 1);
}

/*
 * The semaphore_intr guard interrupted: the fail statement runs, no unit
 * is given back; not interrupted: the body runs and the guard gives it.
 */
static void test_guards_interrupted(void)
{
	struct semaphore s;
	struct fam_call c;

	sema_init(&s, 1);
	fam_handle_sigusr1(0);
	down(&s);
	fam_start(&c, call_scoped_intr, &s, 0);
	fam_wait_queued(&c, FAM_LIST(&s), 1);
	fam_interrupt(&c);
	CHECK_EQ(fam_join(&c), -EINTR);
	check_idle(&s, 0);
	fam_start(&c, call_scoped_intr, &s, 0);
	fam_wait_queued(&c, FAM_LIST(&s), 1);
	up(&s);
	CHECK_EQ(fam_join(&c), 0);
	check_idle(&s, 1);
}

int main(void)
{
	uint64_t t0 = test_now_ns();

	test_watchdog(60);
	test_init();
	test_trylock();
	test_counting();
	test_timeout();
	if (fam_signals_reach_sleepers("signals (-EINTR, SA_RESTART, waits "
				       "that go on through them)")) {
		test_signals(0);
		test_signals(SA_RESTART);
	}
	if (fam_signals_reach_sleepers("up() crossing a signal")) {
		test_handoff_vs_signal(0);
		test_handoff_vs_signal(SA_RESTART);
	}
	test_fifo();
	test_guards();
	if (fam_signals_reach_sleepers("the semaphore_intr guard interrupted"))
		test_guards_interrupted();
	test_stress();
	fam_handle_sigusr1(0);
	race(1, 0, 0.7);
	race(RACE_MAX, 0, 0.4);
	if (fam_signals_reach_sleepers("race with interrupted waiters")) {
		race(1, 1, 0.4);
		race(RACE_MAX, 1, 0.4);
	}
	printf("semaphore: all passed in %.1f s\n",
	       (test_now_ns() - t0) / 1e9);
	return 0;
}
