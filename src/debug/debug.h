/* SPDX-License-Identifier: MIT */
/*
 * debug.h - the checker of the debugging build, shared by src/debug.
 *
 * The design follows the kernel's lockdep (kernel/locking/lockdep.c, for
 * the ideas only; no code is taken from it):
 *
 *   classes    every lock belongs to a class, keyed by (key, subclass):
 *              the key is a static made at the mutex_init() call site, or
 *              the lock's own map for a DEFINE_MUTEX (classes.c);
 *   held       each thread keeps the locks it holds in a stack in
 *              thread-local storage (held.c);
 *   graph      taking lock N while holding H records the dependency
 *              class(H) -> class(N); a new dependency that closes a path
 *              back to H is a possible deadlock (graph.c);
 *   chains     the sequence of classes a thread holds hashes to a chain
 *              key; a chain once validated is remembered in a lock-free
 *              hash set, so the common case costs one lookup (graph.c);
 *   reports    printed once per (problem, classes) (report.c), with
 *              backtraces (stack.c).
 *
 * One global lock (lockdep_lock) guards classes, graph, thread list and
 * reports; the lock and unlock paths take it only when they learn
 * something new.
 */
#ifndef _KMUTEX_SRC_DEBUG_H
#define _KMUTEX_SRC_DEBUG_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/mutex.h>
#include <linux/rwsem.h>

#include "../stat.h"
#include "../tls.h"

#define MAX_LOCK_DEPTH		48	/* locks one thread holds at once */
#define MAX_CLASSES		8192
#define MAX_STACK		16	/* frames kept per backtrace */

/*
 * Lock statistics of one side of a class (KMUTEX_STAT, stat_class.c):
 * every acquisition, its contentions, hold times and the call sites that
 * acquired.  Atomic counters: any thread adds, a print reads.
 */
#define CLASS_STAT_SITES	8	/* per side; 4 printed */

struct class_stat_site {
	uintptr_t ip;
	uint64_t count;
};

struct class_stat {
	uint64_t acquired, contended, wait_total;
	uint64_t holds, hold_min, hold_max, hold_total;
	uint64_t other_sites;		/* acquisitions past the sites */
	struct class_stat_site sites[CLASS_STAT_SITES];
};

/* What locks of a class are, for the statistics' type column. */
enum class_stat_type { CS_NONE, CS_MUTEX, CS_RWSEM, CS_WW, CS_MAP };

struct kmutex_lock_class {
	const void *key;		/* lock_class_key, or a static map */
	unsigned int subclass;
	unsigned int id;		/* 1.., index in the class table */
	const char *name;		/* of the first lock seen in it (a copy) */
	const char *site;		/* where it was initialised (a copy) */
	unsigned int name_version;	/* n-th class of that name: "name#n" */
	bool novalidate;		/* lockdep_set_novalidate_class() */
	/* Dependencies this -> after[i] (graph.c, under lockdep_lock). */
	struct lock_dep **after;
	unsigned int nr_after, max_after;
	/* Breadth-first search scratch (graph.c). */
	unsigned int bfs_gen;
	struct lock_dep *bfs_parent;
	/* Statistics: [0] exclusive (and rwsem write), [1] shared. */
	unsigned char stat_type;	/* enum class_stat_type */
	struct class_stat stat[2];
};

struct kmutex_stack {
	int n;
	void *ip[MAX_STACK];
};

/* Where a dependency was first made: for the report of a cycle. */
struct lock_dep {
	struct kmutex_lock_class *from, *to;
	int tid;
	char thread[16];
	/* Copies (strs.c): the instances' names, the call that took "to" */
	const char *from_name, *to_name;
	const char *call;
	struct kmutex_stack stack;
};

struct held_lock {
	struct kmutex_dep_map *map;
	struct kmutex_lock_class *class;
	const void *obj;		/* the lock, for the freed check */
	size_t obj_size;
	int *owner;			/* the lock's owner tid, or NULL */
	const void *ip;			/* return address of the lock call */
	const char *call;		/* "mutex_lock(&m) at f.c:12" */
	uint64_t chain_key;		/* of held[0..this] */
	bool trylock;
	bool read;			/* an rwsem held for reading */
	/*
	 * Taken with mutex_lock_nest_lock() right above a lock of its own
	 * class: folded into that entry, as lockdep folds it (its chain key
	 * is the entry's below, so the chain is the one without it).
	 */
	bool folded;
	/* Statistics: what it is, and since when held (0: not timed). */
	unsigned char stat_type;	/* enum class_stat_type */
	bool stat_read;			/* read at acquisition */
	uint64_t stat_t0;
	/* lock_contended() of a program's own lock: since when (0: not). */
	uint64_t stat_wait_t0;
};

/*
 * The wait a thread is in, for the hung-task detector (hung.c): written
 * by the thread, read by the monitor thread.  gen is 0 outside a wait,
 * else the wait's number; the other fields are valid while it is.
 */
struct hung_wait {
	uint64_t gen;			/* this thread's n-th wait; 0: none */
	uint64_t start_ns;		/* CLOCK_MONOTONIC */
	uint64_t reported;		/* gen of the wait last reported */
	const void *lock;		/* waited on */
	const char *kind;		/* "mutex", "rwsem", ... */
	const char *name, *site;	/* the lock's, as in a report */
	const int *owner;		/* its owner tid field, or NULL */
	const char *call;		/* the waiting call */
	struct kmutex_stack stack;	/* at the start of the wait */
};

struct kmutex_thread {
	int tid;
	int depth;			/* entries in held[] */
	int lost;			/* acquisitions past MAX_LOCK_DEPTH */
	bool exiting;
	struct held_lock held[MAX_LOCK_DEPTH];
	struct hung_wait wait;		/* hung.c */
	struct kmutex_thread *next, *prev;	/* all threads, lockdep_lock */
};

/* held.c */
extern pthread_mutex_t lockdep_lock;
extern bool lockdep_off;		/* a table overflowed: stop checking */
extern __thread struct kmutex_thread *lockdep_self
	KMUTEX_TLS;
extern __thread int lockdep_recursion
	KMUTEX_TLS;
struct kmutex_thread *lockdep_thread_slow(void);
static inline struct kmutex_thread *lockdep_thread(void)
{
	struct kmutex_thread *t = lockdep_self;

	return __kmutex_likely(t != NULL) ? t : lockdep_thread_slow();
}
struct held_lock *held_find(struct kmutex_thread *t,
			    const struct kmutex_dep_map *map);
struct held_lock *held_push(struct kmutex_thread *t);
void held_remove(struct kmutex_thread *t, struct held_lock *h);
struct kmutex_thread *thread_by_tid(int tid);	/* lockdep_lock held */
struct kmutex_thread *thread_next(struct kmutex_thread *t); /* same */
void thread_name(int tid, char *buf, size_t size);
bool overlaps(const void *a, size_t alen, const void *b, size_t blen);
void report_freed(struct kmutex_thread *self, struct kmutex_thread *t,
		  struct held_lock *h, const void *addr, size_t len,
		  const void *ip);
void lockdep_lock_acquire(void);
void lockdep_lock_release(void);

/* lock.c: what the checked lock kinds share. */
void check_handler(struct kmutex_thread *t, struct held_lock *next);
void report_owner(int tid, const struct kmutex_dep_map *map);
void check_init_held(struct kmutex_dep_map *map, const int *owner,
		     const char *title, const char *call, const char *name,
		     const char *site, const char *kind, const void *ip);

/* object.c: semaphores and completions. */
void obj_check_handler(const struct kmutex_obj_map *map, const char *kind,
		       const char *call, const void *ip);
void obj_report_uninit(struct kmutex_thread *t, const void *obj,
		       const char *title, const char *kind, const char *inits,
		       const char *call, const void *ip);

/* classes.c */
struct kmutex_lock_class *class_get(struct kmutex_dep_map *map,
				    unsigned int subclass);
struct kmutex_lock_class *class_next(unsigned int *pos);

/* strs.c */
void *calloc_strs(size_t size, const char **strs, unsigned int n);

/* stat_class.c: behind stat_on, and stat_t0 != 0. */
void class_stat_acquired(struct held_lock *h);
void class_stat_released(const struct held_lock *h);
void class_stat_waited(struct held_lock *h);	/* stat_wait_t0 != 0 */
extern char lockdep_novalidate_key;

/* graph.c */
static inline uint64_t chain_key_next(uint64_t key, unsigned int class_id)
{
	/* A 64-bit mix (splitmix64's finaliser) of the key and the class. */
	uint64_t k = key ^ ((uint64_t)class_id * 0x9e3779b97f4a7c15ull);

	k ^= k >> 30;
	k *= 0xbf58476d1ce4e5b9ull;
	k ^= k >> 27;
	k *= 0x94d049bb133111ebull;
	k ^= k >> 31;
	return k ? k : 1;
}
bool chain_known(uint64_t key);
void validate_chain(struct kmutex_thread *t, struct held_lock *next,
		    const struct kmutex_dep_map *nest_lock);
void report_recursive(struct kmutex_thread *t, struct held_lock *prev,
		      struct held_lock *next);
const struct kmutex_dep_map *nest_lock_check(struct kmutex_thread *t,
					     struct held_lock *next,
					     const struct kmutex_dep_map *nest);

/* ww.c: ww_mutexes in the order checks. */
struct ww_mutex;
struct ww_acquire_ctx;
void ww_dep_lock(struct ww_mutex *lock, struct ww_acquire_ctx *ctx,
		 const char *call, const void *ip);
void ww_dep_locked(struct ww_mutex *lock, struct ww_acquire_ctx *ctx,
		   int ret, bool trylock, const char *call, const void *ip);
void ww_dep_unlock(struct ww_mutex *lock);
void ww_dep_ctx(struct ww_acquire_ctx *ctx, bool begin, const char *call,
		const void *ip);

/* stack.c */
void stack_save(struct kmutex_stack *s, const void *from_ip);
void stack_print(const struct kmutex_stack *s, const char *indent);
void ip_print(const void *ip);
void stack_warm_up(void);

/* report.c: under lockdep_lock.  begin() is false if already reported. */
enum report_kind {
	R_RECURSIVE = 1, R_CIRCULAR, R_UNLOCK, R_WARN_ON, R_FREED,
	R_STILL_HELD, R_SIGNAL, R_ASSERT, R_HUNG, R_NEST,
};
bool report_begin(enum report_kind kind, uint64_t what, const char *title);
void report_end(void);
void rprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void report_lock(const struct kmutex_dep_map *map,
		 const struct kmutex_lock_class *class);
void report_held_locks(struct kmutex_thread *t);
void report_thread(int tid);
void report_call(const char *call, const void *ip, const char *indent);
void report_trying(int tid, const char *verb,
		   const struct kmutex_dep_map *map,
		   const struct kmutex_lock_class *class,
		   const char *call, const void *ip);
void report_backtrace(const void *from_ip);
void report_finish(struct kmutex_thread *t, const void *ip);
const char *class_str(const struct kmutex_lock_class *c, char *buf,
		      size_t size);
uint64_t report_hash(uint64_t h, uint64_t v);

/* The held entry for taking @map: the parts every kind has. */
static inline void held_fill(struct kmutex_thread *t, struct held_lock *h,
			     struct kmutex_dep_map *map, unsigned int subclass,
			     const char *call, const void *ip)
{
	uint64_t prev = t->depth ? t->held[t->depth - 1].chain_key : 0;

	h->map = map;
	h->class = class_get(map, subclass);
	h->ip = ip;
	h->call = call;
	h->folded = false;
	h->chain_key = chain_key_next(prev, h->class->id);
	h->stat_type = CS_MAP;		/* the callers say what it is */
	h->stat_t0 = 0;
	h->stat_wait_t0 = 0;
}

/*
 * The lock is taken: push @h (or count it lost if the stack is full).
 * With statistics on, count the acquisition and start the hold time.
 */
static inline void held_commit(struct kmutex_thread *t, struct held_lock *h)
{
	struct held_lock *slot = held_push(t);

	if (__kmutex_unlikely(__atomic_load_n(&stat_on, __ATOMIC_RELAXED)))
		class_stat_acquired(h);

	if (slot) {
		*slot = *h;
		__atomic_store_n(&t->depth, t->depth + 1, __ATOMIC_RELEASE);
	}
}

/*
 * The thread released the lock of @h: its hold time ends.  (A held entry
 * dropped for other reasons, the lock re-initialised, freed or released
 * by another thread, goes with held_remove() and is not timed.)
 */
static inline void held_release(struct kmutex_thread *t, struct held_lock *h)
{
	if (__kmutex_unlikely(h->stat_t0 != 0))
		class_stat_released(h);
	held_remove(t, h);
}

/* hung.c: the hung-task detector (KMUTEX_DEBUG_HUNG). */
extern bool hung_enabled;	/* set before main(), read-only then */
void hung_begin(const void *lock, const char *kind, const char *name,
		const char *site, const int *owner, const char *call,
		const void *ip);
void hung_end(void);
static inline bool hung_on(void)
{
	return __kmutex_unlikely(__atomic_load_n(&hung_enabled,
						 __ATOMIC_RELAXED));
}

/* hint.c: a semaphore used as a mutex. */
struct semaphore;
void hint_sem_init(struct semaphore *sem, int count);
void hint_sem_down(struct semaphore *sem);
void hint_sem_up(struct semaphore *sem);

/* signal.c */
extern __thread int lockdep_in_handler
	KMUTEX_TLS;
int lockdep_handler_signal(void);	/* the signal being handled, or 0 */

/*
 * The shape of a checked lock call, the same for the mutex and the rwsem
 * (mutex.c, rwsem.c): fill the held entry of the lock it takes
 * (held_fill_lock), tell the hooks (hooks.h: dep_hook_acquire(), which
 * checks it with lock_check_handler and, for a blocking call,
 * lock_check_order), take the lock itself, then record it
 * (dep_hook_taken(): lock_taken).
 */

/* held_fill() for @lock; its holder's tid is at @owner_ (NULL: a reader). */
#define held_fill_lock(t, h, lock, subclass, call, ip, owner_, try_, read_) \
	do {								\
		held_fill((t), (h), &(lock)->dep_map, (subclass),	\
			  (call), (ip));				\
		(h)->obj = (lock);					\
		(h)->obj_size = sizeof(*(lock));			\
		(h)->owner = (owner_);					\
		(h)->trylock = (try_);					\
		(h)->read = (read_);					\
	} while (0)

/* A lock taken in a signal handler: see check_handler(). */
static inline void lock_check_handler(struct kmutex_thread *t,
				      struct held_lock *next)
{
	if (__kmutex_unlikely(lockdep_in_handler))
		check_handler(t, next);
}

/*
 * Before a blocking lock call waits: a lock this thread holds already
 * (@prev, its entry) is a recursive lock, reported; else a chain of held
 * locks not seen before is validated.
 */
static inline void lock_check_order(struct kmutex_thread *t,
				    struct held_lock *prev,
				    struct held_lock *next,
				    const struct kmutex_dep_map *nest_lock)
{
	if (__kmutex_unlikely(prev != NULL)) {
		lockdep_lock_acquire();
		report_recursive(t, prev, next);
		lockdep_lock_release();
	} else if (t->depth && !chain_known(next->chain_key)) {
		validate_chain(t, next, nest_lock);
	}
}

/* The lock is taken: this thread is its holder (a writer's), @next held. */
static inline void lock_taken(struct kmutex_thread *t, struct held_lock *next)
{
	if (next->owner)
		__atomic_store_n(next->owner, t->tid, __ATOMIC_RELAXED);
	held_commit(t, next);
}

#endif /* _KMUTEX_SRC_DEBUG_H */
