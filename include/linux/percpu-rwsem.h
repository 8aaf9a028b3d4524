/* SPDX-License-Identifier: MIT */
/*
 * <linux/percpu-rwsem.h> - the kernel's per-CPU reader/writer semaphore:
 * a read side that writes no shared cache line, for data read very often
 * and written very rarely.  A writer pays for it: it waits for every
 * reader to drain, and its readers then go to a slow path.
 *
 * Readers count themselves in one of an array of counters, each on a
 * cache line of its own, chosen by the CPU they run on (sched_getcpu(),
 * which glibc answers from rseq without a system call); a writer takes
 * the inner rw_semaphore for writing, raises @block and waits for the
 * sum of the counters to reach zero.  The protocol and its memory
 * ordering are written out at the top of src/percpu_rwsem.c.
 */
#ifndef _LINUX_PERCPU_RWSEM_H
#define _LINUX_PERCPU_RWSEM_H

#include <linux/rwsem.h>

__KMUTEX_BEGIN_DECLS

/* One reader counter per cache line: readers on two CPUs share none. */
struct kmutex_percpu_slot {
	int count;
	char __kmutex_pad[64 - sizeof(int)];
} __attribute__((__aligned__(64)));

/* The slots of DEFINE_STATIC_PERCPU_RWSEM(), which cannot allocate. */
#define KMUTEX_PERCPU_STATIC_SLOTS	64

/* A capability to clang -Wthread-safety, shared by readers. */
struct __kmutex_capability("percpu_rw_semaphore") percpu_rw_semaphore {
	struct kmutex_percpu_slot *slots;	/* mask + 1 of them */
	unsigned int mask;		/* slot = cpu & mask */
	int allocated;			/* slots came from percpu_init_rwsem() */
	int block;			/* a writer holds it or drains readers */
	int writer_seq;			/* futex word: the writer sleeps on it */
	struct rw_semaphore rwsem;	/* writers; readers while @block */
};

#define __DEFINE_PERCPU_RWSEM(name, is_static)				\
	static struct kmutex_percpu_slot				\
		__kmutex_percpu_slots_##name[KMUTEX_PERCPU_STATIC_SLOTS]; \
	is_static struct percpu_rw_semaphore name = {			\
		.slots = __kmutex_percpu_slots_##name,			\
		.mask = KMUTEX_PERCPU_STATIC_SLOTS - 1,			\
		.allocated = 0,						\
		.block = 0,						\
		.writer_seq = 0,					\
		.rwsem = __RWSEM_INITIALIZER(name.rwsem),		\
	}

/**
 * DEFINE_PERCPU_RWSEM - define and statically initialise a percpu rwsem
 * @name: the variable's name
 *
 * DEFINE_STATIC_PERCPU_RWSEM() is the same with internal linkage.  Such a
 * semaphore has KMUTEX_PERCPU_STATIC_SLOTS (64) reader counters, shared
 * modulo by the CPUs beyond; percpu_free_rwsem() is not needed.
 */
#define DEFINE_PERCPU_RWSEM(name)	__DEFINE_PERCPU_RWSEM(name, )
#define DEFINE_STATIC_PERCPU_RWSEM(name) __DEFINE_PERCPU_RWSEM(name, static)

int kmutex_percpu_init_rwsem(struct percpu_rw_semaphore *sem,
			     const char *name, const void *key,
			     const char *site);
void kmutex_percpu_free_rwsem(struct percpu_rw_semaphore *sem);
void kmutex_percpu_down_read(struct percpu_rw_semaphore *sem)
	__kmutex_acquires_shared(sem) __kmutex_no_analysis;
int kmutex_percpu_down_read_trylock(struct percpu_rw_semaphore *sem)
	__kmutex_cond_acquires_shared(1, sem) __kmutex_no_analysis;
void kmutex_percpu_up_read(struct percpu_rw_semaphore *sem)
	__kmutex_releases_shared(sem) __kmutex_no_analysis;
void kmutex_percpu_down_write(struct percpu_rw_semaphore *sem)
	__kmutex_acquires(sem) __kmutex_no_analysis;
void kmutex_percpu_up_write(struct percpu_rw_semaphore *sem)
	__kmutex_releases(sem) __kmutex_no_analysis;

/**
 * percpu_init_rwsem - initialise a percpu rwsem at run time
 * @sem: the semaphore; any previous content is overwritten
 *
 * Allocates one reader counter per possible CPU (rounded up to a power
 * of two), each on its own cache line.  In the debugging build the
 * inner rw_semaphore that writers take gets a lock class per call site,
 * and reports name it after @sem and this line.
 *
 * Return: 0, or -ENOMEM (nothing to free then).
 */
#define percpu_init_rwsem(sem)						\
	__extension__ ({						\
		static char __kmutex_key;	/* the class: its address */ \
		kmutex_percpu_init_rwsem((sem), #sem, &__kmutex_key,	\
					 __KMUTEX_SITE);		\
	})

/**
 * percpu_free_rwsem - release what percpu_init_rwsem() allocated
 * @sem: an unlocked percpu rwsem; it may be initialised again after
 *
 * Also safe on a statically defined semaphore and twice in a row.
 */
static __kmutex_inline void percpu_free_rwsem(struct percpu_rw_semaphore *sem)
{
	kmutex_percpu_free_rwsem(sem);
}

/**
 * percpu_down_read - take a percpu rwsem for reading
 * @sem: the semaphore
 *
 * Without a writer: an increment of this CPU's counter and a full
 * barrier, no shared cache line written.  While a writer holds or wants
 * it: sleeps until the writer is done.  Readers nest, but a reader that
 * takes it again while a writer waits deadlocks, as in the kernel.
 */
static __kmutex_inline void percpu_down_read(struct percpu_rw_semaphore *sem)
	__kmutex_acquires_shared(sem) __kmutex_no_analysis;
static __kmutex_inline void percpu_down_read(struct percpu_rw_semaphore *sem)
{
	kmutex_percpu_down_read(sem);
}

/**
 * percpu_down_read_trylock - take a percpu rwsem for reading, never sleeping
 * @sem: the semaphore
 *
 * Return: 1 if taken, 0 if a writer holds it or is draining its readers.
 */
static __kmutex_inline int percpu_down_read_trylock(struct percpu_rw_semaphore *sem)
	__kmutex_cond_acquires_shared(1, sem) __kmutex_no_analysis;
static __kmutex_inline int percpu_down_read_trylock(struct percpu_rw_semaphore *sem)
{
	return kmutex_percpu_down_read_trylock(sem);
}

/**
 * percpu_up_read - release a read hold of a percpu rwsem
 * @sem: the semaphore, held for reading by the caller
 *
 * May run on another CPU than the percpu_down_read() it ends (only the
 * sum of the counters means anything).  Wakes a writer waiting for the
 * readers to drain.
 */
static __kmutex_inline void percpu_up_read(struct percpu_rw_semaphore *sem)
	__kmutex_releases_shared(sem) __kmutex_no_analysis;
static __kmutex_inline void percpu_up_read(struct percpu_rw_semaphore *sem)
{
	kmutex_percpu_up_read(sem);
}

/**
 * percpu_down_write - take a percpu rwsem for writing
 * @sem: the semaphore
 *
 * Waits for other writers (the inner rw_semaphore), then turns new
 * readers to the slow path and sleeps until the readers inside have
 * left.  Readers that arrive later wait: the writer is not starved.
 */
static __kmutex_inline void percpu_down_write(struct percpu_rw_semaphore *sem)
	__kmutex_acquires(sem) __kmutex_no_analysis;
static __kmutex_inline void percpu_down_write(struct percpu_rw_semaphore *sem)
{
	kmutex_percpu_down_write(sem);
}

/**
 * percpu_up_write - release a percpu rwsem held for writing
 * @sem: the semaphore, held for writing by the caller
 */
static __kmutex_inline void percpu_up_write(struct percpu_rw_semaphore *sem)
	__kmutex_releases(sem) __kmutex_no_analysis;
static __kmutex_inline void percpu_up_write(struct percpu_rw_semaphore *sem)
{
	kmutex_percpu_up_write(sem);
}

/**
 * percpu_rwsem_assert_held - assert that a percpu rwsem is held
 * @sem: the semaphore
 *
 * Evaluates @sem once and does nothing else, in both builds: readers
 * leave no trace of who they are (that is the point of the lock), so
 * neither build can check it.  Under clang -Wthread-safety the caller
 * is taken to hold @sem from there on (shared).
 */
static __kmutex_inline void __kmutex_percpu_assert_held(struct percpu_rw_semaphore *sem)
	__kmutex_asserts_shared(sem);
static __kmutex_inline void __kmutex_percpu_assert_held(struct percpu_rw_semaphore *sem)
{
	(void)sem;
}
#define percpu_rwsem_assert_held(sem)	__kmutex_percpu_assert_held(sem)

/* guard(percpu_read)(&s), percpu_read_try, guard(percpu_write)(&s) */
#include <linux/cleanup.h>
#define __KMUTEX_PERCPU_GUARD_ASSERTS(name, asserts) \
	__KMUTEX_GUARD_ASSERTS(name, struct percpu_rw_semaphore *, asserts)
__KMUTEX_PERCPU_GUARD_ASSERTS(percpu_read, __kmutex_asserts_shared)
DEFINE_GUARD(percpu_read, struct percpu_rw_semaphore *,
	     percpu_down_read(_T), percpu_up_read(_T))
__KMUTEX_PERCPU_GUARD_ASSERTS(percpu_read_try, __kmutex_asserts_shared)
DEFINE_GUARD_COND(percpu_read, _try, percpu_down_read_trylock(_T))
__KMUTEX_PERCPU_GUARD_ASSERTS(percpu_write, __kmutex_asserts)
DEFINE_GUARD(percpu_write, struct percpu_rw_semaphore *,
	     percpu_down_write(_T), percpu_up_write(_T))

__KMUTEX_END_DECLS

#endif /* _LINUX_PERCPU_RWSEM_H */
