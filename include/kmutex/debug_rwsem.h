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

/* The count encoding of <linux/rwsem.h>, which src/rwsem.c relies on. */
#define RWSEM_WRITER_LOCKED	(1 << 0)
#define RWSEM_FLAG_WAITERS	(1 << 1)
#define RWSEM_FLAG_HANDOFF	(1 << 2)
#define RWSEM_READER_SHIFT	8
#define RWSEM_READER_BIAS	(1 << RWSEM_READER_SHIFT)

struct rw_semaphore {
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
			.key = (void *)0,				\
			.name = #lockname,				\
			.site = __KMUTEX_SITE,				\
		},							\
	}

#define DECLARE_RWSEM(name) \
	struct rw_semaphore name = __RWSEM_INITIALIZER(name)

/* The library's slow paths (src/rwsem.c), the same in both builds. */
int kmutex_down_read_slowpath(struct rw_semaphore *sem, int intr);
int kmutex_down_write_slowpath(struct rw_semaphore *sem, int intr);
#define __KMUTEX_RWSEM_UP_READ		0
#define __KMUTEX_RWSEM_UP_WRITE		1
#define __KMUTEX_RWSEM_DOWNGRADE	2
void kmutex_rwsem_wake(struct rw_semaphore *sem, int op);

/* The checked entry points (src/debug/rwsem.c). */
void kmutex_debug_rwsem_init(struct rw_semaphore *sem, const char *name,
			     const struct lock_class_key *key,
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
		static struct lock_class_key __kmutex_key;		\
									\
		kmutex_debug_rwsem_init((sem), #sem, &__kmutex_key,	\
					__KMUTEX_SITE);			\
	} while (0)

#define __kmutex_down(sem, sub, read, intr, fn)				\
	kmutex_debug_rwsem_down((sem), (sub), (read), (intr),		\
				__KMUTEX_CALL(fn, sem))

#define down_read(sem)	((void)__kmutex_down(sem, 0, 1, 0, down_read))
#define down_read_nested(sem, subclass) \
	((void)__kmutex_down(sem, subclass, 1, 0, down_read_nested))
#define down_read_interruptible(sem) \
	__kmutex_down(sem, 0, 1, 1, down_read_interruptible)
/* Userspace has no fatal signal that returns: as interruptible. */
#define down_read_killable(sem) \
	__kmutex_down(sem, 0, 1, 1, down_read_killable)
#define down_read_trylock(sem) \
	kmutex_debug_rwsem_trylock((sem), 1, \
				   __KMUTEX_CALL(down_read_trylock, sem))
#define up_read(sem) \
	kmutex_debug_rwsem_up((sem), 1, __KMUTEX_CALL(up_read, sem))

#define down_write(sem)	((void)__kmutex_down(sem, 0, 0, 0, down_write))
#define down_write_nested(sem, subclass) \
	((void)__kmutex_down(sem, subclass, 0, 0, down_write_nested))
#define down_write_killable(sem) \
	__kmutex_down(sem, 0, 0, 1, down_write_killable)
#define down_write_killable_nested(sem, subclass) \
	__kmutex_down(sem, subclass, 0, 1, down_write_killable_nested)
#define down_write_trylock(sem) \
	kmutex_debug_rwsem_trylock((sem), 0, \
				   __KMUTEX_CALL(down_write_trylock, sem))
#define up_write(sem) \
	kmutex_debug_rwsem_up((sem), 0, __KMUTEX_CALL(up_write, sem))
#define downgrade_write(sem) \
	kmutex_debug_rwsem_downgrade((sem), \
				     __KMUTEX_CALL(downgrade_write, sem))

/**
 * rwsem_is_locked - tell whether a rwsem is held (for reading or writing)
 * @sem: the rwsem
 *
 * Return: true if held (not checked: as in the kernel).
 */
static inline int rwsem_is_locked(struct rw_semaphore *sem)
{
	return (__atomic_load_n(&sem->count, __ATOMIC_RELAXED) &
		~RWSEM_FLAG_WAITERS) != 0;
}

#endif /* _KMUTEX_DEBUG_RWSEM_H */
