/* SPDX-License-Identifier: MIT */
/*
 * kmutex/debug_semaphore.h - struct semaphore of the debugging build.
 *
 * Included by <linux/semaphore.h> when KMUTEX_DEBUG is defined (pkg-config
 * kmutex-debug); never include it directly.  A semaphore takes no part
 * in the lock-order checks (any thread may up() it, so there is no
 * holder to order; the kernel's lockdep does not track them either), but
 * the debug library (src/debug/semaphore.c) reports a down() that may
 * sleep in a signal handler, and the use of a semaphore never
 * initialised.  See kmutex-debug(3).
 *
 * As in <kmutex/debug_mutex.h>: the production fields first, for the
 * slow paths of src/semaphore.c; the API names are macros, so that a
 * report names the caller's expression, line and frame.
 */
#ifndef _KMUTEX_DEBUG_SEMAPHORE_H
#define _KMUTEX_DEBUG_SEMAPHORE_H

#ifndef _LINUX_SEMAPHORE_H
#error "include <linux/semaphore.h>, not <kmutex/debug_semaphore.h>"
#endif

#include <kmutex/debug_signal.h>
#include <kmutex/lockdep.h>

__KMUTEX_BEGIN_DECLS

struct semaphore {
	int count;			/* free units, or -1: waiters */
	int wait_lock;			/* internal futex lock for wait_list */
	struct kmutex_list wait_list;	/* FIFO of struct kmutex_waiter */
	/* Debugging build only: */
	const void *magic;		/* the semaphore itself once set up */
	struct kmutex_obj_map map;	/* its name, for reports */
	/* Is it a mutex in disguise? (src/debug/hint.c) */
	int hint_count;			/* the count it was set up with */
	int hint_holder;		/* tid of the down() not yet up()ed */
	unsigned int hint_pairs;	/* down/up pairs of one thread */
	unsigned int hint_state;	/* watching, not a mutex, hinted */
};

#define __SEMAPHORE_INITIALIZER(semname, n)				\
	{								\
		.count = (n),						\
		.wait_lock = 0,						\
		.wait_list = KMUTEX_LIST_INIT((semname).wait_list),	\
		.magic = &(semname),					\
		.map = { .name = #semname, .site = __KMUTEX_SITE },	\
		.hint_count = (n),					\
		.hint_holder = 0,					\
		.hint_pairs = 0,					\
		.hint_state = 0,					\
	}

#define __KMUTEX_DEFINE_SEMAPHORE1(semname) \
	struct semaphore semname = __SEMAPHORE_INITIALIZER(semname, 1)
#define __KMUTEX_DEFINE_SEMAPHORE2(semname, n) \
	struct semaphore semname = __SEMAPHORE_INITIALIZER(semname, n)
#define __KMUTEX_PICK3(_1, _2, which, ...) which
#define DEFINE_SEMAPHORE(...)						\
	__KMUTEX_PICK3(__VA_ARGS__, __KMUTEX_DEFINE_SEMAPHORE2,		\
		       __KMUTEX_DEFINE_SEMAPHORE1, _)(__VA_ARGS__)

/* The library's slow paths (src/semaphore.c), the same in both builds. */
void kmutex_down_slowpath(struct semaphore *sem);
int kmutex_down_common_slowpath(struct semaphore *sem, int intr,
				long timeout_ms);
void kmutex_up_slowpath(struct semaphore *sem);

/* The checked entry points (src/debug/semaphore.c). */
void kmutex_debug_sema_init(struct semaphore *sem, int val, const char *name,
			    const char *site);
int kmutex_debug_sem_down(struct semaphore *sem, int intr, int timed,
			  long timeout, const char *call);
int kmutex_debug_sem_trylock(struct semaphore *sem, const char *call);
void kmutex_debug_sem_up(struct semaphore *sem, const char *call);

#ifndef __KMUTEX_CALL
#define __KMUTEX_CALL(fn, lock)	#fn "(" #lock ") at " __KMUTEX_SITE
#endif

#define sema_init(sem, val) \
	kmutex_debug_sema_init((sem), (val), #sem, __KMUTEX_SITE)
#define down_interruptible(sem)						\
	kmutex_debug_sem_down((sem), 1, 0, 0,				\
			      __KMUTEX_CALL(down_interruptible, sem))
/* Userspace has no fatal signal that returns: as interruptible. */
#define down_killable(sem) \
	kmutex_debug_sem_down((sem), 1, 0, 0, __KMUTEX_CALL(down_killable, sem))
#define down_timeout(sem, timeout)					\
	kmutex_debug_sem_down((sem), 0, 1, (timeout),			\
			      __KMUTEX_CALL(down_timeout, sem))
#define down_trylock(sem) \
	kmutex_debug_sem_trylock((sem), __KMUTEX_CALL(down_trylock, sem))

/*
 * down() and up() are functions, not macros: their names are common as
 * struct members (ops->up(x)), which a function-like macro would eat.
 * Always inlined, so that the library still sees the caller's frame.
 */
/**
 * down - take a unit of the semaphore, waiting as long as it takes
 * @sem: the semaphore; in a signal handler this is reported
 */
static inline __attribute__((__always_inline__))
void down(struct semaphore *sem)
{
	kmutex_debug_sem_down(sem, 0, 0, 0, "down()");
}

/**
 * up - release a unit of the semaphore (any thread, also a handler)
 * @sem: the semaphore
 */
static inline __attribute__((__always_inline__))
void up(struct semaphore *sem)
{
	kmutex_debug_sem_up(sem, "up()");
}

__KMUTEX_END_DECLS

#endif /* _KMUTEX_DEBUG_SEMAPHORE_H */
