// SPDX-License-Identifier: MIT
/*
 * cleanup_lock_guard.c - the guards kernel headers build their spinlock,
 * RCU and "noio" guards with: DEFINE_LOCK_GUARD_1 (with a member kept
 * from lock to unlock, as spinlock_irqsave keeps its flags),
 * DEFINE_LOCK_GUARD_1_COND, DEFINE_LOCK_GUARD_0, EXTEND_CLASS,
 * DEFINE_CLASS_IS_GUARD / _COND_GUARD / _UNCONDITIONAL, and the kernel's
 * internal __DEFINE_CLASS_IS_CONDITIONAL, which bcachefs-tools uses.
 *
 * Each guard releases what it took, once, however its scope is left;
 * the conditional ones run their block only when they got the lock and
 * release nothing otherwise, the others always run it; and a lock guard
 * around a struct mutex, modelled on bcachefs' mutex_noio, keeps 6
 * threads (more than the CPUs of the machines it runs on) apart and
 * restores each thread's saved state.  A class whose functions go
 * unused does not fail the build (clang -Wall warned of each one).
 */
#include <linux/cleanup.h>
#include <linux/mutex.h>

#include "harness.h"

/*
 * Classes defined and left unused, or used only in part (guard() needs
 * no lock_ptr): clang -Wall -Werror must not fail on their functions.
 */
struct idle {
	int n;
};
static void idle_take(struct idle *i) { i->n++; }
static void idle_drop(struct idle *i) { i->n--; }
DEFINE_GUARD(idle, struct idle *, idle_take(_T), idle_drop(_T))
DEFINE_GUARD_COND(idle, _try, (idle_take(_T), 1))
DEFINE_CLASS(idle_class, int, (void)_T, a, int a)
EXTEND_CLASS(idle_class, _more, a + 1, int a)
DEFINE_CLASS_IS_GUARD(idle_class)
DEFINE_LOCK_GUARD_0(idle0, (void)0, (void)0)
DEFINE_LOCK_GUARD_1(idle1, struct idle, idle_take(_T->lock),
		    idle_drop(_T->lock))
DEFINE_LOCK_GUARD_1_COND(idle1, _try, (idle_take(_T->lock), 1))
DEFINE_FREE(idle_free, int *, (void)_T)

static void check_unused(void)
{
	struct idle i = { 0 };

	{
		guard(idle)(&i);
		CHECK_EQ(i.n, 1);
	}
	CHECK_EQ(i.n, 0);
}

/* --- a toy "irqsave" lock: the guard keeps the state it saved --------- */

struct toy {
	int held, takes, drops;
};

static __thread unsigned long irq_state = 7;

static unsigned long toy_lock_save(struct toy *t)
{
	unsigned long old = irq_state;

	CHECK(!t->held);
	t->held = 1;
	t->takes++;
	irq_state = 0;
	return old;
}

static void toy_unlock_restore(struct toy *t, unsigned long flags)
{
	CHECK(t->held);
	t->held = 0;
	t->drops++;
	irq_state = flags;
}

static bool toy_trylock_save(struct toy *t, unsigned long *flags)
{
	if (t->held)
		return false;
	*flags = toy_lock_save(t);
	return true;
}

DEFINE_LOCK_GUARD_1(toy, struct toy,
		    _T->flags = toy_lock_save(_T->lock),
		    toy_unlock_restore(_T->lock, _T->flags),
		    unsigned long flags)
DEFINE_LOCK_GUARD_1_COND(toy, _try, toy_trylock_save(_T->lock, &_T->flags))

static int toy_in_scope(struct toy *t, int x)
{
	guard(toy)(t);
	CHECK(t->held);
	CHECK_EQ(irq_state, 0);
	if (x)
		return x;
	return -1;
}

static void check_lock_guard_1(void)
{
	struct toy t = { 0 };
	int ran = 0, i;

	CHECK_EQ(toy_in_scope(&t, 5), 5);
	CHECK_EQ(toy_in_scope(&t, 0), -1);
	CHECK(!t.held);
	CHECK_EQ(irq_state, 7);		/* the saved flags came back */
	for (i = 0; i < 3; i++) {
		scoped_guard(toy, &t) {
			CHECK(t.held);
			ran++;
			if (i == 1)
				break;	/* leaves the block only */
			CHECK_EQ(irq_state, 0);
		}
		CHECK(!t.held);
	}
	CHECK_EQ(ran, 3);
	{
		CLASS(toy, g)(&t);
		CHECK(g.lock == &t);
		CHECK_EQ(g.flags, 7);
		irq_state = 3;		/* the unlock restores 7 */
	}
	CHECK_EQ(irq_state, 7);
	CHECK_EQ(t.takes, 6);
	CHECK_EQ(t.drops, 6);
}

static void check_lock_guard_1_cond(void)
{
	struct toy t = { 0 };
	int ran = 0, failed = 0;

	scoped_guard(toy_try, &t) {
		CHECK(t.held);
		CHECK_EQ(irq_state, 0);
		ran++;
		/* Held: the inner try gets nothing and releases nothing. */
		scoped_guard(toy_try, &t)
			ran += 100;
		scoped_cond_guard(toy_try, failed++, &t)
			ran += 100;
		{
			CLASS(toy_try, g)(&t);
			CHECK(g.lock == NULL);
		}
		CHECK(t.held);
	}
	CHECK(!t.held);
	CHECK_EQ(irq_state, 7);
	CHECK_EQ(ran, 1);
	CHECK_EQ(failed, 1);
	scoped_cond_guard(toy_try, failed++, &t)
		ran++;
	CHECK_EQ(ran, 2);
	CHECK_EQ(failed, 1);
	CHECK_EQ(t.takes, 2);
	CHECK_EQ(t.drops, 2);
}

/* --- DEFINE_LOCK_GUARD_0: a nesting count, as rcu_read_lock() ---------- */

static __thread int nesting, max_nesting;

DEFINE_LOCK_GUARD_0(reader,
		    if (++nesting > max_nesting) max_nesting = nesting,
		    nesting--)

static int reader_depth(int n)
{
	guard(reader)();
	if (n > 1)
		return reader_depth(n - 1);
	return nesting;
}

static void check_lock_guard_0(void)
{
	int ran = 0;

	CHECK_EQ(reader_depth(4), 4);
	CHECK_EQ(nesting, 0);
	CHECK_EQ(max_nesting, 4);
	scoped_guard(reader) {		/* no argument, still a block */
		CHECK_EQ(nesting, 1);
		ran++;
	}
	CHECK_EQ(ran, 1);
	CHECK_EQ(nesting, 0);
}

/* --- EXTEND_CLASS and DEFINE_CLASS_IS_(COND_)GUARD -------------------- */

static int opened, closed;

static int *open_slot(int *slot, int v)
{
	if (!slot)
		return NULL;
	*slot = v;
	opened++;
	return slot;
}

DEFINE_CLASS(slot, int *, if (_T) { closed++; *_T = 0; },
	     open_slot(s, 1), int *s)
EXTEND_CLASS(slot, _val, open_slot(s, v), int *s, int v)
DEFINE_CLASS_IS_GUARD(slot)
DEFINE_CLASS_IS_COND_GUARD(slot_val)

static void check_extend_class(void)
{
	int x = 0, ran = 0;

	{
		CLASS(slot_val, s)(&x, 42);
		CHECK_EQ(*s, 42);
		{
			CLASS(slot, t)(&x);
			CHECK_EQ(x, 1);
		}
		CHECK_EQ(x, 0);		/* t's destructor */
	}
	CHECK_EQ(opened, 2);
	CHECK_EQ(closed, 2);
	scoped_guard(slot_val, &x, 9) {
		CHECK_EQ(x, 9);
		ran++;
	}
	CHECK_EQ(x, 0);
	scoped_guard(slot_val, NULL, 9)	/* a NULL value: no block */
		ran += 100;
	scoped_guard(slot, &x)
		ran += x;
	CHECK_EQ(ran, 2);
	/* Not conditional: the block runs even on a NULL value. */
	scoped_guard(slot, NULL)
		ran++;
	CHECK_EQ(ran, 3);
	CHECK_EQ(opened, 4);
	CHECK_EQ(closed, 4);
	CHECK(!__is_cond_ptr(slot) && __is_cond_ptr(slot_val));
}

/*
 * bcachefs' way: a class, a lock_ptr of its own and the kernel's
 * internal __DEFINE_CLASS_IS_CONDITIONAL.
 */
static int depth;

DEFINE_CLASS(deeper, int, depth = _T, depth++, void)
static inline void *class_deeper_lock_ptr(class_deeper_t *_T)
{
	return (void *)(unsigned long)(*_T + 1);
}
__DEFINE_CLASS_IS_CONDITIONAL(deeper, false);

static void check_own_lock_ptr(void)
{
	int ran = 0;

	scoped_guard(deeper) {
		CHECK_EQ(depth, 1);
		scoped_guard(deeper)
			CHECK_EQ(depth, 2);
		CHECK_EQ(depth, 1);
		ran++;
	}
	CHECK_EQ(depth, 0);
	CHECK_EQ(ran, 1);
	{
		CLASS(deeper, d)();
		CHECK(__guard_ptr(deeper)(&d) == (void *)1);
	}
}

/* A class whose value is a struct, not a lock pointer. */
struct saved {
	int was;
};

static int level = 3;

DEFINE_CLASS(raised, struct saved, level = _T.was,
	     __extension__ ({ struct saved s = { level }; level = 9; s; }),
	     void)
DEFINE_CLASS_IS_UNCONDITIONAL(raised)

static void check_unconditional(void)
{
	int ran = 0;

	scoped_guard(raised) {
		CHECK_EQ(level, 9);
		ran++;
	}
	CHECK_EQ(ran, 1);
	CHECK_EQ(level, 3);
	CHECK(!__is_cond_ptr(raised));
}

/* --- a lock guard around struct mutex, from 6 threads ----------------- */

/* bcachefs' mutex_noio: the mutex and a saved per-thread state. */
struct mutex_noio {
	struct mutex lock;
};

static __thread unsigned int thread_flags;

static unsigned int flags_save(void)
{
	unsigned int old = thread_flags;

	thread_flags |= 0x100;
	return old;
}

DEFINE_LOCK_GUARD_1(mutex_noio, struct mutex_noio,
		    _T->flags = flags_save(); mutex_lock(&_T->lock->lock),
		    mutex_unlock(&_T->lock->lock); thread_flags = _T->flags,
		    unsigned int flags)
DEFINE_LOCK_GUARD_1_COND(mutex_noio, _try,
			 mutex_trylock(&_T->lock->lock) &&
			 (_T->flags = flags_save(), 1))

static struct mutex_noio noio = { .lock = __MUTEX_INITIALIZER(noio.lock) };
static long counter, tried;
static uint64_t stop_at;

static void bump(long *c)
{
	long v = __atomic_load_n(c, __ATOMIC_RELAXED);

	if ((v & 63) == 0)
		sched_yield();	/* hold the lock across a switch */
	__atomic_store_n(c, v + 1, __ATOMIC_RELAXED);
}

struct noio_worker {
	long n, tries;		/* iterations, tries that got the lock */
};

static void *noio_thread(void *arg)
{
	struct noio_worker *w = arg;
	long n = 0;

	thread_flags = 1;
	while (n < 2000 || test_now_ns() < stop_at) {
		if (n % 3 == 0) {
			guard(mutex_noio)(&noio);
			CHECK_EQ(thread_flags, 0x101);
			bump(&counter);
		} else if (n % 3 == 1) {
			scoped_guard(mutex_noio, &noio)
				bump(&counter);
		} else {
			scoped_guard(mutex_noio_try, &noio) {
				CHECK_EQ(thread_flags, 0x101);
				bump(&tried);
				w->tries++;
			}
		}
		CHECK_EQ(thread_flags, 1);
		n++;
	}
	w->n = n;
	return NULL;
}

static void check_mutex_lock_guard(void)
{
	struct noio_worker w[6] = { { 0, 0 } };
	long want = 0, tries = 0;
	int i;

	stop_at = test_now_ns() + test_duration_ns(0.5);
	test_run_threads(6, noio_thread, w, sizeof(w[0]));
	for (i = 0; i < 6; i++) {
		/* The iterations k with k % 3 != 2 did not try. */
		want += w[i].n - w[i].n / 3;
		tries += w[i].tries;
	}
	CHECK_EQ(counter, want);
	CHECK_EQ(tried, tries);
	CHECK(tried > 0);
	CHECK(!mutex_is_locked(&noio.lock));
}

int main(void)
{
	test_watchdog(60);
	check_unused();
	check_lock_guard_1();
	check_lock_guard_1_cond();
	check_lock_guard_0();
	check_extend_class();
	check_own_lock_ptr();
	check_unconditional();
	check_mutex_lock_guard();
	return 0;
}
