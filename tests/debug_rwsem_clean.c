// SPDX-License-Identifier: MIT
/*
 * debug_rwsem_clean - correct programs with rwsems produce no report:
 * readers and writers of rwsems and mutexes in one order over more
 * threads than CPUs (so that they wait and are preempted inside), two
 * rwsems of one class under down_*_nested(), downgrade_write, trylock
 * against the order, the guards, lockdep_assert_held and
 * lockdep_set_class on rwsems, hand-over-hand release.
 */
#include <linux/mutex.h>
#include <linux/rwsem.h>

#include "debug_harness.h"

#define NTHREADS	12
#define NNODES		16
#define ROUNDS		10000

static DECLARE_RWSEM(dir_sem);
static DEFINE_MUTEX(stat_lock);

struct node {
	struct rw_semaphore sem;
	long value;
};

static struct node nodes[NNODES];
static long dir_version, dir_readers_saw;
static long stats;

static void node_init(struct node *n)
{
	init_rwsem(&n->sem);
}

/*
 * dir_sem -> node i -> node j (i < j, subclass 1) -> stat_lock.  Not
 * checked by clang -Wthread-safety: conditional locking of array
 * elements, which the analysis cannot tell apart.
 */
static __no_context_analysis void one_round(unsigned int *seed, int k)
{
	int i = rand_r(seed) % NNODES;
	int j = i + 1 + rand_r(seed) % NNODES;
	bool write_dir = (k % 8) == 0, write_node = k & 1;

	if (write_dir)
		down_write(&dir_sem);
	else
		CHECK_EQ(down_read_interruptible(&dir_sem), 0);
	if (write_node)
		CHECK_EQ(down_write_killable(&nodes[i].sem), 0);
	else
		down_read(&nodes[i].sem);
	if (j < NNODES) {
		if (write_node)
			down_write_nested(&nodes[j].sem, SINGLE_DEPTH_NESTING);
		else
			down_read_nested(&nodes[j].sem, SINGLE_DEPTH_NESTING);
		/* Hand over hand: the outer node goes first. */
		write_node ? up_write(&nodes[i].sem) : up_read(&nodes[i].sem);
		i = j;
	}
	if (write_node) {
		lockdep_assert_held(&nodes[i].sem);
		nodes[i].value++;
	}
	mutex_lock(&stat_lock);
	stats++;
	mutex_unlock(&stat_lock);
	write_node ? up_write(&nodes[i].sem) : up_read(&nodes[i].sem);
	if (write_dir) {
		dir_version++;
		downgrade_write(&dir_sem);	/* readers may come in now */
		lockdep_assert_held(&dir_sem);
		CHECK(dir_version > 0);
	}
	up_read(&dir_sem);
}

static void *worker(void *arg)
{
	unsigned int seed = (unsigned int)(uintptr_t)arg;
	int k;

	for (k = 0; k < ROUNDS; k++)
		one_round(&seed, k);
	return NULL;
}

/* A trylock cannot deadlock: the reverse order with it is no cycle. */
static void trylock_reverse(void)
{
	mutex_lock(&stat_lock);
	if (down_read_trylock(&dir_sem))
		up_read(&dir_sem);
	if (down_write_trylock(&nodes[0].sem))
		up_write(&nodes[0].sem);
	mutex_unlock(&stat_lock);
}

static int guarded(void)
{
	guard(rwsem_read)(&dir_sem);
	scoped_guard(rwsem_write, &nodes[1].sem)
		nodes[1].value++;
	scoped_guard(rwsem_read_try, &nodes[2].sem)
		dir_readers_saw++;
	scoped_cond_guard(rwsem_write_kill, return -EINTR, &nodes[3].sem)
		nodes[3].value++;
	lockdep_assert_held(&dir_sem);
	return 0;
}

/* A rwsem given a class of its own may be taken inside one of nodes'. */
static struct lock_class_key own_key;

static void own_class(void)
{
	struct node *n = calloc(1, sizeof(*n));

	CHECK(n);
	node_init(n);
	lockdep_set_class(&n->sem, &own_key);
	down_read(&nodes[5].sem);
	down_write(&n->sem);
	up_write(&n->sem);
	up_read(&nodes[5].sem);
	debug_check_no_locks_freed(n, sizeof(*n));
	free(n);
	debug_check_no_locks_held();
}

/* Not checked by clang -Wthread-safety: exits holding a lock on purpose. */
static __no_context_analysis void clean(void)
{
	pthread_t t[NTHREADS];
	long total = 0;
	int i;

	for (i = 0; i < NNODES; i++)
		node_init(&nodes[i]);
	for (i = 0; i < NTHREADS; i++)
		CHECK(pthread_create(&t[i], NULL, worker,
				     (void *)(uintptr_t)(i + 1)) == 0);
	for (i = 0; i < NTHREADS; i++)
		pthread_join(t[i], NULL);
	CHECK_EQ(stats, NTHREADS * ROUNDS);
	CHECK_EQ(dir_version, NTHREADS * ((ROUNDS - 1) / 8 + 1));
	for (i = 0; i < NNODES; i++) {
		CHECK(!rwsem_is_locked(&nodes[i].sem));
		total += nodes[i].value;
	}
	CHECK_EQ(total, NTHREADS * (ROUNDS / 2));
	trylock_reverse();
	CHECK_EQ(guarded(), 0);
	own_class();
	/* Exiting the whole process with a lock held is not a bug. */
	down_read(&dir_sem);
}

DEBUG_EXPECT_CLEAN(clean)
