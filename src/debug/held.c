// SPDX-License-Identifier: MIT
/*
 * held.c - each thread's stack of held locks, the list of threads, and
 * the thread-exit hook that reports "still has locks held".
 *
 * The stack lives in thread-local storage and is written only by its
 * thread; other threads read it (debug_check_no_locks_freed, the name of
 * an owner in a report) under lockdep_lock through relaxed atomics.  A
 * thread's struct is allocated on its first lock call and freed by the
 * pthread key destructor when it exits.
 */
#include "../api.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/syscall.h>

#include "debug.h"

pthread_mutex_t lockdep_lock = PTHREAD_MUTEX_INITIALIZER;
bool lockdep_off;
__thread struct kmutex_thread *lockdep_self
	KMUTEX_TLS;
__thread int lockdep_recursion KMUTEX_TLS;

static struct kmutex_thread threads = { .next = &threads, .prev = &threads };
static pthread_key_t exit_key;
static bool exit_key_made;
static bool exit_closed;	/* the key is gone: make no other */
static pthread_once_t exit_key_once = PTHREAD_ONCE_INIT;

/*
 * lockdep_lock is taken with lockdep_recursion raised, so that a signal
 * handler that takes a lock while its thread is inside the checker skips
 * the checks instead of deadlocking on lockdep_lock.
 */
void lockdep_lock_acquire(void)
{
	lockdep_recursion++;
	pthread_mutex_lock(&lockdep_lock);
}

void lockdep_lock_release(void)
{
	pthread_mutex_unlock(&lockdep_lock);
	lockdep_recursion--;
}

void thread_name(int tid, char *buf, size_t size)
{
	char path[64];
	FILE *f;

	buf[0] = 0;
	if (lockdep_self && tid == lockdep_self->tid) {
		pthread_getname_np(pthread_self(), buf, size);
		return;
	}
	/* Another thread: its pthread_t may be gone, /proc is not. */
	snprintf(path, sizeof(path), "/proc/self/task/%d/comm", tid);
	f = fopen(path, "r");
	if (!f)
		return;
	if (fgets(buf, (int)size, f))
		buf[strcspn(buf, "\n")] = 0;
	fclose(f);
}

/*
 * A thread's record comes from mmap(), not malloc(): a thread's first
 * lock call may be in a signal handler that interrupted malloc() itself
 * (ThreadSanitizer flags a malloc() there).  Zeroed, as calloc().
 */
static struct kmutex_thread *thread_alloc(void)
{
	void *p = mmap(NULL, sizeof(struct kmutex_thread),
		       PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		       -1, 0);

	if (p == MAP_FAILED) {
		static const char msg[] = "kmutex-debug: out of memory\n";

		if (write(2, msg, sizeof(msg) - 1) < 0)
			abort();
		abort();
	}
	return p;
}

static void thread_free(struct kmutex_thread *t)
{
	munmap(t, sizeof(*t));
}

/* The thread is exiting: a lock it still holds can never be released. */
static void thread_exit(void *arg)
{
	struct kmutex_thread *t = arg;
	char name[16];

	lockdep_self = t;	/* TLS may already be cleared: be sure */
	t->exiting = true;
	if (__atomic_load_n(&t->depth, __ATOMIC_RELAXED) > 0) {
		char title[96];
		uint64_t what = 0;
		int i;

		for (i = 0; i < t->depth; i++)
			what = report_hash(what, t->held[i].class->id);
		thread_name(t->tid, name, sizeof(name));
		snprintf(title, sizeof(title),
			 "WARNING: %s/%d still has locks held!", name, t->tid);
		lockdep_lock_acquire();
		if (report_begin(R_STILL_HELD, what, title)) {
			rprintf("the thread is exiting: the locks below can "
				"never be released by it\n\n");
			report_held_locks(t);
			/* From the C library's thread exit, without ours. */
			report_backtrace(__builtin_return_address(0));
			report_end();
		}
		lockdep_lock_release();
	}
	lockdep_lock_acquire();
	t->prev->next = t->next;
	t->next->prev = t->prev;
	lockdep_lock_release();
	lockdep_self = NULL;
	thread_free(t);
}

/*
 * fork(): the child has one thread, the caller.  lockdep_lock is held
 * across the fork so that the child does not inherit it locked by a
 * thread that does not exist there, and the other threads (and the locks
 * they held) leave the child's list.
 */
static void fork_prepare(void)
{
	lockdep_lock_acquire();
}

static void fork_parent(void)
{
	lockdep_lock_release();
}

static void fork_child(void)
{
	struct kmutex_thread *t, *next;

	for (t = threads.next; t != &threads; t = next) {
		next = t->next;
		if (t == lockdep_self)
			continue;
		t->prev->next = t->next;
		t->next->prev = t->prev;
		thread_free(t);
	}
	if (lockdep_self) {
		int i, tid = (int)syscall(SYS_gettid);

		/* The child holds what its parent thread held, as itself. */
		for (i = 0; i < lockdep_self->depth; i++)
			if (lockdep_self->held[i].owner)
				*lockdep_self->held[i].owner = tid;
		lockdep_self->tid = tid;
	}
	pthread_mutex_init(&lockdep_lock, NULL);
	lockdep_recursion--;
}

static void exit_key_init(void)
{
	/* RELEASE: the destructor may run on a thread that did not call
	 * pthread_once(); it reads exit_key after this flag. */
	if (!pthread_key_create(&exit_key, thread_exit))
		__atomic_store_n(&exit_key_made, true, __ATOMIC_RELEASE);
	pthread_atfork(fork_prepare, fork_parent, fork_child);
	stack_warm_up();
}

/*
 * dlclose() of the library (or of a plugin linked with its archive)
 * drops the atfork handlers but not the key, whose destructor would run
 * at the next thread exit in unmapped code (SIGSEGV: tests/
 * dlclose_plugin.sh, as for src/waiter.c's key).  No key is made after
 * (a plugin's later destructors may still take locks).  A thread that
 * exits after this is not checked for locks still held: at exit(),
 * one that ends while the process ends.
 */
static void __attribute__((destructor)) held_teardown(void)
{
	__atomic_store_n(&exit_closed, true, __ATOMIC_RELAXED);
	if (__atomic_load_n(&exit_key_made, __ATOMIC_ACQUIRE))
		pthread_key_delete(exit_key);
}

/* First lock call of this thread: register it. */
struct kmutex_thread *lockdep_thread_slow(void)
{
	bool closed = __atomic_load_n(&exit_closed, __ATOMIC_RELAXED);
	struct kmutex_thread *t;

	if (!closed)
		pthread_once(&exit_key_once, exit_key_init);
	t = thread_alloc();
	t->tid = (int)syscall(SYS_gettid);
	lockdep_lock_acquire();
	t->next = &threads;
	t->prev = threads.prev;
	threads.prev->next = t;
	threads.prev = t;
	lockdep_lock_release();
	if (!closed)
		pthread_setspecific(exit_key, t);
	lockdep_self = t;
	return t;
}

/* Under lockdep_lock. */
struct kmutex_thread *thread_by_tid(int tid)
{
	struct kmutex_thread *t;

	for (t = threads.next; t != &threads; t = t->next)
		if (t->tid == tid)
			return t;
	return NULL;
}

/* The thread after @t in the list (the first for NULL), or NULL. */
struct kmutex_thread *thread_next(struct kmutex_thread *t)
{
	t = t ? t->next : threads.next;
	return t == &threads ? NULL : t;
}

/* The newest entry of @map in @t's stack, or NULL. */
struct held_lock *held_find(struct kmutex_thread *t,
			    const struct kmutex_dep_map *map)
{
	int i;

	for (i = t->depth - 1; i >= 0; i--)
		if (t->held[i].map == map)
			return &t->held[i];
	return NULL;
}

/* A new top entry, or NULL (counted in t->lost) if the stack is full. */
struct held_lock *held_push(struct kmutex_thread *t)
{
	if (__kmutex_unlikely(t->depth >= MAX_LOCK_DEPTH)) {
		t->lost++;
		return NULL;
	}
	return &t->held[t->depth];
}

/*
 * Drop @h from the stack.  Locks released out of order (hand-over-hand)
 * leave a gap: the entries above move down and their chain keys are
 * recomputed for the new sequence.  No validation is needed for them:
 * every dependency of the shorter chain was recorded with the longer.
 */
void held_remove(struct kmutex_thread *t, struct held_lock *h)
{
	int i = (int)(h - t->held);
	uint64_t key = i ? t->held[i - 1].chain_key : 0;

	for (; i + 1 < t->depth; i++) {
		struct held_lock *n = &t->held[i];

		*n = t->held[i + 1];
		/* A folded entry stays folded only on one of its class. */
		if (!n->folded || !i || n[-1].class != n->class) {
			n->folded = false;
			key = chain_key_next(key, n->class->id);
		}
		n->chain_key = key;
	}
	__atomic_store_n(&t->depth, t->depth - 1, __ATOMIC_RELEASE);
}

/**
 * kmutex_debug_check_no_locks_held - debug_check_no_locks_held()
 *
 * Reports "still has locks held" if the calling thread holds any lock.
 */
KMUTEX_API void kmutex_debug_check_no_locks_held(void)
{
	struct kmutex_thread *t = lockdep_thread();
	char name[16], title[96];
	uint64_t what = 0;
	int i;

	if (t->depth == 0 || lockdep_recursion)
		return;
	for (i = 0; i < t->depth; i++)
		what = report_hash(what, t->held[i].class->id);
	thread_name(t->tid, name, sizeof(name));
	snprintf(title, sizeof(title), "WARNING: %s/%d still has locks held!",
		 name, t->tid);
	lockdep_lock_acquire();
	if (report_begin(R_STILL_HELD, what, title)) {
		rprintf("debug_check_no_locks_held() found locks held\n\n");
		report_held_locks(t);
		report_backtrace(__builtin_return_address(0));
		report_end();
	}
	lockdep_lock_release();
}

bool overlaps(const void *a, size_t alen, const void *b, size_t blen)
{
	uintptr_t a0 = (uintptr_t)a, b0 = (uintptr_t)b;

	return a0 < b0 + blen && b0 < a0 + alen;
}

/**
 * report_freed - report a held lock in memory being freed
 * @self: the thread freeing it
 * @t: the thread holding the lock
 * @h: @t's entry for the lock
 * @addr: the memory being freed
 * @len: its length
 * @ip: the return address of the call that frees it
 *
 * Under lockdep_lock.  Once per lock class.
 */
void report_freed(struct kmutex_thread *self, struct kmutex_thread *t,
		  struct held_lock *h, const void *addr, size_t len,
		  const void *ip)
{
	char name[16];

	if (!report_begin(R_FREED, h->class->id, "WARNING: held lock freed!"))
		return;
	thread_name(self->tid, name, sizeof(name));
	rprintf("%s/%d is freeing memory %p-%p, with a lock still held "
		"there!\n", name, self->tid, addr,
		(const void *)((const char *)addr + len - 1));
	report_lock(h->map, h->class);
	rprintf(" at %p, held by ", h->obj);
	report_thread(t->tid);
	report_call(h->call, h->ip, "  ");
	rprintf("\n\n");
	report_held_locks(t);
	if (t != self)
		report_held_locks(self);
	report_backtrace(ip);
	report_end();
}

/**
 * kmutex_debug_check_no_locks_freed - debug_check_no_locks_freed()
 * @addr: start of memory about to be freed
 * @len: its length
 *
 * Reports "held lock freed" if a lock that any thread holds lies in it.
 */
KMUTEX_API void kmutex_debug_check_no_locks_freed(const void *addr,
						  size_t len)
{
	struct kmutex_thread *self = lockdep_thread(), *t;
	const void *ip = __builtin_return_address(0);

	if (lockdep_recursion || !len)
		return;
	lockdep_lock_acquire();
	for (t = threads.next; t != &threads; t = t->next) {
		int i, depth = __atomic_load_n(&t->depth, __ATOMIC_ACQUIRE);

		for (i = 0; i < depth && i < MAX_LOCK_DEPTH; i++) {
			struct held_lock *h = &t->held[i];
			const void *obj = __atomic_load_n(&h->obj,
							  __ATOMIC_RELAXED);

			if (overlaps(obj, h->obj_size, addr, len))
				report_freed(self, t, h, addr, len, ip);
		}
	}
	lockdep_lock_release();
}
