// SPDX-License-Identifier: MIT
/*
 * graph.c - the dependency graph over lock classes and the chain cache.
 *
 * Taking lock N while holding H records the dependency class(H) ->
 * class(N), kept for the life of the program, with where it was first
 * made.  Before a new dependency H -> N is added, a breadth-first search
 * looks for a path N ->* H among the recorded ones: if there is one, the
 * orders taken so far (even at different times, by different threads,
 * on other instances of the classes) can deadlock, a cycle of any
 * length.  (The idea is lockdep's; the code is kmutex's own.)
 *
 * The search runs only for a chain (sequence of held classes plus the
 * new one) never seen before: validated chains are remembered by their
 * 64-bit key in an open-addressing set that the lock path reads without
 * a lock.  Keys are only ever added, so a reader sees either the key or
 * an empty slot, and an empty slot only sends it to the slow path.
 */
#include "../api.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "debug.h"

#define CHAIN_HASH	(1u << 17)	/* slots; 1 MiB */
#define CHAIN_MAX	(CHAIN_HASH / 4 * 3)

static uint64_t chain_hash[CHAIN_HASH];
static unsigned int nr_chains;

/* Dependencies, for "already recorded?": (from id, to id) pairs. */
#define DEP_HASH	(1u << 16)
static struct lock_dep *dep_hash[DEP_HASH];
static unsigned int nr_deps;

static struct kmutex_lock_class *bfs_queue[MAX_CLASSES];
static unsigned int bfs_gen;

bool chain_known(uint64_t key)
{
	unsigned int i = (unsigned int)key & (CHAIN_HASH - 1);

	for (;; i = (i + 1) & (CHAIN_HASH - 1)) {
		uint64_t k = __atomic_load_n(&chain_hash[i], __ATOMIC_ACQUIRE);

		if (k == key)
			return true;
		if (!k)
			return false;
	}
}

/* Under lockdep_lock.  When the set is full, chains are just revalidated. */
static void chain_add(uint64_t key)
{
	unsigned int i = (unsigned int)key & (CHAIN_HASH - 1);

	if (nr_chains >= CHAIN_MAX)
		return;
	for (;; i = (i + 1) & (CHAIN_HASH - 1)) {
		uint64_t k = chain_hash[i];

		if (k == key)
			return;
		if (!k)
			break;
	}
	nr_chains++;
	__atomic_store_n(&chain_hash[i], key, __ATOMIC_RELEASE);
}

static unsigned int dep_slot(unsigned int from, unsigned int to)
{
	return (unsigned int)chain_key_next(from, to) & (DEP_HASH - 1);
}

static bool dep_exists(struct kmutex_lock_class *from,
		       struct kmutex_lock_class *to)
{
	unsigned int i = dep_slot(from->id, to->id);
	struct lock_dep *d;

	for (; (d = dep_hash[i]); i = (i + 1) & (DEP_HASH - 1))
		if (d->from == from && d->to == to)
			return true;
	return false;
}

static bool dep_add(struct lock_dep *d)
{
	struct kmutex_lock_class *from = d->from;
	unsigned int i = dep_slot(from->id, d->to->id);

	if (nr_deps >= DEP_HASH / 4 * 3)
		return false;
	if (from->nr_after == from->max_after) {
		unsigned int n = from->max_after ? 2 * from->max_after : 4;
		struct lock_dep **a = realloc(from->after, n * sizeof(*a));

		if (!a)
			return false;
		from->after = a;
		from->max_after = n;
	}
	from->after[from->nr_after++] = d;
	while (dep_hash[i])
		i = (i + 1) & (DEP_HASH - 1);
	dep_hash[i] = d;
	nr_deps++;
	return true;
}

/*
 * Is there a path @from ->* @to?  Then each class on it has bfs_parent
 * set to the dependency that reached it, for the report.
 */
static bool path_exists(struct kmutex_lock_class *from,
			struct kmutex_lock_class *to)
{
	unsigned int head = 0, tail = 0, i;

	bfs_gen++;
	from->bfs_gen = bfs_gen;
	from->bfs_parent = NULL;
	bfs_queue[tail++] = from;
	while (head < tail) {
		struct kmutex_lock_class *c = bfs_queue[head++];

		for (i = 0; i < c->nr_after; i++) {
			struct lock_dep *d = c->after[i];
			struct kmutex_lock_class *n = d->to;

			if (n->bfs_gen == bfs_gen)
				continue;
			n->bfs_gen = bfs_gen;
			n->bfs_parent = d;
			if (n == to)
				return true;
			if (tail < MAX_CLASSES)
				bfs_queue[tail++] = n;
		}
	}
	return false;
}

/*
 * How the scenario table shows taking @h: rlock() for a read lock, as
 * the kernel's does.  The other thread's column says lock(): the
 * recorded dependencies keep classes, not how they were taken.
 */
static const char *take(const struct held_lock *h)
{
	return h->read ? "rlock" : "lock";
}

/* The head of a report on @t taking @next while it holds @prev. */
static void report_pair(struct kmutex_thread *t, const struct held_lock *prev,
			const struct held_lock *next)
{
	report_trying(t->tid, "acquire", next->map, next->class, next->call,
		      next->ip);
	rprintf("\n\nbut the thread is already holding lock:\n  ");
	report_lock(prev->map, prev->class);
	report_call(prev->call, prev->ip, "  ");
}

/* Under lockdep_lock: @t holds @prev and takes @next, of its class. */
void report_recursive(struct kmutex_thread *t, struct held_lock *prev,
		      struct held_lock *next)
{
	char title[] = "WARNING: possible recursive locking detected";
	char a[160], b[160];
	uint64_t what = report_hash(prev->class->id, next->class->id);

	if (!report_begin(R_RECURSIVE, what, title))
		return;
	report_pair(t, prev, next);
	rprintf("\n\nother info that might help us debug this:\n"
		" Possible unsafe locking scenario:\n\n"
		"       Thread0\n"
		"       -------\n"
		"  %s(%s);\n"
		"  %s(%s);\n\n"
		" *** DEADLOCK ***\n\n",
		take(prev), class_str(prev->class, a, sizeof(a)),
		take(next), class_str(next->class, b, sizeof(b)));
	if (prev->read && next->read)
		rprintf(" A rwsem's read locks do not nest: a writer waiting "
			"between the two makes\n the second wait for the "
			"first.\n\n");
	if (prev->map != next->map)
		rprintf(" May be due to missing lock nesting notation "
			"(mutex_lock_nested, down_read_nested, ...)\n\n");
	report_held_locks(t);
	report_backtrace(next->ip);
	report_end();
}

/* lockdep's print_lock_nested_lock_not_held(), under lockdep_lock. */
static void report_nest_not_held(struct kmutex_thread *t,
				 struct held_lock *next,
				 const struct kmutex_dep_map *nest)
{
	if (!report_begin(R_NEST, report_hash(next->class->id,
					      (uintptr_t)nest->site),
			  "WARNING: Nested lock was not taken"))
		return;
	report_thread(t->tid);
	rprintf(" is trying to lock:\n  ");
	report_lock(next->map, next->class);
	report_call(next->call, next->ip, "  ");
	rprintf("\n\nbut this thread is not holding its nest lock:\n  ");
	report_lock(nest, NULL);
	rprintf("\n\n");
	report_held_locks(t);
	report_backtrace(next->ip);
	report_end();
}

/**
 * nest_lock_check - what mutex_lock_nest_lock()'s outer lock does
 * @t: the calling thread
 * @next: the lock to be taken, filled in but not yet on the stack
 * @nest: the nest lock the caller named
 *
 * As lockdep's __lock_acquire(): a nest lock the thread does not hold
 * is reported ("Nested lock was not taken"), and the acquisition is
 * then checked as a plain one.  Right above a lock of its own class,
 * under the held nest lock, @next folds into that entry: the chain (and
 * its key) is the one without it, so that the same nesting taken later
 * without the nest lock is a new chain, checked and reported.
 *
 * Return: @nest if held (validate_chain() then adds no dependency for
 * @next when a lock of its class is held), else NULL.
 */
const struct kmutex_dep_map *nest_lock_check(struct kmutex_thread *t,
					     struct held_lock *next,
					     const struct kmutex_dep_map *nest)
{
	struct held_lock *top;

	if (!held_find(t, nest)) {
		lockdep_lock_acquire();
		report_nest_not_held(t, next, nest);
		lockdep_lock_release();
		return NULL;
	}
	top = &t->held[t->depth - 1];
	if (top->class == next->class) {
		next->folded = true;
		next->chain_key = top->chain_key;
	}
	return nest;
}

/* Print the dependency @d (first made earlier) as link #@n of a chain. */
static void print_dep(struct lock_dep *d, int n)
{
	char a[160], b[160];

	rprintf("-> #%d: %s --> %s\n", n, class_str(d->from, a, sizeof(a)),
		class_str(d->to, b, sizeof(b)));
	rprintf("       first made by %s/%d taking \"%s\" while holding "
		"\"%s\",\n       by %s:\n", d->thread, d->tid, d->to_name,
		d->from_name, d->call);
	stack_print(&d->stack, "       ");
	rprintf("\n");
}

/*
 * The thread holds @prev and takes @next, but the recorded dependencies
 * already lead from next's class back to prev's: print the cycle.
 */
static void report_circular(struct kmutex_thread *t, struct held_lock *prev,
			    struct held_lock *next)
{
	char title[] = "WARNING: possible circular locking dependency detected";
	struct lock_dep *path[64], *d;
	char a[160], b[160], c[160];
	struct kmutex_lock_class *parent;
	uint64_t what = 0;
	int n = 0, i;

	/* The path next ->* prev, collected backwards from prev. */
	for (d = prev->class->bfs_parent; d && n < 64;
	     d = d->from->bfs_parent) {
		path[n++] = d;
		if (d->from == next->class)
			break;
	}
	/* The same cycle found from another edge is the same problem. */
	for (i = 0; i < n; i++)
		what += chain_key_next(0, path[i]->from->id);
	what += chain_key_next(0, prev->class->id);
	if (!report_begin(R_CIRCULAR, what, title))
		return;

	report_pair(t, prev, next);
	rprintf("\n\nwhich lock already depends on the new lock.\n\n"
		"the existing dependency chain (in reverse order) is:\n\n");
	rprintf("-> #%d: %s --> %s\n", n,
		class_str(prev->class, a, sizeof(a)),
		class_str(next->class, b, sizeof(b)));
	rprintf("       being made now (stack backtrace below)\n\n");
	for (i = 0; i < n; i++)
		print_dep(path[i], n - 1 - i);

	rprintf("other info that might help us debug this:\n\n");
	parent = path[0]->from;		/* the class taken just before prev's */
	if (n > 1) {
		rprintf(" Chain exists of:\n   %s",
			class_str(prev->class, a, sizeof(a)));
		for (i = n - 1; i >= 0; i--)
			rprintf(" --> %s", class_str(path[i]->from, a,
						      sizeof(a)));
		rprintf(" --> %s\n\n", class_str(prev->class, a, sizeof(a)));
	}
	class_str(prev->class, a, sizeof(a));
	class_str(next->class, b, sizeof(b));
	class_str(parent, c, sizeof(c));
	rprintf(" Possible unsafe locking scenario:\n\n"
		"       Thread0                 Thread1\n"
		"       -------                 -------\n"
		"  %s(%s);\n"
		"                               lock(%s);\n"
		"                               lock(%s);\n"
		"  %s(%s);\n\n"
		" *** DEADLOCK ***\n\n", take(prev), a, c, a, take(next), b);
	report_held_locks(t);
	report_backtrace(next->ip);
	report_end();
}

/**
 * validate_chain - check taking @next with the thread's held locks
 * @t: the calling thread
 * @next: the lock to be taken, filled in but not yet on the stack
 * @nest_lock: mutex_lock_nest_lock()'s outer lock if held, or NULL
 *
 * Called for a chain key not in the cache, before the thread blocks (so
 * that a deadlock is reported rather than entered).  Reports recursion
 * and cycles, records the new dependencies, then caches the chain.
 */
void validate_chain(struct kmutex_thread *t, struct held_lock *next,
		    const struct kmutex_dep_map *nest_lock)
{
	struct kmutex_stack *stack = NULL;
	int i;

	if (next->class->novalidate)
		return;
	lockdep_lock_acquire();
	if (lockdep_off)
		goto out;
	/*
	 * A lock of its class is held, and so is the nest lock that orders
	 * the instances of that class: the new lock adds no dependency (it
	 * has the held one's), as lockdep's check_deadlock() returning 2.
	 */
	for (i = 0; nest_lock && i < t->depth; i++)
		if (t->held[i].class == next->class)
			goto cache;
	for (i = 0; i < t->depth; i++) {
		struct held_lock *prev = &t->held[i];
		const char *strs[3];
		struct lock_dep *d;

		if (prev->class->novalidate)
			continue;
		if (prev->class == next->class) {
			report_recursive(t, prev, next);
			continue;
		}
		if (dep_exists(prev->class, next->class))
			continue;
		if (path_exists(next->class, prev->class)) {
			report_circular(t, prev, next);
			continue;	/* the cycle is not recorded */
		}
		strs[0] = prev->map->name;
		strs[1] = next->map->name;
		strs[2] = next->call;
		d = calloc_strs(sizeof(*d), strs, 3);
		if (!d || nr_deps >= DEP_HASH / 4 * 3) {
			/* Out of room: checking what is known would mislead. */
			fprintf(stderr, "kmutex-debug: BUG: more than %u lock "
				"dependencies; lock checking turned off\n",
				nr_deps);
			lockdep_off = true;
			free(d);
			break;
		}
		d->from = prev->class;
		d->to = next->class;
		d->tid = t->tid;
		thread_name(t->tid, d->thread, sizeof(d->thread));
		d->from_name = strs[0];
		d->to_name = strs[1];
		d->call = strs[2];
		/* One backtrace serves every dependency made by this call. */
		if (stack)
			d->stack = *stack;
		else
			stack_save(&d->stack, next->ip);
		if (!dep_add(d)) {
			free(d);
			continue;
		}
		stack = &d->stack;
	}
cache:
	chain_add(next->chain_key);
out:
	lockdep_lock_release();
}
