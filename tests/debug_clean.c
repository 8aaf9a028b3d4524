// SPDX-License-Identifier: MIT
/*
 * debug_clean - correct programs produce no report at all: one order
 * over many threads and classes, nested subclasses, hand-over-hand
 * locking, a nest lock, per-lock classes, trylock against the order,
 * a no-validate lock, guards, the assertions and checks that hold.
 */
#include <linux/mutex.h>

#include "debug_harness.h"

#define NTHREADS	4
#define NCLASSES	64

static DEFINE_MUTEX(outer);
static DEFINE_MUTEX(middle);

struct node {
	struct mutex lock;
	int value;
};

static struct node nodes[NCLASSES];
static struct lock_class_key node_keys[NCLASSES];
static struct node inner[2];
static struct node chain[8];
static DEFINE_MUTEX(chain_lock);

static void node_init(struct node *n)
{
	mutex_init(&n->lock);
}

/* Always outer -> middle -> nodes[i] -> nodes[j] (i < j): no cycle. */
/*
 * Not checked by clang -Wthread-safety: array elements and conditional
 * locking, which the analysis cannot tell apart.
 */
static __no_context_analysis void *ordered(void *arg)
{
	unsigned int seed = (unsigned int)(uintptr_t)arg;
	int k;

	for (k = 0; k < 2000; k++) {
		int i = rand_r(&seed) % NCLASSES;
		int j = i + 1 + rand_r(&seed) % (NCLASSES - i);

		mutex_lock(&outer);
		if (k & 1)
			mutex_lock(&middle);
		mutex_lock(&nodes[i].lock);
		if (j < NCLASSES) {
			mutex_lock(&nodes[j].lock);
			nodes[j].value++;
			mutex_unlock(&nodes[j].lock);
		}
		nodes[i].value++;
		mutex_unlock(&nodes[i].lock);
		if (k & 1)
			mutex_unlock(&middle);
		mutex_unlock(&outer);
	}
	return NULL;
}

/* Two locks of one class, in a fixed order told by the subclass. */
/*
 * Not checked by clang -Wthread-safety: array elements and conditional
 * locking, which the analysis cannot tell apart.
 */
static __no_context_analysis void nested_subclass(void)
{
	mutex_lock(&inner[0].lock);
	mutex_lock_nested(&inner[1].lock, 1);
	mutex_unlock(&inner[1].lock);
	mutex_unlock(&inner[0].lock);
	CHECK_EQ(mutex_lock_interruptible_nested(&inner[0].lock, 0), 0);
	CHECK_EQ(mutex_lock_killable_nested(&inner[1].lock, 1), 0);
	mutex_unlock(&inner[0].lock);	/* out of order: fine */
	mutex_unlock(&inner[1].lock);
}

/* Hand over hand along nodes of one class each, released out of order. */
/*
 * Not checked by clang -Wthread-safety: array elements and conditional
 * locking, which the analysis cannot tell apart.
 */
static __no_context_analysis void hand_over_hand(void)
{
	int i;

	mutex_lock(&nodes[0].lock);
	for (i = 1; i < 10; i++) {
		mutex_lock(&nodes[i].lock);
		mutex_unlock(&nodes[i - 1].lock);
	}
	mutex_unlock(&nodes[9].lock);

	/* Instances of one class under a nest lock (lockdep's idea). */
	mutex_lock(&chain_lock);
	mutex_lock_nest_lock(&chain[0].lock, &chain_lock);
	for (i = 1; i < 8; i++) {
		mutex_lock_nest_lock(&chain[i].lock, &chain_lock);
		mutex_unlock(&chain[i - 1].lock);
	}
	mutex_unlock(&chain[7].lock);
	mutex_unlock(&chain_lock);
}

/* A trylock cannot deadlock: the reverse order with it is no cycle. */
static DEFINE_MUTEX(try_a);
static DEFINE_MUTEX(try_b);

static void trylock_reverse(void)
{
	mutex_lock(&try_a);
	mutex_lock(&try_b);
	mutex_unlock(&try_b);
	mutex_unlock(&try_a);
	mutex_lock(&try_b);
	CHECK(mutex_trylock(&try_a));
	mutex_unlock(&try_a);
	mutex_unlock(&try_b);
}

/* A no-validate lock takes no part in the order checks. */
static DEFINE_MUTEX(nv_a);
static struct mutex nv;

static void novalidate(void)
{
	mutex_init(&nv);
	lockdep_set_novalidate_class(&nv);
	mutex_lock(&nv_a);
	mutex_lock(&nv);
	mutex_unlock(&nv);
	mutex_unlock(&nv_a);
	mutex_lock(&nv);
	mutex_lock(&nv_a);
	lockdep_assert_held(&nv);
	mutex_unlock(&nv_a);
	mutex_unlock(&nv);
}

static int guarded(struct node *n)
{
	guard(mutex)(&outer);
	scoped_guard(mutex, &n->lock) {
		lockdep_assert_held(&n->lock);
		n->value++;
	}
	scoped_guard(mutex_try, &middle)
		n->value++;
	scoped_cond_guard(mutex_intr, return -EINTR, &middle)
		n->value++;
	lockdep_assert_held(&outer);
	return 0;
}

static void on_usr1(int sig)
{
	(void)sig;	/* a handler that takes no lock is fine */
}

static void checks(void)
{
	struct node *n = calloc(1, sizeof(*n));

	CHECK(n);
	node_init(n);
	mutex_lock(&outer);
	debug_check_no_locks_freed(n, sizeof(*n));	/* not held */
	mutex_unlock(&outer);
	mutex_lock(&n->lock);
	mutex_unlock(&n->lock);
	mutex_destroy(&n->lock);
	debug_check_no_locks_freed(n, sizeof(*n));
	free(n);
	debug_check_no_locks_held();

	test_handle_signal(SIGUSR1, on_usr1, 0);
	mutex_lock(&outer);
	raise(SIGUSR1);
	mutex_unlock(&outer);
}

/* Not checked by clang -Wthread-safety: exits holding a lock on purpose. */
static __no_context_analysis void clean(void)
{
	int i;

	for (i = 0; i < NCLASSES; i++) {
		node_init(&nodes[i]);
		lockdep_set_class(&nodes[i].lock, &node_keys[i]);
	}
	for (i = 0; i < 2; i++)
		node_init(&inner[i]);
	for (i = 0; i < 8; i++)
		node_init(&chain[i]);
	{
		pthread_t t[NTHREADS];

		for (i = 0; i < NTHREADS; i++)
			CHECK(pthread_create(&t[i], NULL, ordered,
					     (void *)(uintptr_t)(i + 1)) == 0);
		for (i = 0; i < NTHREADS; i++)
			pthread_join(t[i], NULL);
	}
	nested_subclass();
	hand_over_hand();
	trylock_reverse();
	novalidate();
	CHECK_EQ(guarded(&nodes[3]), 0);
	checks();
	/* Exiting the whole process with a lock held is not a bug. */
	mutex_lock(&outer);
}

DEBUG_EXPECT_CLEAN(clean)
