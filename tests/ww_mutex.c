// SPDX-License-Identifier: MIT
/*
 * ww_mutex - the API's return values and the two classes' rules, one
 * deterministic case each (the cases of the kernel's test-ww_mutex.c:
 * basic, AA, ABBA with and without backing off, an N-way cycle), plus
 * -EINTR and a NULL context.  Thread B is always the younger context:
 * its ww_acquire_init() comes after A's.
 */
#include <linux/ww_mutex.h>

#include "harness.h"

static DEFINE_WW_CLASS(ww_class);
static DEFINE_WD_CLASS(wd_class);

static struct ww_mutex l1, l2, l3, l4;
static struct ww_acquire_ctx a;		/* the older context, main thread */
static int b_step, b_ret, b_ret2;
static int sig_seen;

static int queued(struct ww_mutex *lock)
{
	return test_waiters(&lock->base.wait_list);
}

static void init_locks(struct ww_class *c)
{
	ww_mutex_init(&l1, c);
	ww_mutex_init(&l2, c);
	ww_mutex_init(&l3, c);
	ww_mutex_init(&l4, c);
}

static void basic(struct ww_class *c)
{
	struct ww_acquire_ctx ctx;

	init_locks(c);
	ww_acquire_init(&ctx, c);
	CHECK_EQ(ww_mutex_lock(&l1, &ctx), 0);
	CHECK(ww_mutex_is_locked(&l1));
	CHECK(l1.ctx == &ctx);
	CHECK_EQ(ctx.acquired, 1);
	CHECK_EQ(ww_mutex_lock(&l1, &ctx), -EALREADY);		/* AA */
	CHECK_EQ(ww_mutex_lock_interruptible(&l1, &ctx), -EALREADY);
	CHECK_EQ(ww_mutex_trylock(&l1, &ctx), 0);
	CHECK_EQ(ww_mutex_trylock(&l1, NULL), 0);
	CHECK_EQ(ww_mutex_lock_interruptible(&l2, &ctx), 0);
	CHECK_EQ(ww_mutex_trylock(&l3, &ctx), 1);
	CHECK(l3.ctx == &ctx);
	CHECK_EQ(ctx.acquired, 3);
	ww_acquire_done(&ctx);
	ww_mutex_unlock(&l3);
	ww_mutex_unlock(&l2);
	ww_mutex_unlock(&l1);
	CHECK(!ww_mutex_is_locked(&l1) && l1.ctx == NULL);
	CHECK_EQ(ctx.acquired, 0);
	ww_acquire_fini(&ctx);

	/* A NULL context is a plain mutex. */
	CHECK_EQ(ww_mutex_lock(&l1, NULL), 0);
	CHECK(ww_mutex_is_locked(&l1) && l1.ctx == NULL);
	CHECK_EQ(ww_mutex_trylock(&l1, NULL), 0);
	ww_mutex_unlock(&l1);
	CHECK_EQ(ww_mutex_lock_interruptible(&l1, NULL), 0);
	ww_mutex_unlock(&l1);
	CHECK_EQ(ww_mutex_trylock(&l1, NULL), 1);
	ww_mutex_unlock(&l1);
	ww_mutex_destroy(&l1);
	ww_mutex_destroy(&l2);
	ww_mutex_destroy(&l3);
}

/* B: younger; takes l2, then wants l1 (held by A); backs off if told. */
static void *younger_abba(void *arg)
{
	struct ww_class *c = arg;
	struct ww_acquire_ctx b;

	ww_acquire_init(&b, c);
	CHECK_EQ(ww_mutex_lock(&l2, &b), 0);
	__atomic_store_n(&b_step, 1, __ATOMIC_RELEASE);
	b_ret = ww_mutex_lock(&l1, &b);
	if (b_ret == -EDEADLK) {
		ww_mutex_unlock(&l2);
		__atomic_store_n(&b_step, 2, __ATOMIC_RELEASE);
		ww_mutex_lock_slow(&l1, &b);	/* waits for A */
		CHECK(l1.ctx == &b);
		CHECK_EQ(ww_mutex_lock(&l2, &b), 0);
		ww_mutex_unlock(&l2);
	} else {
		CHECK_EQ(b_ret, 0);
		ww_mutex_unlock(&l2);
	}
	ww_mutex_unlock(&l1);
	ww_acquire_fini(&b);
	__atomic_store_n(&b_step, 3, __ATOMIC_RELEASE);
	return NULL;
}

/*
 * ABBA: A holds l1, B holds l2 and wants l1.  Wait-die: B (younger,
 * holding a lock) dies at once.  Wound-wait: B waits; A then wants l2,
 * wounds B, and B's wait for l1 returns -EDEADLK.  Either way A gets
 * l2 and B finishes after A.
 */
static void abba(struct ww_class *c)
{
	pthread_t t;

	init_locks(c);
	b_step = 0;
	ww_acquire_init(&a, c);
	CHECK_EQ(ww_mutex_lock(&l1, &a), 0);
	CHECK(pthread_create(&t, NULL, younger_abba, c) == 0);
	WAIT_UNTIL(__atomic_load_n(&b_step, __ATOMIC_ACQUIRE) >= 1, 10000);
	if (c->is_wait_die) {
		/* B dies without waiting: it drops l2 by itself. */
		WAIT_UNTIL(__atomic_load_n(&b_step, __ATOMIC_ACQUIRE) >= 2,
			   10000);
		CHECK_EQ(b_ret, -EDEADLK);
	} else {
		/* B sleeps in its lock of l1, holding l2. */
		WAIT_UNTIL(queued(&l1) == 1, 10000);
		test_sleep_ms(20);
		CHECK_EQ(__atomic_load_n(&b_step, __ATOMIC_ACQUIRE), 1);
	}
	CHECK_EQ(ww_mutex_lock(&l2, &a), 0);	/* the older progresses */
	if (!c->is_wait_die)
		CHECK_EQ(b_ret, -EDEADLK);
	CHECK_EQ(a.acquired, 2);
	/* B is in ww_mutex_lock_slow(l1): it holds nothing, so it waits. */
	WAIT_UNTIL(queued(&l1) == 1, 10000);
	CHECK_EQ(__atomic_load_n(&b_step, __ATOMIC_ACQUIRE), 2);
	ww_mutex_unlock(&l2);
	ww_mutex_unlock(&l1);
	ww_acquire_fini(&a);
	pthread_join(t, NULL);
	CHECK_EQ(b_step, 3);
}

/* B: younger, holds l1; waits for A's signal, then unlocks. */
static void *younger_holder(void *arg)
{
	struct ww_class *c = arg;
	struct ww_acquire_ctx b;

	ww_acquire_init(&b, c);
	CHECK_EQ(ww_mutex_lock(&l1, &b), 0);
	__atomic_store_n(&b_step, 1, __ATOMIC_RELEASE);
	WAIT_UNTIL(__atomic_load_n(&b_step, __ATOMIC_ACQUIRE) == 2, 10000);
	WAIT_UNTIL(queued(&l1) == 1, 10000);
	if (!c->is_wait_die)
		WAIT_UNTIL(__atomic_load_n(&b.wounded, __ATOMIC_RELAXED), 10000);
	/* Wound-wait: A waits for l1 and wounded B; l3 is free. */
	b_ret2 = ww_mutex_lock(&l3, &b);
	if (b_ret2 == 0)
		ww_mutex_unlock(&l3);
	ww_mutex_unlock(&l1);
	ww_acquire_fini(&b);
	__atomic_store_n(&b_step, 3, __ATOMIC_RELEASE);
	return NULL;
}

/* The older context (holding l2) waits for the younger holder of l1. */
static void older_waits(struct ww_class *c)
{
	pthread_t t;

	init_locks(c);
	b_step = 0;
	CHECK(pthread_create(&t, NULL, younger_holder, c) == 0);
	WAIT_UNTIL(__atomic_load_n(&b_step, __ATOMIC_ACQUIRE) == 1, 10000);
	ww_acquire_init(&a, c);
	/* A's stamp is later than B's: make A the older by hand. */
	a.stamp = l1.ctx->stamp - 1;
	CHECK_EQ(ww_mutex_lock(&l2, &a), 0);
	__atomic_store_n(&b_step, 2, __ATOMIC_RELEASE);
	/* A waits (older never dies); B unlocks l1 when done. */
	CHECK_EQ(ww_mutex_lock(&l1, &a), 0);
	WAIT_UNTIL(__atomic_load_n(&b_step, __ATOMIC_ACQUIRE) == 3, 10000);
	if (c->is_wait_die)
		CHECK_EQ(b_ret2, 0);		/* nobody wounds in wait-die */
	else
		CHECK_EQ(b_ret2, -EDEADLK);	/* wounded, even for free l3 */
	ww_mutex_unlock(&l1);
	ww_mutex_unlock(&l2);
	ww_acquire_fini(&a);
	pthread_join(t, NULL);
}

/* A younger context that holds nothing waits, in either class. */
static void *younger_empty(void *arg)
{
	struct ww_class *c = arg;
	struct ww_acquire_ctx b;

	ww_acquire_init(&b, c);
	__atomic_store_n(&b_step, 1, __ATOMIC_RELEASE);
	b_ret = ww_mutex_lock(&l1, &b);
	if (b_ret == 0)
		ww_mutex_unlock(&l1);
	ww_acquire_fini(&b);
	__atomic_store_n(&b_step, 2, __ATOMIC_RELEASE);
	return NULL;
}

static void younger_holding_nothing(struct ww_class *c)
{
	pthread_t t;

	init_locks(c);
	b_step = 0;
	ww_acquire_init(&a, c);
	CHECK_EQ(ww_mutex_lock(&l1, &a), 0);
	CHECK(pthread_create(&t, NULL, younger_empty, c) == 0);
	WAIT_UNTIL(queued(&l1) == 1, 10000);
	test_sleep_ms(20);
	CHECK_EQ(__atomic_load_n(&b_step, __ATOMIC_ACQUIRE), 1);
	ww_mutex_unlock(&l1);
	ww_acquire_fini(&a);
	pthread_join(t, NULL);
	CHECK_EQ(b_ret, 0);
}

/*
 * A wound that lands as its context releases its last lock (a wounder
 * that read lock->ctx before the unlock cleared it) finds the context
 * holding nothing.  Such a wound is spent: a trylock in that context
 * starts afresh, as the lock calls do, and the next lock of a free
 * ww_mutex succeeds (found in review: the trylock kept the wound, and
 * that lock returned -EDEADLK for nothing).  The wound is set by hand:
 * the race it stands for is a few instructions wide.  Wait-die ignores
 * wounds (it passes either way); wound-wait is the case.
 */
static void late_wound(struct ww_class *c)
{
	struct ww_acquire_ctx ctx;

	init_locks(c);
	ww_acquire_init(&ctx, c);
	CHECK_EQ(ww_mutex_lock(&l1, &ctx), 0);
	ww_mutex_unlock(&l1);
	__atomic_store_n(&ctx.wounded, 1, __ATOMIC_RELAXED);
	CHECK_EQ(ww_mutex_trylock(&l3, &ctx), 1);
	CHECK_EQ(ww_mutex_lock(&l4, &ctx), 0);
	ww_mutex_unlock(&l4);
	ww_mutex_unlock(&l3);
	ww_acquire_fini(&ctx);
}

static void on_signal(int sig)
{
	(void)sig;
	__atomic_store_n(&sig_seen, 1, __ATOMIC_RELAXED);
}

static void *intr_waiter(void *arg)
{
	struct ww_acquire_ctx b;

	ww_acquire_init(&b, arg);
	__atomic_store_n(&b_ret, ww_mutex_lock_interruptible(&l1, &b),
			 __ATOMIC_RELAXED);
	__atomic_store_n(&b_ret2, ww_mutex_lock_slow_interruptible(&l1, &b),
			 __ATOMIC_RELAXED);
	ww_acquire_fini(&b);
	return NULL;
}

/* -EINTR from both interruptible calls; the lock is not taken. */
static void interrupted(struct ww_class *c)
{
	pthread_t t;
	int i, n;

	init_locks(c);
	test_handle_signal(SIGUSR1, on_signal, 0);
	CHECK_EQ(ww_mutex_lock(&l1, NULL), 0);
	b_ret = b_ret2 = 1;
	CHECK(pthread_create(&t, NULL, intr_waiter, c) == 0);
	for (i = 0; i < 2; i++) {
		int *ret = i ? &b_ret2 : &b_ret;

		/* (The first round's last signal may end the second call.) */
		WAIT_UNTIL(queued(&l1) == 1 ||
			   __atomic_load_n(ret, __ATOMIC_RELAXED) != 1, 10000);
		/*
		 * Again every 10 ms until the call returns: queued is not
		 * yet asleep in futex(2), and a signal that lands before
		 * (the waiter descheduled there, on a loaded machine) only
		 * runs the handler.  A call deaf to signals still fails.
		 */
		for (n = 0; n < 500; n++) {
			test_sleep_ms(10);
			if (__atomic_load_n(ret, __ATOMIC_RELAXED) != 1)
				break;
			pthread_kill(t, SIGUSR1);
		}
		WAIT_UNTIL(__atomic_load_n(ret, __ATOMIC_RELAXED) != 1, 10000);
	}
	pthread_join(t, NULL);
	CHECK_EQ(b_ret, -EINTR);
	CHECK_EQ(b_ret2, -EINTR);
	CHECK(l1.ctx == NULL);
	ww_mutex_unlock(&l1);
}

/* N contexts, each holding lock i and wanting lock i + 1: a cycle. */
#define NCYCLE 5
static struct ww_mutex ring[NCYCLE];
static pthread_barrier_t cycle_barrier;
static struct ww_class *cycle_class;
static int cycle_done;

static void *cycle_fn(void *arg)
{
	int i = (int)(intptr_t)arg, n = (i + 1) % NCYCLE;
	struct ww_acquire_ctx ctx;
	struct ww_mutex *first = &ring[i], *second = &ring[n];
	int ret;

	ww_acquire_init(&ctx, cycle_class);
	CHECK_EQ(ww_mutex_lock(first, &ctx), 0);
	pthread_barrier_wait(&cycle_barrier);
	while ((ret = ww_mutex_lock(second, &ctx)) == -EDEADLK) {
		struct ww_mutex *t;

		ww_mutex_unlock(first);
		ww_mutex_lock_slow(second, &ctx);
		t = first;
		first = second;
		second = t;
	}
	CHECK_EQ(ret, 0);
	ww_mutex_unlock(second);
	ww_mutex_unlock(first);
	ww_acquire_fini(&ctx);
	__atomic_add_fetch(&cycle_done, 1, __ATOMIC_RELAXED);
	return NULL;
}

static void cycle(struct ww_class *c)
{
	pthread_t t[NCYCLE];
	int i;

	for (i = 0; i < NCYCLE; i++)
		ww_mutex_init(&ring[i], c);
	cycle_class = c;
	cycle_done = 0;
	pthread_barrier_init(&cycle_barrier, NULL, NCYCLE);
	for (i = 0; i < NCYCLE; i++)
		CHECK(pthread_create(&t[i], NULL, cycle_fn,
				     (void *)(intptr_t)i) == 0);
	for (i = 0; i < NCYCLE; i++)
		pthread_join(t[i], NULL);
	pthread_barrier_destroy(&cycle_barrier);
	CHECK_EQ(cycle_done, NCYCLE);
	for (i = 0; i < NCYCLE; i++)
		CHECK(!ww_mutex_is_locked(&ring[i]));
}

/* A: the older; holds l1 and sleeps on l3 (held by main, no context). */
static void *older_sleeper(void *arg)
{
	(void)arg;		/* a: initialised by main, before B's */
	CHECK_EQ(ww_mutex_lock(&l1, &a), 0);
	CHECK_EQ(ww_mutex_lock(&l3, &a), 0);
	ww_mutex_unlock(&l3);
	ww_mutex_unlock(&l1);
	ww_acquire_fini(&a);
	return NULL;
}

/* B: younger; holds l2 and wants l1, held by A. */
static void *younger_behind(void *arg)
{
	struct ww_acquire_ctx b;

	ww_acquire_init(&b, arg);
	CHECK_EQ(ww_mutex_lock(&l2, &b), 0);
	b_ret = ww_mutex_lock(&l1, &b);
	if (b_ret == 0)
		ww_mutex_unlock(&l1);
	ww_mutex_unlock(&l2);
	ww_acquire_fini(&b);
	__atomic_store_n(&b_step, 1, __ATOMIC_RELEASE);
	return NULL;
}

/*
 * A younger context that holds locks does not sleep behind an older
 * holder that sleeps itself: wait-die by its rule, wound-wait because
 * such waits chain into a convoy (src/ww_mutex.c, WW_YOUNGER_BACKS_OFF).
 * B must come back with -EDEADLK while A still sleeps.
 */
static void behind_sleeping_older(struct ww_class *c)
{
	pthread_t ta, tb;

	init_locks(c);
	b_step = 0;
	CHECK_EQ(ww_mutex_lock(&l3, NULL), 0);
	ww_acquire_init(&a, c);
	CHECK(pthread_create(&ta, NULL, older_sleeper, c) == 0);
	WAIT_UNTIL(queued(&l3) == 1 && (c->is_wait_die ||
		   __atomic_load_n(&a.sleeping, __ATOMIC_RELAXED)), 10000);
	CHECK(pthread_create(&tb, NULL, younger_behind, c) == 0);
	WAIT_UNTIL(__atomic_load_n(&b_step, __ATOMIC_ACQUIRE) == 1, 10000);
	CHECK_EQ(b_ret, -EDEADLK);
	CHECK_EQ(queued(&l3), 1);		/* A slept all along */
	ww_mutex_unlock(&l3);
	pthread_join(ta, NULL);
	pthread_join(tb, NULL);
}

/*
 * Found in review: a waiter woken by an unlock leaves (-EINTR) while a
 * younger context took the lock on the fast path, which did not check
 * the waiters.  The one left asleep, older and holding a lock, must
 * still wound that holder; before the fix nobody did, and the holder
 * could have waited for the older one's lock: a deadlock.
 */
static struct ww_acquire_ctx lw, lo, ly;	/* oldest to youngest */
static int lw_ret, lo_ret, ly_step, lw_go, lw_in_handler;

static void lw_hold(int sig)
{
	(void)sig;
	__atomic_store_n(&lw_in_handler, 1, __ATOMIC_RELEASE);
	while (!__atomic_load_n(&lw_go, __ATOMIC_ACQUIRE))
		test_sleep_ms(1);
}

static void *lw_fn(void *arg)
{
	(void)arg;
	__atomic_store_n(&lw_ret, ww_mutex_lock_interruptible(&l1, &lw),
			 __ATOMIC_RELEASE);
	return NULL;
}

static void *lo_fn(void *arg)
{
	(void)arg;
	CHECK_EQ(ww_mutex_lock(&l2, &lo), 0);
	__atomic_store_n(&lo_ret, ww_mutex_lock(&l1, &lo), __ATOMIC_RELEASE);
	ww_mutex_unlock(&l1);
	ww_mutex_unlock(&l2);
	return NULL;
}

static void *ly_fn(void *arg)
{
	(void)arg;
	CHECK_EQ(ww_mutex_lock(&l1, &ly), 0);	/* the fast path: count 1 */
	CHECK_EQ(__atomic_load_n(&l1.base.count, __ATOMIC_RELAXED), 0);
	__atomic_store_n(&ly_step, 1, __ATOMIC_RELEASE);
	WAIT_UNTIL(__atomic_load_n(&ly_step, __ATOMIC_ACQUIRE) == 2, 10000);
	/* Wounded while it held l1: its next lock backs off. */
	CHECK_EQ(ww_mutex_lock(&l3, &ly), -EDEADLK);
	ww_mutex_unlock(&l1);
	return NULL;
}

static void leaver_checks(void)
{
	pthread_t tw, to, ty;

	init_locks(&ww_class);
	test_handle_signal(SIGUSR2, lw_hold, 0);
	ww_acquire_init(&lw, &ww_class);
	ww_acquire_init(&lo, &ww_class);
	ww_acquire_init(&ly, &ww_class);
	lw_ret = lo_ret = 1;
	CHECK_EQ(ww_mutex_lock(&l1, NULL), 0);
	CHECK(pthread_create(&tw, NULL, lw_fn, NULL) == 0);
	WAIT_UNTIL(queued(&l1) == 1, 10000);
	test_sleep_ms(50);		/* asleep in futex(2) by now */
	CHECK(pthread_create(&to, NULL, lo_fn, NULL) == 0);
	WAIT_UNTIL(queued(&l1) == 2 &&
		   __atomic_load_n(&lo.sleeping, __ATOMIC_RELAXED), 10000);
	pthread_kill(tw, SIGUSR2);
	WAIT_UNTIL(__atomic_load_n(&lw_in_handler, __ATOMIC_ACQUIRE), 10000);
	ww_mutex_unlock(&l1);		/* wakes W, frees l1 (count 1) */
	CHECK(pthread_create(&ty, NULL, ly_fn, NULL) == 0);
	WAIT_UNTIL(__atomic_load_n(&ly_step, __ATOMIC_ACQUIRE) == 1, 10000);
	__atomic_store_n(&lw_go, 1, __ATOMIC_RELEASE);
	pthread_join(tw, NULL);
	CHECK_EQ(lw_ret, -EINTR);
	CHECK_EQ(__atomic_load_n(&ly.wounded, __ATOMIC_RELAXED), 1);
	__atomic_store_n(&ly_step, 2, __ATOMIC_RELEASE);
	pthread_join(ty, NULL);
	pthread_join(to, NULL);
	CHECK_EQ(lo_ret, 0);
	ww_acquire_fini(&lw);
	ww_acquire_fini(&lo);
	ww_acquire_fini(&ly);
}

/*
 * Found in review: a contextless ww_mutex_lock() queued behind every
 * waiter with a context, and unlocks wake the first waiter only, so it
 * waited as long as contexts kept coming (5 s, until they stopped).
 */
#define NSTREAM 3
static int stream_stop;

static void *stream_fn(void *arg)
{
	(void)arg;
	while (!__atomic_load_n(&stream_stop, __ATOMIC_RELAXED)) {
		struct ww_acquire_ctx c;

		ww_acquire_init(&c, &ww_class);
		CHECK_EQ(ww_mutex_lock(&l1, &c), 0);
		nanosleep(&(struct timespec){ .tv_nsec = 200000 }, NULL);
		ww_mutex_unlock(&l1);
		ww_acquire_fini(&c);
	}
	return NULL;
}

/* Stops the stream after 5 s (2: the contextless lock came first). */
static void *stream_stopper(void *arg)
{
	int ms, zero = 0;

	(void)arg;
	for (ms = 0; ms < 5000; ms += 10) {
		if (__atomic_load_n(&stream_stop, __ATOMIC_RELAXED))
			return NULL;
		test_sleep_ms(10);
	}
	__atomic_compare_exchange_n(&stream_stop, &zero, 1, false,
				    __ATOMIC_RELAXED, __ATOMIC_RELAXED);
	return NULL;
}

static void contextless_not_starved(void)
{
	pthread_t t[NSTREAM], stopper;
	int i;

	init_locks(&ww_class);
	stream_stop = 0;
	for (i = 0; i < NSTREAM; i++)
		CHECK(pthread_create(&t[i], NULL, stream_fn, NULL) == 0);
	test_sleep_ms(50);
	CHECK(pthread_create(&stopper, NULL, stream_stopper, NULL) == 0);
	CHECK_EQ(ww_mutex_lock(&l1, NULL), 0);
	/* Taken while the stream still ran (5 s: a generous bound). */
	i = 0;
	CHECK(__atomic_compare_exchange_n(&stream_stop, &i, 2, false,
					  __ATOMIC_RELAXED, __ATOMIC_RELAXED));
	ww_mutex_unlock(&l1);
	pthread_join(stopper, NULL);
	for (i = 0; i < NSTREAM; i++)
		pthread_join(t[i], NULL);
}

int main(void)
{
	struct ww_class *classes[] = { &wd_class, &ww_class };
	int i, round;

	test_watchdog(60);
	CHECK_EQ(wd_class.is_wait_die, 1);
	CHECK_EQ(ww_class.is_wait_die, 0);
	for (i = 0; i < 2; i++) {
		basic(classes[i]);
		abba(classes[i]);
		older_waits(classes[i]);
		behind_sleeping_older(classes[i]);
		younger_holding_nothing(classes[i]);
		late_wound(classes[i]);
		interrupted(classes[i]);
		for (round = 0; round < 20; round++)
			cycle(classes[i]);
	}
	leaver_checks();
	contextless_not_starved();
	return 0;
}
