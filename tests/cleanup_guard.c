// SPDX-License-Identifier: MIT
/*
 * cleanup_guard.c - <linux/cleanup.h> with the mutex guards.
 *
 * guard(mutex) holds the lock to the end of the enclosing scope however
 * the scope is left (return, goto, break, continue, falling off the
 * end); scoped_guard holds it for its block (break leaves the block);
 * the conditional guards mutex_try and mutex_intr run the block only
 * when they got the lock and never unlock a lock they did not take;
 * __free, DEFINE_FREE and no_free_ptr run or skip the cleanup; a
 * program's own DEFINE_CLASS/CLASS variables are destroyed at scope end,
 * last made first destroyed, and its own DEFINE_GUARD/DEFINE_GUARD_COND
 * lock type works with guard, scoped_guard and scoped_cond_guard.
 */
#include <linux/cleanup.h>
#include <linux/mutex.h>

#include "harness.h"

static DEFINE_MUTEX(a);
static DEFINE_MUTEX(b);

static bool held(struct mutex *m)
{
	return __atomic_load_n(&m->count, __ATOMIC_RELAXED) != 1;
}

static void check_free(struct mutex *m)
{
	CHECK_EQ(m->count, 1);
	CHECK(!mutex_is_locked(m));
}

/* --- guard(mutex) ---------------------------------------------------- */

static int guarded_return(int x)
{
	guard(mutex)(&a);
	CHECK(held(&a));
	if (x > 0)
		return x * 2;
	CHECK(held(&a));
	return -1;
}

static int guarded_goto(int x)
{
	int ret = 0;

	{
		guard(mutex)(&a);
		CHECK(held(&a));
		if (x)
			goto out;
		ret = 1;
	}
	CHECK(!held(&a));
	ret += 10;
out:
	CHECK(!held(&a));
	return ret;
}

static void check_guard(void)
{
	int i, n;

	CHECK_EQ(guarded_return(21), 42);
	check_free(&a);
	CHECK_EQ(guarded_return(0), -1);
	check_free(&a);

	CHECK_EQ(guarded_goto(1), 0);
	check_free(&a);
	CHECK_EQ(guarded_goto(0), 11);
	check_free(&a);

	/* Released every iteration (else the next would deadlock), on
	 * continue, and on break. */
	for (i = 0, n = 0; i < 10; i++) {
		guard(mutex)(&a);
		CHECK_EQ(a.count, 0);
		n++;
		if (i & 1)
			continue;
		if (i == 6)
			break;
	}
	CHECK_EQ(n, 7);
	check_free(&a);

	while (1) {
		guard(mutex)(&a);
		if (held(&a))
			break;
	}
	check_free(&a);

	/* Nested scopes release innermost first, each at its own end. */
	{
		guard(mutex)(&a);
		{
			guard(mutex)(&b);
			CHECK(held(&a) && held(&b));
		}
		CHECK(held(&a));
		check_free(&b);
		{
			guard(mutex)(&b);
			CHECK(held(&a) && held(&b));
		}
		check_free(&b);
	}
	check_free(&a);
}

/* --- scoped_guard ---------------------------------------------------- */

static int scoped_return(void)
{
	scoped_guard(mutex, &a) {
		CHECK(held(&a));
		return 7;
	}
	return -1;
}

static void check_scoped_guard(void)
{
	int ran = 0, after = 0, i;

	scoped_guard(mutex, &a) {
		CHECK(held(&a));
		ran++;
	}
	CHECK_EQ(ran, 1);
	check_free(&a);

	/* break leaves the guarded block, not an enclosing loop. */
	for (i = 0; i < 3; i++) {
		scoped_guard(mutex, &a) {
			ran++;
			if (i >= 0)
				break;
			ran += 100;
		}
		CHECK(!held(&a));
		after++;
	}
	CHECK_EQ(ran, 4);
	CHECK_EQ(after, 3);
	check_free(&a);

	CHECK_EQ(scoped_return(), 7);
	check_free(&a);

	/* Nested, two locks, and the same lock again afterwards. */
	scoped_guard(mutex, &a)
		scoped_guard(mutex, &b)
			CHECK(held(&a) && held(&b));
	check_free(&a);
	check_free(&b);
}

/* --- scoped_guard(mutex_try) ---------------------------------------- */

static int other_holds, other_release;

/* Holds @arg until told to let go; then must find it still locked. */
static void *other_holder(void *arg)
{
	struct mutex *m = arg;

	mutex_lock(m);
	__atomic_store_n(&other_holds, 1, __ATOMIC_RELEASE);
	while (!__atomic_load_n(&other_release, __ATOMIC_ACQUIRE))
		test_sleep_ms(1);
	/* A guard that unlocked it would make this abort ("not locked"). */
	CHECK(held(m));
	mutex_unlock(m);
	return NULL;
}

static void hold_elsewhere(pthread_t *t, struct mutex *m)
{
	other_holds = other_release = 0;
	CHECK(pthread_create(t, NULL, other_holder, m) == 0);
	WAIT_UNTIL(__atomic_load_n(&other_holds, __ATOMIC_ACQUIRE), 5000);
}

static void release_elsewhere(pthread_t t)
{
	__atomic_store_n(&other_release, 1, __ATOMIC_RELEASE);
	CHECK(pthread_join(t, NULL) == 0);
}

static void check_try_guard(void)
{
	pthread_t t;
	int ran = 0;

	scoped_guard(mutex_try, &a) {
		CHECK(held(&a));
		ran++;
	}
	CHECK_EQ(ran, 1);
	check_free(&a);

	/* Held by another thread: no body, and the lock stays theirs. */
	hold_elsewhere(&t, &a);
	scoped_guard(mutex_try, &a)
		ran += 100;
	CHECK_EQ(ran, 1);
	CHECK_EQ(a.count, 0);
	release_elsewhere(t);
	check_free(&a);

	/* Held by this thread: no body, and still held afterwards. */
	mutex_lock(&a);
	scoped_guard(mutex_try, &a)
		ran += 100;
	CHECK_EQ(ran, 1);
	CHECK_EQ(a.count, 0);
	mutex_unlock(&a);
	check_free(&a);
}

/* --- scoped_cond_guard(mutex_intr) ---------------------------------- */

static int body_runs;

static void handler(int sig)
{
	(void)sig;
}

/* Kernel style: the fail statement returns -EINTR. */
static int intr_section(void)
{
	scoped_cond_guard(mutex_intr, return -EINTR, &a) {
		CHECK(held(&a));
		body_runs++;
		return 0;
	}
	return 1;	/* neither ran: a broken guard */
}

struct intr_waiter {
	pthread_t thread;
	int ret;
	int done;
};

static void *intr_waiter_thread(void *arg)
{
	struct intr_waiter *w = arg;

	w->ret = intr_section();
	__atomic_store_n(&w->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

/* Signal @w until it returns (an early signal may miss the wait). */
static void interrupt(struct intr_waiter *w)
{
	uint64_t end = test_now_ns() + 5000000000ull;

	while (!__atomic_load_n(&w->done, __ATOMIC_ACQUIRE)) {
		CHECK(test_now_ns() < end);
		CHECK(pthread_kill(w->thread, SIGUSR1) == 0);
		POLL_UNTIL(__atomic_load_n(&w->done, __ATOMIC_ACQUIRE), 10);
	}
	CHECK(pthread_join(w->thread, NULL) == 0);
}

static void check_intr_guard(int flags)
{
	struct intr_waiter w = { 0 };
	pthread_t t;

	test_handle_signal(SIGUSR1, handler, flags);

	/* Free: the body runs with the lock held. */
	body_runs = 0;
	CHECK_EQ(intr_section(), 0);
	CHECK_EQ(body_runs, 1);
	check_free(&a);

	/* Held by another thread, waiter signalled: fail runs. */
	hold_elsewhere(&t, &a);
	CHECK(pthread_create(&w.thread, NULL, intr_waiter_thread, &w) == 0);
	WAIT_UNTIL(test_waiters(&a.wait_list) == 1, 5000);
	interrupt(&w);
	CHECK_EQ(w.ret, -EINTR);
	CHECK_EQ(body_runs, 1);
	CHECK(held(&a));	/* still the other thread's */
	release_elsewhere(t);
	check_free(&a);

	/* Held, then released while waiting: the body runs. */
	hold_elsewhere(&t, &a);
	w = (struct intr_waiter){ 0 };
	CHECK(pthread_create(&w.thread, NULL, intr_waiter_thread, &w) == 0);
	WAIT_UNTIL(test_waiters(&a.wait_list) == 1, 5000);
	release_elsewhere(t);
	WAIT_UNTIL(__atomic_load_n(&w.done, __ATOMIC_ACQUIRE), 5000);
	CHECK(pthread_join(w.thread, NULL) == 0);
	CHECK_EQ(w.ret, 0);
	CHECK_EQ(body_runs, 2);
	check_free(&a);
}

/* --- __free, DEFINE_FREE, no_free_ptr ------------------------------- */

static int freed;

static void counted_free(int *p)
{
	freed++;
	free(p);
}

DEFINE_FREE(counted, int *, if (_T) counted_free(_T))

static int *make(int v)
{
	int *p = malloc(sizeof(*p));

	CHECK(p);
	*p = v;
	return p;
}

static int *keep_one(void)
{
	int *p __free(counted) = make(3);
	int *q __free(counted) = make(4);

	(void)q;
	return_ptr(p);		/* p survives, q is freed */
}

static void check_free_ptr(void)
{
	int *kept;

	freed = 0;
	{
		int *p __free(counted) = make(1);

		CHECK_EQ(*p, 1);
		CHECK_EQ(freed, 0);
	}
	CHECK_EQ(freed, 1);

	{
		int *p __free(counted) = NULL;	/* nothing to free */

		(void)p;
	}
	CHECK_EQ(freed, 1);

	{
		int *p __free(counted) = make(2);

		kept = no_free_ptr(p);
		CHECK(p == NULL);
	}
	CHECK_EQ(freed, 1);
	CHECK_EQ(*kept, 2);
	counted_free(kept);
	CHECK_EQ(freed, 2);

	kept = keep_one();
	CHECK_EQ(freed, 3);
	CHECK_EQ(*kept, 3);
	counted_free(kept);
	CHECK_EQ(freed, 4);
}

/* --- a program's own classes and guards ---------------------------- */

static int trail[8], ntrail;

static int note(int v)
{
	if (ntrail < 8)
		trail[ntrail++] = v;
	return v;
}

/* A value made by the constructor, noted negative when destroyed. */
DEFINE_CLASS(noted, int, note(-_T), note(a + b), int a, int b)

static int classes_in_scope(void)
{
	CLASS(noted, x)(1, 2);
	CLASS(noted, y)(10, 20);

	CHECK_EQ(x, 3);
	CHECK_EQ(y, 30);
	CHECK_EQ(ntrail, 2);
	return x + y;
}

static void check_class(void)
{
	ntrail = 0;
	CHECK_EQ(classes_in_scope(), 33);
	CHECK_EQ(ntrail, 4);
	CHECK_EQ(trail[0], 3);
	CHECK_EQ(trail[1], 30);
	CHECK_EQ(trail[2], -30);	/* y, made last, destroyed first */
	CHECK_EQ(trail[3], -3);
}

/* A lock type of the program's own: a flag, and how often it changed. */
struct flag {
	bool held;
	int takes, drops;
};

static void flag_take(struct flag *f)
{
	CHECK(!f->held);
	f->held = true;
	f->takes++;
}

static bool flag_try(struct flag *f)
{
	if (f->held)
		return false;
	flag_take(f);
	return true;
}

static void flag_drop(struct flag *f)
{
	CHECK(f->held);
	f->held = false;
	f->drops++;
}

DEFINE_GUARD(flag, struct flag *, flag_take(_T), flag_drop(_T))
DEFINE_GUARD_COND(flag, _try, flag_try(_T))

static void check_own_guard(void)
{
	struct flag f = { 0 };
	int ran = 0, failed = 0;

	{
		guard(flag)(&f);
		CHECK(f.held);
		scoped_guard(flag_try, &f)
			ran++;			/* held: must not run */
		scoped_cond_guard(flag_try, failed++, &f)
			ran++;
	}
	CHECK(!f.held);
	CHECK_EQ(ran, 0);
	CHECK_EQ(failed, 1);
	scoped_guard(flag_try, &f) {
		CHECK(f.held);
		ran++;
	}
	scoped_cond_guard(flag_try, failed++, &f) {
		CHECK(f.held);
		ran++;
	}
	CHECK(!f.held);
	CHECK_EQ(ran, 2);
	CHECK_EQ(failed, 1);
	/* Every take was dropped once; the failed tries dropped nothing. */
	CHECK_EQ(f.takes, 3);
	CHECK_EQ(f.drops, 3);
}

int main(void)
{
	test_watchdog(60);
	check_guard();
	check_scoped_guard();
	check_try_guard();
	check_intr_guard(0);
	check_intr_guard(SA_RESTART);
	check_free_ptr();
	check_class();
	check_own_guard();
	check_free(&a);
	check_free(&b);
	return 0;
}
