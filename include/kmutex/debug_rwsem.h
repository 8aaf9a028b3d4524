/* SPDX-License-Identifier: MIT */
/*
 * kmutex/debug_rwsem.h - struct rw_semaphore of the debugging build.
 *
 * Included by <linux/rwsem.h> when KMUTEX_DEBUG is defined (pkg-config
 * kmutex-debug); never include it directly.  The same names as the
 * production build, every call checked by the debug library
 * (src/debug/rwsem.c) as lockdep checks the kernel's rwsems: readers
 * and writers both take part in the lock-order checks.  See
 * kmutex-debug(3).
 *
 * As in <kmutex/debug_mutex.h>: the struct starts with the production
 * fields, so that the slow paths of src/rwsem.c are the same code in
 * both builds, and the API names are macros, so that a report names the
 * caller's expression and line and the caller's own frame.
 */
#ifndef _KMUTEX_DEBUG_RWSEM_H
#define _KMUTEX_DEBUG_RWSEM_H

#ifndef _LINUX_RWSEM_H
#error "include <linux/rwsem.h>, not <kmutex/debug_rwsem.h>"
#endif

#include <kmutex/compiler.h>
#include <kmutex/debug_signal.h>
#include <kmutex/list.h>
#include <kmutex/lockdep.h>

__KMUTEX_BEGIN_DECLS

/* The count encoding of <linux/rwsem.h>, which src/rwsem.c relies on. */
#define RWSEM_WRITER_LOCKED	(1 << 0)
#define RWSEM_FLAG_WAITERS	(1 << 1)
#define RWSEM_FLAG_HANDOFF	(1 << 2)
#define RWSEM_READER_SHIFT	8
#define RWSEM_READER_BIAS	(1 << RWSEM_READER_SHIFT)

/* A capability to clang -Wthread-safety, shared by readers. */
struct __kmutex_capability("rw_semaphore") rw_semaphore {
	int count;			/* as in production */
	int wait_lock;			/* internal futex lock for wait_list */
	int spinner;			/* a writer is spinning in its slow path */
	int woken;			/* waiters woken that have not run yet */
	struct kmutex_list wait_list;	/* FIFO of struct kmutex_waiter */
	/* Debugging build only: */
	int owner;			/* tid of the writer, 0 if none */
	int stolen_reads;		/* read locks released by non-holders */
	const void *magic;		/* the rwsem itself once initialised */
	struct kmutex_dep_map dep_map;	/* its lock class, name, init site */
};

/* A statically initialised rwsem is a class of its own (key NULL). */
#define __RWSEM_INITIALIZER(lockname)					\
	{								\
		.count = 0,						\
		.wait_lock = 0,						\
		.spinner = 0,						\
		.woken = 0,						\
		.wait_list = KMUTEX_LIST_INIT((lockname).wait_list),	\
		.owner = 0,						\
		.stolen_reads = 0,					\
		.magic = &(lockname),					\
		.dep_map = {						\
			.key = __KMUTEX_NULL,				\
			.name = #lockname,				\
			.site = __KMUTEX_SITE,				\
			.key_name = __KMUTEX_NULL,			\
			.class_cache = { __KMUTEX_NULL },		\
		},							\
	}

#define DECLARE_RWSEM(name) \
	struct rw_semaphore name = __RWSEM_INITIALIZER(name)

/* The fast paths and the slow paths (src/rwsem.c), as in production. */
#include <kmutex/rwsem_fast.h>

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

#ifndef __KMUTEX_CALL
#define __KMUTEX_CALL(fn, lock)	#fn "(" #lock ") at " __KMUTEX_SITE
#endif

/* One class per init_rwsem() line, as in the kernel: see mutex_init. */
#define init_rwsem(sem)							\
	do {								\
		static char __kmutex_key;	/* the class: its address */ \
									\
		kmutex_debug_rwsem_init((sem), #sem, &__kmutex_key,	\
					__KMUTEX_SITE);			\
	} while (0)

/*
 * Each call goes through an always-inline helper that says what it does
 * to the rwsem for clang -Wthread-safety, as the production calls do
 * (readers shared, writers exclusive, the 0/-EINTR forms holding it on
 * 0, the trylocks on 1).  Always inlined, so that the library still sees
 * the caller's frame; the macros name the caller's expression and line.
 */
#define __KMUTEX_RWSEM_CALL(type, name, attrs, body)			\
	static inline __attribute__((__always_inline__)) type		\
	name(struct rw_semaphore *sem, unsigned int sub,		\
	     const char *call) attrs __kmutex_no_analysis;		\
	static inline __attribute__((__always_inline__)) type		\
	name(struct rw_semaphore *sem, unsigned int sub,		\
	     const char *call)						\
	{								\
		(void)sub;						\
		body;							\
	}

__KMUTEX_RWSEM_CALL(void, __kmutex_down_read,
	__kmutex_acquires_shared(sem),
	kmutex_debug_rwsem_down(sem, sub, 1, 0, call))
__KMUTEX_RWSEM_CALL(int, __kmutex_down_read_intr,
	__kmutex_cond_acquires_shared(0, sem),
	return kmutex_debug_rwsem_down(sem, sub, 1, 1, call))
__KMUTEX_RWSEM_CALL(int, __kmutex_down_read_try,
	__kmutex_cond_acquires_shared(1, sem),
	return kmutex_debug_rwsem_trylock(sem, 1, call))
__KMUTEX_RWSEM_CALL(void, __kmutex_up_read,
	__kmutex_releases_shared(sem),
	kmutex_debug_rwsem_up(sem, 1, call))
__KMUTEX_RWSEM_CALL(void, __kmutex_down_write,
	__kmutex_acquires(sem),
	kmutex_debug_rwsem_down(sem, sub, 0, 0, call))
__KMUTEX_RWSEM_CALL(int, __kmutex_down_write_kill,
	__kmutex_cond_acquires(0, sem),
	return kmutex_debug_rwsem_down(sem, sub, 0, 1, call))
__KMUTEX_RWSEM_CALL(int, __kmutex_down_write_try,
	__kmutex_cond_acquires(1, sem),
	return kmutex_debug_rwsem_trylock(sem, 0, call))
__KMUTEX_RWSEM_CALL(void, __kmutex_up_write,
	__kmutex_releases(sem),
	kmutex_debug_rwsem_up(sem, 0, call))
__KMUTEX_RWSEM_CALL(void, __kmutex_downgrade_write,
	__kmutex_releases(sem) __kmutex_acquires_shared(sem),
	kmutex_debug_rwsem_downgrade(sem, call))

#define __KMUTEX_RWSEM(fn, helper, sem, sub) \
	helper((sem), (sub), __KMUTEX_CALL(fn, sem))

#define down_read(sem) \
	__KMUTEX_RWSEM(down_read, __kmutex_down_read, sem, 0)
#define down_read_nested(sem, subclass) \
	__KMUTEX_RWSEM(down_read_nested, __kmutex_down_read, sem, subclass)
#define down_read_interruptible(sem) \
	__KMUTEX_RWSEM(down_read_interruptible, __kmutex_down_read_intr, sem, 0)
/* Userspace has no fatal signal that returns: as interruptible. */
#define down_read_killable(sem) \
	__KMUTEX_RWSEM(down_read_killable, __kmutex_down_read_intr, sem, 0)
#define down_read_trylock(sem) \
	__KMUTEX_RWSEM(down_read_trylock, __kmutex_down_read_try, sem, 0)
#define up_read(sem) \
	__KMUTEX_RWSEM(up_read, __kmutex_up_read, sem, 0)

#define down_write(sem) \
	__KMUTEX_RWSEM(down_write, __kmutex_down_write, sem, 0)
#define down_write_nested(sem, subclass) \
	__KMUTEX_RWSEM(down_write_nested, __kmutex_down_write, sem, subclass)
#define down_write_killable(sem) \
	__KMUTEX_RWSEM(down_write_killable, __kmutex_down_write_kill, sem, 0)
#define down_write_killable_nested(sem, subclass)			\
	__KMUTEX_RWSEM(down_write_killable_nested,			\
		       __kmutex_down_write_kill, sem, subclass)
#define down_write_trylock(sem) \
	__KMUTEX_RWSEM(down_write_trylock, __kmutex_down_write_try, sem, 0)
#define up_write(sem) \
	__KMUTEX_RWSEM(up_write, __kmutex_up_write, sem, 0)
#define downgrade_write(sem) \
	__KMUTEX_RWSEM(downgrade_write, __kmutex_downgrade_write, sem, 0)

/**
 * rwsem_is_locked - tell whether a rwsem is held (for reading or writing)
 * @sem: the rwsem
 *
 * Return: true if held (not checked: as in the kernel).
 */
static inline int rwsem_is_locked(struct rw_semaphore *sem)
{
	/* RELAXED: a snapshot that orders nothing, as the kernel's. */
	return (__atomic_load_n(&sem->count, __ATOMIC_RELAXED) &
		~(RWSEM_FLAG_WAITERS | RWSEM_FLAG_HANDOFF)) != 0;
}

__KMUTEX_END_DECLS

#endif /* _KMUTEX_DEBUG_RWSEM_H */
