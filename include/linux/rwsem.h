/* SPDX-License-Identifier: MIT */
/*
 * <linux/rwsem.h> - the kernel's reader/writer semaphore, on futex(2).
 *
 *   count      bit 0 RWSEM_WRITER_LOCKED: a writer holds it;
 *              bit 1 RWSEM_FLAG_WAITERS: the wait list is non-empty;
 *              bit 2 RWSEM_FLAG_HANDOFF: the first waiter (a writer, or
 *              a reader that has waited 1 ms) gets the lock next,
 *              nobody may barge;
 *              bits 8..30 the number of readers (RWSEM_READER_BIAS
 *              each), including readers passing through a failed fast
 *              path: at most RWSEM_READERS_MAX (2^23 - 1);
 *              bit 31 RWSEM_FLAG_READFAIL: set only by the bias of a
 *              reader past that limit, which then aborts (a trylock
 *              fails instead): see <kmutex/rwsem_fast.h>.
 *   fast paths down_read/up_read are one fetch-and-add each; down_write
 *              is CAS 0 -> WRITER_LOCKED and up_write CAS back to 0.
 *              Any of them that sees RWSEM_FLAG_WAITERS or a conflicting
 *              owner goes to the slow path (src/rwsem.c), which decides
 *              everything about waiters under wait_lock.
 *   fairness   while anyone waits, new readers queue (FIFO): a waiting
 *              writer stops new readers from jumping ahead, and the
 *              readers at the head of the queue are let in together.  A
 *              writer may spin a little and take a free lock before the
 *              woken readers run; a writer at the head of the queue, or
 *              readers there for 1 ms, are handed the lock.
 *
 * The protocol is modelled in model/ (see model/README.md).
 */
#ifndef _LINUX_RWSEM_H
#define _LINUX_RWSEM_H

/* The project's <linux/list.h> ..., as the kernel's header includes them. */
#include <kmutex/project_headers.h>

#include <kmutex/compiler.h>
#include <kmutex/list.h>
#include <kmutex/lockdep.h>
#include <kmutex/hooks.h>

#ifdef KMUTEX_DEBUG
#include <kmutex/debug_signal.h>
#endif

__KMUTEX_BEGIN_DECLS

#define RWSEM_WRITER_LOCKED	(1 << 0)
#define RWSEM_FLAG_WAITERS	(1 << 1)
#define RWSEM_FLAG_HANDOFF	(1 << 2)
#define RWSEM_READER_SHIFT	8
#define RWSEM_READER_BIAS	(1 << RWSEM_READER_SHIFT)

/*
 * A capability to clang -Wthread-safety, shared by readers.
 *
 * The debugging build (-DKMUTEX_DEBUG, pkg-config kmutex-debug) has the
 * same names, checked by the debug library (src/debug/rwsem.c) the way
 * the kernel's lockdep does: see kmutex-debug(3).  Its fields follow the
 * production ones, so that the fast paths (kmutex/rwsem_fast.h) and the
 * slow paths (src/rwsem.c) are the same code in both builds.
 */
struct __kmutex_capability("rw_semaphore") rw_semaphore {
	int count;			/* see above */
	int wait_lock;			/* internal futex lock for wait_list */
	int spinner;			/* a writer is spinning in its slow path */
	int woken;			/* readers woken, not yet run (src/rwsem.c) */
	struct kmutex_list wait_list;	/* FIFO of struct kmutex_waiter */
#ifdef KMUTEX_DEBUG
	int owner;			/* tid of the writer, 0 if none */
	int stolen_reads;		/* read locks released by non-holders */
	const void *magic;		/* the rwsem itself once initialised */
	struct kmutex_dep_map dep_map;	/* its lock class, name, init site */
#endif
};

#ifdef KMUTEX_DEBUG
/* A statically initialised rwsem is a class of its own (key NULL). */
#define __KMUTEX_RWSEM_DEBUG_INIT(lockname, str)			\
		.owner = 0,						\
		.stolen_reads = 0,					\
		.magic = &(lockname),					\
		.dep_map = __KMUTEX_DEP_MAP_INIT(str),
#else
#define __KMUTEX_RWSEM_DEBUG_INIT(lockname, str)
#endif

#define __RWSEM_INITIALIZER(name)					\
	{								\
		.count = 0,						\
		.wait_lock = 0,						\
		.spinner = 0,						\
		.woken = 0,						\
		.wait_list = KMUTEX_LIST_INIT((name).wait_list),	\
		__KMUTEX_RWSEM_DEBUG_INIT(name, #name)			\
	}

/**
 * DECLARE_RWSEM - define and statically initialise an unlocked rwsem
 * @name: the variable's name
 */
#define DECLARE_RWSEM(name) \
	struct rw_semaphore name = __RWSEM_INITIALIZER(name)

/* The fast paths and slow-path entries, the same in both builds. */
#include <kmutex/rwsem_fast.h>

#ifdef KMUTEX_DEBUG
/* The checked entry points (src/debug/rwsem.c). */
void kmutex_debug_rwsem_init(struct rw_semaphore *sem, const char *name,
			     const void *key,
			     const char *site);
int kmutex_debug_rwsem_down(struct rw_semaphore *sem, unsigned int subclass,
			    int read, int intr, const char *call);
int kmutex_debug_rwsem_trylock(struct rw_semaphore *sem, int read,
			       const char *call);
void kmutex_debug_rwsem_up(struct rw_semaphore *sem, int read,
			   const char *call);
void kmutex_debug_rwsem_downgrade(struct rw_semaphore *sem,
				  const char *call);
#endif

/*
 * What each call does to the rwsem, for clang -Wthread-safety
 * (kmutex/capability.h): readers hold it shared, writers exclusive; the
 * forms that return 0 or -EINTR hold it when they return 0.  The bodies
 * are the lock itself, which the analysis cannot follow.
 */
static __kmutex_inline void down_read(struct rw_semaphore *sem __KMUTEX_CALLER)
	__kmutex_acquires_shared(sem) __kmutex_no_analysis;
static __kmutex_inline void
down_read_nested(struct rw_semaphore *sem, unsigned int subclass
		 __KMUTEX_CALLER)
	__kmutex_acquires_shared(sem) __kmutex_no_analysis;
static __kmutex_inline int
down_read_interruptible(struct rw_semaphore *sem __KMUTEX_CALLER)
	__kmutex_cond_acquires_shared(0, sem) __kmutex_no_analysis;
static __kmutex_inline int
down_read_killable(struct rw_semaphore *sem __KMUTEX_CALLER)
	__kmutex_cond_acquires_shared(0, sem) __kmutex_no_analysis;
static __kmutex_inline int
down_read_trylock(struct rw_semaphore *sem __KMUTEX_CALLER)
	__kmutex_cond_acquires_shared(1, sem) __kmutex_no_analysis;
static __kmutex_inline void up_read(struct rw_semaphore *sem __KMUTEX_CALLER)
	__kmutex_releases_shared(sem) __kmutex_no_analysis;
static __kmutex_inline void down_write(struct rw_semaphore *sem __KMUTEX_CALLER)
	__kmutex_acquires(sem) __kmutex_no_analysis;
static __kmutex_inline void
down_write_nested(struct rw_semaphore *sem, unsigned int subclass
		  __KMUTEX_CALLER)
	__kmutex_acquires(sem) __kmutex_no_analysis;
static __kmutex_inline int
down_write_killable(struct rw_semaphore *sem __KMUTEX_CALLER)
	__kmutex_cond_acquires(0, sem) __kmutex_no_analysis;
static __kmutex_inline int
down_write_killable_nested(struct rw_semaphore *sem, unsigned int subclass
			   __KMUTEX_CALLER)
	__kmutex_cond_acquires(0, sem) __kmutex_no_analysis;
static __kmutex_inline int
down_write_trylock(struct rw_semaphore *sem __KMUTEX_CALLER)
	__kmutex_cond_acquires(1, sem) __kmutex_no_analysis;
static __kmutex_inline void up_write(struct rw_semaphore *sem __KMUTEX_CALLER)
	__kmutex_releases(sem) __kmutex_no_analysis;
static __kmutex_inline void
downgrade_write(struct rw_semaphore *sem __KMUTEX_CALLER)
	__kmutex_releases(sem) __kmutex_acquires_shared(sem)
	__kmutex_no_analysis;

/**
 * init_rwsem - initialise a rwsem at run time
 * @sem: the rwsem; unlocked, nobody waiting
 *
 * In the debugging build, each init_rwsem() line is a lock class, as in
 * the kernel.
 */
static __kmutex_inline void
init_rwsem(struct rw_semaphore *sem __KMUTEX_CLASS_NAMER)
{
#ifdef KMUTEX_DEBUG
	kmutex_debug_rwsem_init(sem, __kmutex_name, __kmutex_key,
				__kmutex_site);
#else
	sem->count = 0;
	sem->wait_lock = 0;
	sem->spinner = 0;
	sem->woken = 0;
	__kmutex_list_init(&sem->wait_list);
	__kmutex_hook_create(sem);
#endif
}

/**
 * down_read - take a rwsem for reading, waiting as long as it takes
 * @sem: the rwsem
 *
 * Many readers may hold it at once (at most RWSEM_READERS_MAX, 2^23 - 1:
 * one more aborts the program, saying so); none while a writer holds
 * it, and a new reader queues behind any waiting writer.
 */
static __kmutex_inline void down_read(struct rw_semaphore *sem __KMUTEX_CALLER)
{
#ifdef KMUTEX_DEBUG
	kmutex_debug_rwsem_down(sem, 0, 1, 0, __kmutex_call);
#else
	__kmutex_hook_acquire(sem, __KMUTEX_HOOK_READ);
	__kmutex_rwsem_down(sem, 1, 0);
	__kmutex_hook_acquired(sem, __KMUTEX_HOOK_READ, true);
#endif
}

/**
 * down_read_nested - down_read() with a lockdep nesting level
 * @sem: the rwsem
 * @subclass: the nesting level, for taking two rwsems of one class in a
 *	fixed order; the production build only evaluates it
 *
 * down_write_nested() and down_write_killable_nested() likewise.
 */
static __kmutex_inline void
down_read_nested(struct rw_semaphore *sem, unsigned int subclass
		 __KMUTEX_CALLER)
{
#ifdef KMUTEX_DEBUG
	kmutex_debug_rwsem_down(sem, subclass, 1, 0, __kmutex_call);
#else
	(void)subclass;
	down_read(sem);
#endif
}

/**
 * down_read_interruptible - take it for reading unless a signal comes
 * @sem: the rwsem
 *
 * Return: 0 with a read lock held, or -EINTR if a signal handler ran in
 * this thread while it slept in the rwsem's wait (also one installed with
 * SA_RESTART).
 * A handler that runs after the thread decided to wait but before it went
 * to sleep may not be seen: it then sleeps until the lock comes or another
 * handler runs during the sleep (down_read(3), BUGS).
 */
static __kmutex_inline int
down_read_interruptible(struct rw_semaphore *sem __KMUTEX_CALLER)
{
#ifdef KMUTEX_DEBUG
	return kmutex_debug_rwsem_down(sem, 0, 1, 1, __kmutex_call);
#else
	__kmutex_hook_acquire(sem, __KMUTEX_HOOK_READ);
	return __kmutex_hook_locked(sem, __KMUTEX_HOOK_READ,
				    __kmutex_rwsem_down(sem, 1, 1));
#endif
}

/**
 * down_read_killable - as down_read_interruptible()
 * @sem: the rwsem
 *
 * Userspace has no fatal signal that returns: as interruptible.
 * Return: 0 or -EINTR.
 */
static __kmutex_inline int
down_read_killable(struct rw_semaphore *sem __KMUTEX_CALLER)
{
	return down_read_interruptible(sem __KMUTEX_CALLER_ARG);
}

/**
 * down_read_trylock - take it for reading only if that needs no wait
 * @sem: the rwsem
 *
 * Return: 1 if a read lock was taken, 0 if not (also when
 * RWSEM_READERS_MAX readers hold it).  Never sleeps.
 */
static __kmutex_inline int
down_read_trylock(struct rw_semaphore *sem __KMUTEX_CALLER)
{
#ifdef KMUTEX_DEBUG
	return kmutex_debug_rwsem_trylock(sem, 1, __kmutex_call);
#else
	const unsigned int f = __KMUTEX_HOOK_READ | __KMUTEX_HOOK_TRY;

	__kmutex_hook_acquire(sem, f);
	return __kmutex_hook_trylocked(sem, f, __kmutex_rwsem_trylock(sem, 1));
#endif
}

/**
 * up_read - release a read lock
 * @sem: the rwsem, held for reading by the caller
 *
 * The last reader out, when someone waits, goes to the slow path to let
 * the first waiter (a writer) in.
 */
static __kmutex_inline void up_read(struct rw_semaphore *sem __KMUTEX_CALLER)
{
#ifdef KMUTEX_DEBUG
	kmutex_debug_rwsem_up(sem, 1, __kmutex_call);
#else
	__kmutex_hook_release(sem, __KMUTEX_HOOK_READ);
	__kmutex_rwsem_up(sem, 1);
	__kmutex_hook_released(sem, __KMUTEX_HOOK_READ);
#endif
}

/**
 * down_write - take a rwsem for writing, waiting as long as it takes
 * @sem: the rwsem
 */
static __kmutex_inline void down_write(struct rw_semaphore *sem __KMUTEX_CALLER)
{
#ifdef KMUTEX_DEBUG
	kmutex_debug_rwsem_down(sem, 0, 0, 0, __kmutex_call);
#else
	__kmutex_hook_acquire(sem, 0);
	__kmutex_rwsem_down(sem, 0, 0);
	__kmutex_hook_acquired(sem, 0, true);
#endif
}

/* down_write() with a lockdep nesting level: see down_read_nested(). */
static __kmutex_inline void
down_write_nested(struct rw_semaphore *sem, unsigned int subclass
		  __KMUTEX_CALLER)
{
#ifdef KMUTEX_DEBUG
	kmutex_debug_rwsem_down(sem, subclass, 0, 0, __kmutex_call);
#else
	(void)subclass;
	down_write(sem);
#endif
}

/**
 * down_write_killable - take it for writing unless a signal comes first
 * @sem: the rwsem
 *
 * Return: 0 with the write lock held, or -EINTR if a signal handler ran
 * in this thread while it slept in the rwsem's wait (also one installed
 * with SA_RESTART).
 * A handler that runs after the thread decided to wait but before it went
 * to sleep may not be seen: it then sleeps until the lock comes or another
 * handler runs during the sleep (down_read(3), BUGS).
 */
static __kmutex_inline int
down_write_killable(struct rw_semaphore *sem __KMUTEX_CALLER)
{
#ifdef KMUTEX_DEBUG
	return kmutex_debug_rwsem_down(sem, 0, 0, 1, __kmutex_call);
#else
	__kmutex_hook_acquire(sem, 0);
	return __kmutex_hook_locked(sem, 0, __kmutex_rwsem_down(sem, 0, 1));
#endif
}

/* down_write_killable() with a nesting level: see down_read_nested(). */
static __kmutex_inline int
down_write_killable_nested(struct rw_semaphore *sem, unsigned int subclass
			   __KMUTEX_CALLER)
{
#ifdef KMUTEX_DEBUG
	return kmutex_debug_rwsem_down(sem, subclass, 0, 1, __kmutex_call);
#else
	(void)subclass;
	return down_write_killable(sem);
#endif
}

/**
 * down_write_trylock - take it for writing only if it is free
 * @sem: the rwsem
 *
 * Return: 1 if the write lock was taken, 0 if not.  Never sleeps.
 */
static __kmutex_inline int
down_write_trylock(struct rw_semaphore *sem __KMUTEX_CALLER)
{
#ifdef KMUTEX_DEBUG
	return kmutex_debug_rwsem_trylock(sem, 0, __kmutex_call);
#else
	bool ok;

	__kmutex_hook_acquire(sem, __KMUTEX_HOOK_TRY);
	ok = __kmutex_rwsem_trylock(sem, 0);
	__kmutex_hook_acquired(sem, __KMUTEX_HOOK_TRY, ok);
	return ok;
#endif
}

/**
 * up_write - release the write lock
 * @sem: the rwsem, held for writing by the caller
 *
 * Wakes the waiters at the head of the queue: one writer, or all the
 * readers up to the first waiting writer.  Releasing a rwsem that is not
 * write-locked aborts with a message.
 */
static __kmutex_inline void up_write(struct rw_semaphore *sem __KMUTEX_CALLER)
{
#ifdef KMUTEX_DEBUG
	kmutex_debug_rwsem_up(sem, 0, __kmutex_call);
#else
	__kmutex_hook_release(sem, 0);
	__kmutex_rwsem_up(sem, 0);
	__kmutex_hook_released(sem, 0);
#endif
}

/**
 * downgrade_write - turn the caller's write lock into a read lock
 * @sem: the rwsem, held for writing by the caller
 *
 * Readers waiting at the head of the queue join it at once.
 */
static __kmutex_inline void
downgrade_write(struct rw_semaphore *sem __KMUTEX_CALLER)
{
#ifdef KMUTEX_DEBUG
	kmutex_debug_rwsem_downgrade(sem, __kmutex_call);
#else
	const unsigned int f = __KMUTEX_HOOK_READ | __KMUTEX_HOOK_TRY;

	/*
	 * TSan has no downgrade: a write unlock, then a read lock that
	 * cannot fail or block (a try, so no lock-order edge is made).
	 */
	__kmutex_hook_release(sem, 0);
	__kmutex_rwsem_downgrade(sem);
	__kmutex_hook_released(sem, 0);
	__kmutex_hook_acquire(sem, f);
	__kmutex_hook_acquired(sem, f, true);
#endif
}

/**
 * rwsem_is_locked - tell whether a rwsem is held (for reading or writing)
 * @sem: the rwsem
 *
 * Return: true if held (not checked, also in the debugging build: as in
 * the kernel).  Changes nothing; a reader passing through a failed fast
 * path may make it answer true for an instant.
 */
static __kmutex_inline int rwsem_is_locked(struct rw_semaphore *sem)
{
	/* RELAXED: a snapshot that orders nothing, as the kernel's. */
	return (__atomic_load_n(&sem->count, __ATOMIC_RELAXED) &
		~(RWSEM_FLAG_WAITERS | RWSEM_FLAG_HANDOFF)) != 0;
}

#ifdef KMUTEX_DEBUG
/* The debugging build's call-site capture (kmutex/compiler.h). */
#define init_rwsem(sem)		__KMUTEX_CLASSED(init_rwsem, sem, #sem)
#define down_read(sem)		__KMUTEX_CALLED(down_read, sem)
#define down_read_nested(sem, subclass) \
	__KMUTEX_CALLED2(down_read_nested, sem, subclass)
#define down_read_interruptible(sem) \
	__KMUTEX_CALLED(down_read_interruptible, sem)
#define down_read_killable(sem)	__KMUTEX_CALLED(down_read_killable, sem)
#define down_read_trylock(sem)	__KMUTEX_CALLED(down_read_trylock, sem)
#define up_read(sem)		__KMUTEX_CALLED(up_read, sem)
#define down_write(sem)		__KMUTEX_CALLED(down_write, sem)
#define down_write_nested(sem, subclass) \
	__KMUTEX_CALLED2(down_write_nested, sem, subclass)
#define down_write_killable(sem) __KMUTEX_CALLED(down_write_killable, sem)
#define down_write_killable_nested(sem, subclass) \
	__KMUTEX_CALLED2(down_write_killable_nested, sem, subclass)
#define down_write_trylock(sem)	__KMUTEX_CALLED(down_write_trylock, sem)
#define up_write(sem)		__KMUTEX_CALLED(up_write, sem)
#define downgrade_write(sem)	__KMUTEX_CALLED(downgrade_write, sem)
#endif /* KMUTEX_DEBUG */

/* lockdep_assert_held(&sem): clang then takes sem as held for reading. */
__KMUTEX_CAPABILITY_HELPERS(struct rw_semaphore, __kmutex_asserts_shared)

#include <linux/cleanup.h>
#define __KMUTEX_RWSEM_GUARD_ASSERTS(name, asserts) \
	__KMUTEX_GUARD_ASSERTS(name, struct rw_semaphore *, asserts)
__KMUTEX_RWSEM_GUARD_ASSERTS(rwsem_read, __kmutex_asserts_shared)
DEFINE_GUARD(rwsem_read, struct rw_semaphore *, down_read(_T), up_read(_T))
__KMUTEX_RWSEM_GUARD_ASSERTS(rwsem_read_try, __kmutex_asserts_shared)
DEFINE_GUARD_COND(rwsem_read, _try, down_read_trylock(_T))
__KMUTEX_RWSEM_GUARD_ASSERTS(rwsem_read_intr, __kmutex_asserts_shared)
DEFINE_GUARD_COND(rwsem_read, _intr, down_read_interruptible(_T) == 0)
__KMUTEX_RWSEM_GUARD_ASSERTS(rwsem_write, __kmutex_asserts)
DEFINE_GUARD(rwsem_write, struct rw_semaphore *, down_write(_T), up_write(_T))
__KMUTEX_RWSEM_GUARD_ASSERTS(rwsem_write_try, __kmutex_asserts)
DEFINE_GUARD_COND(rwsem_write, _try, down_write_trylock(_T))
__KMUTEX_RWSEM_GUARD_ASSERTS(rwsem_write_kill, __kmutex_asserts)
DEFINE_GUARD_COND(rwsem_write, _kill, down_write_killable(_T) == 0)

__KMUTEX_END_DECLS

#endif /* _LINUX_RWSEM_H */
