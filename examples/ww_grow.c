// SPDX-License-Identifier: MIT
/*
 * ww_grow.c - lock a set of ww_mutexes that grows while it is locked.
 *
 * Nodes form chains: each node links to the next one, or to none, and
 * that link may be read and changed only under the node's lock.  So a
 * thread that wants a whole chain learns its members one at a time, as
 * it locks them: lock the first node, read its link, lock that node,
 * read its link, ...  The set is not known up front and cannot be
 * sorted: this is what ww_mutex is for (the kernel's
 * Documentation/locking/ww-mutex-design.rst shows the same shape; this
 * program is written anew for kmutex).  Chains may also close into a
 * cycle: then the walk comes back to a node its context holds, and
 * ww_mutex_lock() says so with -EALREADY.
 *
 * Each thread, many times: picks a random node, locks the chain from
 * it, moves one unit of value from the first node to the last, relinks
 * the last node to a random node (or to none), and unlocks.  At the end
 * the total value must be what it was: no two threads ever held a node
 * at once.
 *
 * Build and run (from the kmutex source tree, after make):
 *   cc -Iinclude -pthread examples/ww_grow.c build/libkmutex.a -o ww_grow
 *   ./ww_grow
 * docs/ww_mutex.md walks through it; tests/examples_ww.sh builds and
 * runs it against both builds of the library.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include <linux/ww_mutex.h>

#define NR_NODES	32
#define NR_THREADS	4
#define ROUNDS		20000
#define START_VALUE	100

struct node {
	struct ww_mutex lock;
	struct node *next;	/* under lock */
	long value;		/* under lock */
};

/* One transaction: its context, and every node it holds. */
struct txn {
	struct ww_acquire_ctx ctx;
	struct node *held[NR_NODES];
	int nr_held;
	unsigned long backoffs;
};

static DEFINE_WW_CLASS(node_class);
static struct node nodes[NR_NODES];

static void unlock_all(struct txn *t)
{
	while (t->nr_held > 0)
		ww_mutex_unlock(&t->held[--t->nr_held]->lock);
}

/*
 * Lock @first and every node its chain reaches.  A node's link is read
 * only once the node is locked, so the set grows while it is held.  On
 * -EDEADLK an older transaction needs a node this one holds: let go of
 * everything, wait for the contended node alone with
 * ww_mutex_lock_slow(), and walk again from @first with that node held
 * (the links may have changed meanwhile: it may be met again, or not,
 * in which case it is simply held as well).
 */
static void lock_chain(struct txn *t, struct node *first)
{
	struct node *n, *slow = NULL;
	int ret;

	ww_acquire_init(&t->ctx, &node_class);
	t->nr_held = 0;
retry:
	for (n = first; n; n = n->next) {	/* n is held when ->next is read */
		ret = ww_mutex_lock(&n->lock, &t->ctx);
		if (ret == -EALREADY) {
			if (n != slow)
				break;		/* a cycle: all of it is held */
			slow = NULL;		/* taken by lock_slow: walk on */
			continue;
		}
		if (ret == -EDEADLK) {
			t->backoffs++;
			unlock_all(t);
			ww_mutex_lock_slow(&n->lock, &t->ctx);
			t->held[t->nr_held++] = n;
			slow = n;
			goto retry;
		}
		t->held[t->nr_held++] = n;
	}
	ww_acquire_done(&t->ctx);
}

static void unlock_chain(struct txn *t)
{
	unlock_all(t);
	ww_acquire_fini(&t->ctx);
}

struct worker {
	pthread_t tid;
	unsigned int seed;
	unsigned long backoffs;
	int longest;
};

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct txn t = { .backoffs = 0 };
	int i;

	for (i = 0; i < ROUNDS; i++) {
		struct node *first = &nodes[rand_r(&w->seed) % NR_NODES];
		struct node *last;
		int r;

		lock_chain(&t, first);
		if (t.nr_held > w->longest)
			w->longest = t.nr_held;
		last = t.held[t.nr_held - 1];
		t.held[0]->value--;	/* held[0] is first, or the slow one */
		last->value++;
		r = rand_r(&w->seed) % (2 * NR_NODES);
		last->next = r < NR_NODES ? &nodes[r] : NULL;
		unlock_chain(&t);
	}
	w->backoffs = t.backoffs;
	return NULL;
}

int main(void)
{
	struct worker w[NR_THREADS] = { { .seed = 0 } };
	unsigned long backoffs = 0;
	long total = 0;
	int i, longest = 0;

	for (i = 0; i < NR_NODES; i++) {
		ww_mutex_init(&nodes[i].lock, &node_class);
		nodes[i].next = i % 4 ? &nodes[i - 1] : NULL;
		nodes[i].value = START_VALUE;
	}
	for (i = 0; i < NR_THREADS; i++) {
		w[i].seed = (unsigned int)i * 7919u + 1u;
		if (pthread_create(&w[i].tid, NULL, worker_main, &w[i])) {
			perror("pthread_create");
			return 1;
		}
	}
	for (i = 0; i < NR_THREADS; i++) {
		pthread_join(w[i].tid, NULL);
		backoffs += w[i].backoffs;
		if (w[i].longest > longest)
			longest = w[i].longest;
	}
	for (i = 0; i < NR_NODES; i++) {
		total += nodes[i].value;
		ww_mutex_destroy(&nodes[i].lock);
	}
	printf("ww_grow: %d threads, %d transactions, %lu backoffs "
	       "(-EDEADLK), longest set %d nodes, total value %ld of %d\n",
	       NR_THREADS, NR_THREADS * ROUNDS, backoffs, longest, total,
	       NR_NODES * START_VALUE);
	return total == NR_NODES * START_VALUE ? 0 : 1;
}
