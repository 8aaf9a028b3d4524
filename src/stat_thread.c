// SPDX-License-Identifier: MIT
/*
 * stat_thread.c - lock statistics accumulated per thread (issue 11).
 *
 * Why: a contended slow path records its wait while the lock is held.
 * With one shared record per lock, every acquisition pulled that
 * record's cache line over from the CPU of the previous one: the
 * critical section grew by a cache miss or two, and on an empty
 * section the mutex's adaptive policy (src/mutex.c) then saw a heavier
 * section and let the owner keep the lock, one thread's speed.  The
 * kernel's lock_stat keeps its counters per CPU for the same reason;
 * here they are per thread.
 *
 * Each thread owns a small table (STAT_THREAD_SLOTS records, the same
 * struct stat_rec as the shared table, mmap()ed on its first contended
 * wait).  Tables are linked into stat_thread_list and never unlinked: a
 * thread that exits adds its counts into the shared table (the pthread
 * key's destructor), clears its table and frees it for the next thread
 * that needs one.  A lock a thread meets for the first time is also
 * claimed in the shared table, which is so the list of every lock
 * counted: kmutex_stat_print() walks it and adds each thread's record
 * of the lock.  A thread whose table is full counts in the shared
 * record, as every thread did before.
 *
 * The slow path takes no lock here (a signal handler may run it): the
 * table is claimed and linked by compare-and-swap.  stat_list_lock
 * only orders a thread's exit against printing and reset, so that its
 * counts are seen exactly once.
 *
 * A thread updates its records with plain loads and stores (stat_inc()),
 * so kmutex_stat_reset() cannot clear them under it: it counts a new
 * period (stat_period), and a thread that sees one clears its own table
 * before it counts again (stat_thread_renew()); until then printing
 * skips the table, whose counts belong to the period before.  A signal
 * handler that waits on the very lock (and kind) that the thread it
 * interrupted was counting a wait on may lose one of the two counts.
 */
#include "api.h"

#include <pthread.h>
#include <sys/mman.h>

#include "stat_rec.h"
#include "tls.h"

#define STAT_THREAD_BITS	5
#define STAT_THREAD_SLOTS	(1u << STAT_THREAD_BITS)
#define STAT_THREAD_PROBES	8	/* then the shared record */

struct stat_thread {
	struct stat_thread *next;	/* stat_thread_list; never unlinked */
	int busy;			/* owned by a live thread */
	unsigned int period;		/* stat_period its counts are of */
	struct stat_rec recs[STAT_THREAD_SLOTS];
};

static struct stat_thread *stat_thread_list;
/* kmutex_stat_reset()s so far, under stat_list_lock. */
static unsigned int stat_period;
static __thread KMUTEX_TLS
	struct stat_thread *stat_self;
static pthread_key_t stat_thread_key;
static bool stat_have_key, stat_closed;
static pthread_mutex_t stat_list_lock = PTHREAD_MUTEX_INITIALIZER;

/* A free table of the list, else a new one, linked in. */
static struct stat_thread *stat_thread_claim(void)
{
	struct stat_thread *t;

	for (t = __atomic_load_n(&stat_thread_list, __ATOMIC_ACQUIRE); t;
	     t = t->next) {
		int free = 0;

		if (!STAT_LOAD(&t->busy) &&
		    __atomic_compare_exchange_n(&t->busy, &free, 1, false,
				__ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
			return t;
	}
	t = mmap(NULL, sizeof(*t), PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (t == MAP_FAILED)
		return NULL;
	t->busy = 1;
	t->next = __atomic_load_n(&stat_thread_list, __ATOMIC_RELAXED);
	while (!__atomic_compare_exchange_n(&stat_thread_list, &t->next, t,
				true, __ATOMIC_RELEASE, __ATOMIC_RELAXED))
		;
	return t;
}

static struct stat_thread *stat_thread_get(void)
{
	struct stat_thread *t = stat_self;

	if (t)
		return t;
	/* RELAXED: unloaded or exiting, a late wait counts in the shared
	 * table (stat_threads_teardown()). */
	if (__atomic_load_n(&stat_closed, __ATOMIC_RELAXED))
		return NULL;
	t = stat_thread_claim();
	if (!t)
		return NULL;
	/* No destructor to hand the counts on: count in the shared table. */
	if (pthread_setspecific(stat_thread_key, t)) {
		__atomic_store_n(&t->busy, 0, __ATOMIC_RELEASE);
		return NULL;
	}
	stat_self = t;
	return t;
}

/* Whether @t's counts are of the current period (stat_list_lock held). */
static bool stat_thread_current(struct stat_thread *t)
{
	return __atomic_load_n(&t->period, __ATOMIC_ACQUIRE) ==
	       STAT_LOAD(&stat_period);
}

/* A reset happened since this thread last counted: clear its table. */
static void stat_thread_renew(struct stat_thread *t, unsigned int period)
{
	unsigned int i;

	for (i = 0; i < STAT_THREAD_SLOTS; i++)
		stat_rec_clear(&t->recs[i]);
	/* RELEASE: a printer that sees the period sees the zeros. */
	__atomic_store_n(&t->period, period, __ATOMIC_RELEASE);
}

/**
 * stat_local - the record a wait of this thread on a lock counts in
 * @key: the lock and kind (stat_key())
 * @ip: its call site, the lock's first if new in the shared table
 * @own: set if the record is this thread's own (stat_inc())
 *
 * Return: this thread's record, else (table full or not to be had) the
 * shared one; NULL if the shared table is full too.
 */
struct stat_rec *stat_local(uint64_t key, uintptr_t ip, bool *own)
{
	struct stat_thread *t = stat_thread_get();
	unsigned int i, n, period;

	*own = false;
	if (!t)
		return stat_shared(key);
	period = __atomic_load_n(&stat_period, __ATOMIC_ACQUIRE);
	if (__kmutex_unlikely(STAT_LOAD(&t->period) != period))
		stat_thread_renew(t, period);
	*own = true;
	for (n = 0, i = stat_hash(key) >> (64 - STAT_THREAD_BITS);
	     n < STAT_THREAD_PROBES;
	     n++, i = (i + 1) & (STAT_THREAD_SLOTS - 1)) {
		struct stat_rec *r = &t->recs[i];
		uint64_t k = STAT_LOAD(&r->key);
		struct stat_rec *g;
		uintptr_t none = 0;

		if (k == key)
			return r;
		if (k != 0)
			continue;
		/* New to this thread: the printer finds it from the shared. */
		g = stat_shared(key);
		if (!g)
			return NULL;
		if (ip)
			__atomic_compare_exchange_n(&g->first_ip, &none, ip,
				false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
		/* CAS: a signal handler may have claimed it meanwhile. */
		if (__atomic_compare_exchange_n(&r->key, &k, key, false,
				__ATOMIC_RELAXED, __ATOMIC_RELAXED) || k == key)
			return r;
	}
	*own = false;
	return stat_shared(key);
}

/* Thread exit: the counts into the shared table, the table freed. */
static void stat_thread_exit(void *arg)
{
	struct stat_thread *t = arg;
	unsigned int i;
	bool current;

	if (stat_self == t)
		stat_self = NULL;	/* later waits claim one again */
	pthread_mutex_lock(&stat_list_lock);
	current = stat_thread_current(t);
	for (i = 0; i < STAT_THREAD_SLOTS; i++) {
		struct stat_rec *r = &t->recs[i];
		uint64_t key = STAT_LOAD(&r->key);
		struct stat_rec *g = key ? stat_shared(key) : NULL;

		if (g && current)
			stat_rec_merge(g, r);
		stat_rec_clear(r);
		STAT_STORE(&r->first_ip, 0);
		STAT_STORE(&r->key, 0);
	}
	pthread_mutex_unlock(&stat_list_lock);
	__atomic_store_n(&t->busy, 0, __ATOMIC_RELEASE);
}

void stat_threads_lock(void)
{
	pthread_mutex_lock(&stat_list_lock);
}

void stat_threads_unlock(void)
{
	pthread_mutex_unlock(&stat_list_lock);
}

/* @fn on every thread's record of @key; under stat_threads_lock(). */
void stat_threads_each(uint64_t key, stat_rec_fn *fn, void *arg)
{
	struct stat_thread *t;

	for (t = __atomic_load_n(&stat_thread_list, __ATOMIC_ACQUIRE); t;
	     t = t->next) {
		unsigned int i = stat_hash(key) >> (64 - STAT_THREAD_BITS);
		unsigned int n;

		if (!stat_thread_current(t))
			continue;	/* counts from before a reset */
		for (n = 0; n < STAT_THREAD_PROBES;
		     n++, i = (i + 1) & (STAT_THREAD_SLOTS - 1)) {
			if (STAT_LOAD(&t->recs[i].key) == key) {
				fn(&t->recs[i], arg);
				break;
			}
		}
	}
}

/*
 * Every thread's counters to zero; under stat_threads_lock().  Each
 * thread clears its own when it next counts (stat_local()).
 */
void stat_threads_reset(void)
{
	__atomic_store_n(&stat_period, STAT_LOAD(&stat_period) + 1,
			 __ATOMIC_RELEASE);
}

/* A fork() child's lock must not be held by a thread it lacks. */
static void stat_fork_prepare(void)
{
	pthread_mutex_lock(&stat_list_lock);
}

static void stat_fork_done(void)
{
	pthread_mutex_unlock(&stat_list_lock);
}

/* At start-up, before statistics go on. */
int stat_threads_init(void)
{
	if (pthread_key_create(&stat_thread_key, stat_thread_exit))
		return -1;
	stat_have_key = true;
	return pthread_atfork(stat_fork_prepare, stat_fork_done,
			      stat_fork_done);
}

/*
 * dlclose() of the library (or of a plugin linked with its archive)
 * would leave the key, whose destructor then runs at the next thread
 * exit in unmapped code (the crash fixed for src/waiter.c's key; found
 * again here: tests/dlclose_plugin.sh with KMUTEX_STAT).  A thread that
 * ends after this keeps its table: the printing reads it as it is.
 * Either order with the printing (stat_at_exit()) is right: at exit()
 * it runs first, at dlclose() after (__cxa_finalize()).
 */
static void __attribute__((destructor)) stat_threads_teardown(void)
{
	if (!stat_have_key)
		return;
	__atomic_store_n(&stat_closed, true, __ATOMIC_RELAXED);
	pthread_key_delete(stat_thread_key);
}
