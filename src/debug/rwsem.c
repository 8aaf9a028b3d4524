// SPDX-License-Identifier: MIT
/*
 * rwsem.c - the checked struct rw_semaphore calls of the debugging build.
 *
 * Each call does what the production build does (the fast paths of
 * <linux/rwsem.h>, the slow paths of src/rwsem.c) around the checks,
 * which follow lockdep's treatment of the kernel's rwsems:
 *
 *   down_*    magic (never initialised), signal handler, recursion,
 *             then the order checks (graph.c) for a new chain, before it
 *             may block.  Readers and writers are alike in the graph: a
 *             rwsem reader is not recursive (lockdep's read=1), because
 *             a writer waiting between two read locks makes the second
 *             wait (readers queue behind a waiting writer here, as in
 *             the kernel).  So read-after-read of one rwsem is reported
 *             as recursive locking, and a read lock taken inside a write
 *             lock of another class, with the reverse elsewhere, is a
 *             cycle, whichever sides read.
 *   trylock   no recursion or order checks (it cannot deadlock), held.
 *   up_*      only a holder may release, and as it holds it: up_write of
 *             a read lock, or up_read of a write lock, is a bad unlock;
 *             so is a release by a thread that does not hold the rwsem
 *             (the kernel's lockdep rule; its _non_owner calls are not in
 *             kmutex's API).  As in the kernel the program goes on: a
 *             lock held by others is released all the same.
 *   downgrade the write entry becomes a read entry, in place.
 *
 * Stale entries: a rwsem released by another thread (reported then), or
 * re-initialised, leaves the holder's entry behind.  A write entry is
 * stale when the owner field is not the thread; a read entry when no
 * reader holds the rwsem, or when a non-holder released a read lock for
 * it (counted in stolen_reads): the holder's own up_read then only drops
 * its entry.
 */
#include "../api.h"

#include <stdio.h>
#include <string.h>

#include "debug.h"
#include "hooks.h"

#define READERS(c)	((unsigned int)(c) >> RWSEM_READER_SHIFT)

static const char warn_magic[] =
	"WARNING: DEBUG_LOCKS_WARN_ON(sem->magic != sem)";
static const char warn_locked[] =
	"WARNING: DEBUG_LOCKS_WARN_ON(rwsem_is_locked(sem))";
static const char bad_unlock[] = "WARNING: bad unlock balance detected!";

/*
 * The fast paths of <kmutex/rwsem_fast.h> (then the slow paths of
 * src/rwsem.c), told to the hooks (kmutex/hooks.h: TSan, Valgrind) as
 * the production build's inline ones tell them.
 */
static unsigned int hook_mode(int read)
{
	return read ? __KMUTEX_HOOK_READ : 0;
}

/*
 * With KMUTEX_DEBUG_HUNG, a down that a trylock cannot do at once is
 * watched (hung.c); @call, @ip name the waiting call (NULL: not watched).
 */
static int down_watched(struct rw_semaphore *sem, int read, int intr,
			const char *call, const void *ip)
{
	int ret;

	if (__kmutex_likely(!call || !hung_on()))
		return __kmutex_rwsem_down(sem, read, intr);
	if (__kmutex_rwsem_trylock(sem, read))
		return 0;
	hung_begin(sem, read ? "rwsem (read)" : "rwsem (write)",
		   sem->dep_map.name, sem->dep_map.site,
		   &sem->owner, call, ip);
	ret = __kmutex_rwsem_down(sem, read, intr);
	hung_end();
	return ret;
}

static int raw_down(struct rw_semaphore *sem, int read, int intr,
		    const char *call, const void *ip)
{
	__kmutex_hook_acquire(sem, hook_mode(read));
	return __kmutex_hook_locked(sem, hook_mode(read),
				    down_watched(sem, read, intr, call, ip));
}

static bool raw_trylock(struct rw_semaphore *sem, int read)
{
	const unsigned int f = hook_mode(read) | __KMUTEX_HOOK_TRY;

	__kmutex_hook_acquire(sem, f);
	return __kmutex_hook_trylocked(sem, f,
				       __kmutex_rwsem_trylock(sem, read));
}

static void raw_up(struct rw_semaphore *sem, int read)
{
	__kmutex_hook_release(sem, hook_mode(read));
	__kmutex_rwsem_up(sem, read);
	__kmutex_hook_released(sem, hook_mode(read));
}

/* TSan has no downgrade: a write unlock, then a read lock that cannot fail. */
static void raw_downgrade(struct rw_semaphore *sem)
{
	const unsigned int f = __KMUTEX_HOOK_READ | __KMUTEX_HOOK_TRY;

	__kmutex_hook_release(sem, 0);
	__kmutex_rwsem_downgrade(sem);
	__kmutex_hook_released(sem, 0);
	__kmutex_hook_acquire(sem, f);
	__kmutex_hook_acquired(sem, f, true);
}

static void fields_init(struct rw_semaphore *sem)
{
	sem->count = 0;
	sem->wait_lock = 0;
	sem->spinner = 0;
	sem->woken = 0;
	__kmutex_list_init(&sem->wait_list);
	sem->owner = 0;
	sem->stolen_reads = 0;
}

static void map_init(struct kmutex_dep_map *map, const char *name,
		     const void *key, const char *site)
{
	memset(map, 0, sizeof(*map));
	map->key = key;
	map->name = name;
	map->site = site;
}

/*
 * Never initialised (or overwritten): report, then initialise it as an
 * unlocked rwsem of its own class, so that the program and checks go on.
 */
static void __attribute__((noinline))
check_magic(struct kmutex_thread *t, struct rw_semaphore *sem,
	    const char *call, const void *ip)
{
	lockdep_lock_acquire();
	if (sem->magic == sem) {	/* another thread just fixed it */
		lockdep_lock_release();
		return;
	}
	fields_init(sem);
	map_init(&sem->dep_map, call, NULL, "(never initialised)");
	__atomic_store_n(&sem->magic, sem, __ATOMIC_RELEASE);
	if (report_begin(R_WARN_ON, (uint64_t)(uintptr_t)sem << 16,
			 warn_magic)) {
		report_thread(t->tid);
		rprintf(": %s: the rw_semaphore at %p was never initialised "
			"(DECLARE_RWSEM or init_rwsem),\n  or was overwritten "
			"since\n  at: ", call, (void *)sem);
		ip_print(ip);
		rprintf("\n\n");
		report_finish(t, ip);
	}
	lockdep_lock_release();
}

static inline void magic_ok(struct kmutex_thread *t, struct rw_semaphore *sem,
			    const char *call, const void *ip)
{
	if (__kmutex_unlikely(__atomic_load_n(&sem->magic,
					      __ATOMIC_RELAXED) != sem))
		check_magic(t, sem, call, ip);
}

static inline void rwsem_held_fill(struct kmutex_thread *t,
				   struct held_lock *h,
				   struct rw_semaphore *sem,
				   unsigned int subclass, int read,
				   const char *call, const void *ip,
				   bool trylock)
{
	held_fill_lock(t, h, sem, subclass, call, ip,
		       read ? NULL : &sem->owner, trylock, read);
	h->stat_type = CS_RWSEM;
}

/* @h, this thread's entry for @sem, no longer stands for a hold. */
static bool held_stale(struct kmutex_thread *t, struct rw_semaphore *sem,
		       struct held_lock *h)
{
	if (!h->read)
		return __atomic_load_n(&sem->owner, __ATOMIC_RELAXED) != t->tid;
	return !READERS(__atomic_load_n(&sem->count, __ATOMIC_RELAXED));
}

/**
 * kmutex_debug_rwsem_down - down_read(), down_write() and their
 *	variants, checked
 * @sem: the rwsem
 * @subclass: the _nested forms' level, else 0
 * @read: 1 for a read lock, 0 for the write lock
 * @intr: whether a signal handler interrupts the wait
 * @call: the caller's expression and line, for reports
 *
 * Return: 0 with the lock held, or -EINTR (@intr only).
 */
KMUTEX_API int kmutex_debug_rwsem_down(struct rw_semaphore *sem,
				       unsigned int subclass, int read,
				       int intr, const char *call)
{
	const void *ip = __builtin_return_address(0);
	struct kmutex_thread *t;
	struct held_lock next, *prev;
	int ret;

	if (__kmutex_unlikely(lockdep_recursion))
		return raw_down(sem, read, intr, NULL, NULL);
	t = lockdep_thread();
	magic_ok(t, sem, call, ip);
	prev = held_find(t, &sem->dep_map);
	if (__kmutex_unlikely(prev != NULL) && held_stale(t, sem, prev)) {
		held_remove(t, prev);
		prev = NULL;
	}
	rwsem_held_fill(t, &next, sem, subclass, read, call, ip, false);
	dep_hook_acquire(t, &next, prev, NULL, true, sem);
	ret = raw_down(sem, read, intr, call, ip);
	if (ret)
		return ret;
	dep_hook_taken(t, &next);
	return 0;
}

/**
 * kmutex_debug_rwsem_trylock - down_read_trylock(), down_write_trylock()
 * @sem: the rwsem
 * @read: 1 for a read lock, 0 for the write lock
 * @call: the caller's expression and line
 *
 * Return: 1 if taken, 0 if not.
 */
KMUTEX_API int kmutex_debug_rwsem_trylock(struct rw_semaphore *sem, int read,
					  const char *call)
{
	const void *ip = __builtin_return_address(0);
	struct kmutex_thread *t;
	struct held_lock next;

	if (__kmutex_unlikely(lockdep_recursion))
		return raw_trylock(sem, read);
	t = lockdep_thread();
	magic_ok(t, sem, call, ip);
	rwsem_held_fill(t, &next, sem, 0, read, call, ip, true);
	dep_hook_acquire(t, &next, NULL, NULL, false, sem);
	if (!raw_trylock(sem, read))
		return 0;
	dep_hook_taken(t, &next);
	return 1;
}

/* Why @t may not release @sem as @call does; @h its own entry, if any. */
static void __attribute__((noinline))
report_bad_unlock(struct kmutex_thread *t, struct rw_semaphore *sem,
		  struct held_lock *h, const char *call, const void *ip)
{
	struct kmutex_lock_class *c = class_get(&sem->dep_map, 0);
	int count = __atomic_load_n(&sem->count, __ATOMIC_RELAXED);
	int owner = __atomic_load_n(&sem->owner, __ATOMIC_RELAXED);

	lockdep_lock_acquire();
	if (!report_begin(R_UNLOCK, c->id, bad_unlock))
		goto out;
	report_trying(t->tid, "release", &sem->dep_map, c, call, ip);
	if (h) {
		rprintf("\n\nbut the thread holds it for %s",
			h->read ? "reading" : "writing");
		report_call(h->call, h->ip, "  ");
	} else if (count & RWSEM_WRITER_LOCKED) {
		rprintf("\n\nbut the thread does not hold it");
		report_owner(owner, &sem->dep_map);
	} else if (READERS(count)) {
		rprintf("\n\nbut the thread does not hold it: %u other "
			"reader(s) do", READERS(count));
	} else {
		rprintf("\n\nbut there are no more locks to release!"
			" (it is not locked)");
	}
	rprintf("\n\n");
	report_finish(t, ip);
out:
	lockdep_lock_release();
}

/* A release by a thread that does not hold @sem: reported, then done. */
static void up_not_held(struct kmutex_thread *t, struct rw_semaphore *sem,
			int read, const char *call, const void *ip)
{
	int count = __atomic_load_n(&sem->count, __ATOMIC_RELAXED);

	report_bad_unlock(t, sem, NULL, call, ip);
	if (!read && (count & RWSEM_WRITER_LOCKED)) {
		__atomic_store_n(&sem->owner, 0, __ATOMIC_RELAXED);
		raw_up(sem, 0);
	} else if (read && READERS(count) && !(count & RWSEM_WRITER_LOCKED)) {
		/* A holder's own up_read will find it released. */
		__atomic_add_fetch(&sem->stolen_reads, 1, __ATOMIC_RELAXED);
		raw_up(sem, 1);
	}
}

/* A read lock of @sem was released for a holder: is it this one's? */
static bool read_stolen(struct rw_semaphore *sem)
{
	int n = __atomic_load_n(&sem->stolen_reads, __ATOMIC_RELAXED);

	while (n > 0)
		if (__atomic_compare_exchange_n(&sem->stolen_reads, &n, n - 1,
				false, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
			return true;
	return false;
}

/**
 * kmutex_debug_rwsem_up - up_read() and up_write(), checked
 * @sem: the rwsem
 * @read: 1 for up_read(), 0 for up_write()
 * @call: the caller's expression and line
 */
KMUTEX_API void kmutex_debug_rwsem_up(struct rw_semaphore *sem, int read,
				      const char *call)
{
	const void *ip = __builtin_return_address(0);
	struct kmutex_thread *t;
	struct held_lock *h;

	if (__kmutex_unlikely(lockdep_recursion)) {
		raw_up(sem, read);
		return;
	}
	t = lockdep_thread();
	if (__kmutex_unlikely(sem->magic != sem)) {
		check_magic(t, sem, call, ip);
		return;			/* nothing was locked */
	}
	h = held_find(t, &sem->dep_map);
	if (__kmutex_unlikely(h != NULL) &&
	    (held_stale(t, sem, h) || (h->read && read && read_stolen(sem)))) {
		held_remove(t, h);	/* released for it: reported then */
		return;
	}
	if (__kmutex_likely(h != NULL) && h->read == !!read) {
		dep_hook_release(t, h);
		if (!read)
			__atomic_store_n(&sem->owner, 0, __ATOMIC_RELAXED);
		raw_up(sem, read);
	} else if (h) {
		report_bad_unlock(t, sem, h, call, ip);	/* held the other way */
	} else if (t->lost) {
		t->lost--;		/* past the depth kept: trust it */
		if (!read)
			__atomic_store_n(&sem->owner, 0, __ATOMIC_RELAXED);
		raw_up(sem, read);
	} else {
		up_not_held(t, sem, read, call, ip);
	}
}

/**
 * kmutex_debug_rwsem_downgrade - downgrade_write(), checked
 * @sem: the rwsem, write-held by the caller
 * @call: the caller's expression and line
 *
 * The caller's held entry stays where it is, as a read lock: nothing is
 * released, so no order changes.  Without the write lock held by the
 * caller it is a bad unlock, and nothing is done.
 */
KMUTEX_API void kmutex_debug_rwsem_downgrade(struct rw_semaphore *sem,
					     const char *call)
{
	const void *ip = __builtin_return_address(0);
	struct kmutex_thread *t;
	struct held_lock *h;

	if (__kmutex_unlikely(lockdep_recursion)) {
		raw_downgrade(sem);
		return;
	}
	t = lockdep_thread();
	magic_ok(t, sem, call, ip);
	h = held_find(t, &sem->dep_map);
	if (h && !h->read && !held_stale(t, sem, h)) {
		h->read = true;
		h->owner = NULL;
		__atomic_store_n(&sem->owner, 0, __ATOMIC_RELAXED);
		raw_downgrade(sem);
	} else if (t->lost && !h) {
		__atomic_store_n(&sem->owner, 0, __ATOMIC_RELAXED);
		raw_downgrade(sem);
	} else {
		report_bad_unlock(t, sem, h, call, ip);
	}
}

/**
 * kmutex_debug_rwsem_init - init_rwsem(), checked
 * @sem: the rwsem
 * @name: the argument of init_rwsem() as written
 * @key: the static key of the init_rwsem() call site: the lock's class
 * @site: "file.c:12" of that call
 *
 * Reports the initialisation of a rwsem that the calling thread holds
 * (it would lose it); see check_init_held().
 */
KMUTEX_API void kmutex_debug_rwsem_init(struct rw_semaphore *sem,
					const char *name,
					const void *key,
					const char *site)
{
	check_init_held(&sem->dep_map, &sem->owner, warn_locked,
			"init_rwsem", name, site, "rwsem",
			__builtin_return_address(0));
	fields_init(sem);
	map_init(&sem->dep_map, name, key, site);
	__atomic_store_n(&sem->magic, sem, __ATOMIC_RELEASE);
	__kmutex_hook_create(sem);
}
