// SPDX-License-Identifier: MIT
/*
 * percpu_rwsem.c - struct percpu_rw_semaphore (<linux/percpu-rwsem.h>):
 * a read side that writes no shared cache line.
 *
 * The idea is the kernel's (kernel/locking/percpu-rwsem.c: per-CPU read
 * counters and a writer that blocks new readers and waits for the sum
 * to drain); rcu_sync is replaced here by a full barrier on each side:
 * every access of the handshake below is a sequentially consistent
 * atomic (C11 then forbids the store-buffering outcome; on x86 the
 * reader's lock xadd is the barrier, and ThreadSanitizer, which does not
 * support standalone fences, understands it).
 * The handshake below is modelled in model/percpu_rwsem.pml (spin,
 * model/check_percpu): change the two together.
 *
 * State:
 *   slots[i].count  readers counted on slot i, each slot on a cache line
 *                   of its own, i = sched_getcpu() & mask.  A reader may
 *                   leave on another CPU than it came in on, so a single
 *                   counter may go negative; only the sum (in unsigned,
 *                   wrapping, arithmetic) is the number of readers inside.
 *   block           nonzero while a writer holds the inner rwsem for
 *                   writing (set after down_write, cleared before
 *                   up_write): PERCPU_HELD once it holds the lock, while
 *                   it drains the readers PERCPU_DRAINING tagged with
 *                   its process's fork generation (percpu_fork_recover()).
 *   writer_seq      a futex word: the draining writer sleeps on it, a
 *                   leaving reader that sees block bumps it and wakes.
 *   rwsem           writers take it for writing; readers that find
 *                   block set wait on it for reading.
 *
 * Reader (down):  count++ on its slot; FULL BARRIER; load block.
 *                 0: inside.  1: undo (the "up" below, which may wake
 *                 the writer), then down_read(rwsem) - it sleeps while
 *                 the writer holds it - count++, up_read(rwsem): with
 *                 the rwsem held for reading no writer is between its
 *                 down_write and up_write, and the increment is ordered
 *                 before any later writer's down_write (the rwsem's
 *                 release/acquire), so that writer's sum sees it.
 * Reader (up):    count-- on its slot (now); FULL BARRIER; load block;
 *                 if 1: writer_seq++ and futex_wake(writer_seq).
 * Writer (down):  down_write(rwsem); block = DRAINING; FULL BARRIER;
 *                 loop { seq = load writer_seq; FULL BARRIER; sum the
 *                 slots; 0: done; else futex_wait(writer_seq, seq) };
 *                 block = HELD (both nonzero: "1" to the readers).
 * Writer (up):    block = 0 (release); up_write(rwsem).
 *
 * Why no reader is missed and no wake-up lost: the reader's "count++;
 * barrier; load block" against the writer's "block = 1; barrier; load
 * counts" is the store-buffering pattern with full barriers on both
 * sides: at least one of them sees the other's store.  Either the
 * reader sees block and backs out (its decrement then wakes the writer
 * as below), or the writer's sum includes the reader and it waits.
 * Likewise "count--; barrier; load block" against "block = 1; barrier;
 * sum": either the writer's sum sees the decrement or the reader sees
 * block and bumps writer_seq.  The bump comes after the decrement, and
 * the writer loads writer_seq before it sums: if the writer's load
 * missed the bump, futex_wait() sees the changed word and returns; if
 * it saw it, its sum sees the decrement.  So the writer never sleeps
 * on a sum that has already drained.  The writer does not starve: once
 * block is set, new readers queue on the rwsem, and only the readers
 * already inside are waited for.
 */
#include "api.h"

#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysinfo.h>
#include <linux/percpu-rwsem.h>

#include "futex.h"
#include "waiter.h"

#define MAX_SLOTS	4096u

static unsigned int slot_count(void)
{
	int n = get_nprocs_conf();
	unsigned int s = 1;

	while (s < (unsigned int)n && s < MAX_SLOTS)
		s <<= 1;
	return s;
}

KMUTEX_API int kmutex_percpu_init_rwsem(struct percpu_rw_semaphore *sem,
					const char *name, const void *key,
					const char *site)
{
	unsigned int n = slot_count();
	void *slots;

	if (posix_memalign(&slots, sizeof(struct kmutex_percpu_slot),
			   n * sizeof(struct kmutex_percpu_slot)))
		return -ENOMEM;
	memset(slots, 0, n * sizeof(struct kmutex_percpu_slot));
	sem->slots = slots;
	sem->mask = n - 1;
	sem->allocated = 1;
	sem->block = 0;
	sem->writer_seq = 0;
	init_rwsem(&sem->rwsem);
#ifdef KMUTEX_DEBUG
	/*
	 * One class per percpu_init_rwsem() line, as the kernel has, and
	 * reports name the caller's variable and line, not this file's.
	 */
	sem->rwsem.dep_map.name = name;
	sem->rwsem.dep_map.site = site;
	kmutex_lockdep_set_class(&sem->rwsem.dep_map, key, name);
#else
	(void)name;
	(void)key;
	(void)site;
#endif
	__kmutex_hook_create(sem);
	return 0;
}

KMUTEX_API void kmutex_percpu_free_rwsem(struct percpu_rw_semaphore *sem)
{
	__kmutex_hook_destroy(sem);
	if (sem->allocated)
		free(sem->slots);
	sem->slots = NULL;
	sem->allocated = 0;
}

static inline int *this_count(struct percpu_rw_semaphore *sem)
{
	int cpu = sched_getcpu();

	if (__kmutex_unlikely(cpu < 0))
		cpu = 0;
	return &sem->slots[(unsigned int)cpu & sem->mask].count;
}

/* count++; full barrier; is a writer there? */
static inline bool reader_enter(struct percpu_rw_semaphore *sem)
{
	__atomic_fetch_add(this_count(sem), 1, __ATOMIC_SEQ_CST);
	return !__atomic_load_n(&sem->block, __ATOMIC_SEQ_CST);
}

/* count--; full barrier; wake a draining writer. */
static void reader_leave(struct percpu_rw_semaphore *sem)
{
	__atomic_fetch_sub(this_count(sem), 1, __ATOMIC_SEQ_CST);
	if (__atomic_load_n(&sem->block, __ATOMIC_SEQ_CST)) {
		__atomic_fetch_add(&sem->writer_seq, 1, __ATOMIC_SEQ_CST);
		futex_wake(&sem->writer_seq, 1);
	}
}

#define PERCPU_HELD		1
#define PERCPU_DRAINING		3	/* | fork generation << 2 */

/* What a writer draining the readers in this process stores in block. */
static int percpu_drain_tag(void)
{
	unsigned int gen = __atomic_load_n(&waiter_fork_gen, __ATOMIC_RELAXED);

	return (int)(PERCPU_DRAINING | (gen & 0x1fffffffu) << 2);
}

/*
 * fork() while a writer of the parent drained the readers, the forking
 * thread one of them (found in review): the child has that writer's
 * block and its hold of the inner rwsem, and not the writer, so its
 * readers and writers would wait on them for ever.  The first one here
 * that sees the block of a writer of another process clears it and
 * releases the inner rwsem for it, as if it had given up; docs/porting.md
 * promises that a lock the forking thread held works in the child.  Only
 * one of racing callers wins the CAS.  A writer that held the lock
 * already (PERCPU_HELD) is another thread's hold: it stays, as with any
 * lock.  Returns whether it cleared one.
 */
static bool percpu_fork_recover(struct percpu_rw_semaphore *sem)
{
	int b = __atomic_load_n(&sem->block, __ATOMIC_RELAXED);

	if ((b & PERCPU_DRAINING) != PERCPU_DRAINING || b == percpu_drain_tag())
		return false;
	if (!__atomic_compare_exchange_n(&sem->block, &b, 0, false,
					 __ATOMIC_SEQ_CST, __ATOMIC_RELAXED))
		return false;
	/* Not up_write(): that writer's hold, not ours, in both builds. */
	__kmutex_rwsem_up(&sem->rwsem, 0);
	return true;
}

/*
 * The instrumentation hooks (kmutex/hooks.h) see a percpu rwsem as one
 * reader-writer lock, @sem: its fast paths are here, not inline.
 */
#define PERCPU_READ	__KMUTEX_HOOK_READ
#define PERCPU_TRY	(__KMUTEX_HOOK_READ | __KMUTEX_HOOK_TRY)

KMUTEX_API int kmutex_percpu_down_read_trylock(struct percpu_rw_semaphore *sem)
{
	__kmutex_hook_acquire(sem, PERCPU_TRY);
	if (__kmutex_likely(reader_enter(sem)))
		return __kmutex_hook_trylocked(sem, PERCPU_TRY, 1);
	reader_leave(sem);
	if (percpu_fork_recover(sem)) {
		if (reader_enter(sem))
			return __kmutex_hook_trylocked(sem, PERCPU_TRY, 1);
		reader_leave(sem);	/* a writer came in between */
	}
	return __kmutex_hook_trylocked(sem, PERCPU_TRY, 0);
}

KMUTEX_API void kmutex_percpu_down_read(struct percpu_rw_semaphore *sem)
{
	__kmutex_hook_acquire(sem, PERCPU_READ);
	if (__kmutex_unlikely(!reader_enter(sem))) {
		reader_leave(sem);
		percpu_fork_recover(sem);
		/* Slow: wait for the writer, counted under its rwsem. */
		down_read(&sem->rwsem);
		__atomic_fetch_add(this_count(sem), 1, __ATOMIC_RELAXED);
		up_read(&sem->rwsem);
	}
	__kmutex_hook_acquired(sem, PERCPU_READ, true);
}

KMUTEX_API void kmutex_percpu_up_read(struct percpu_rw_semaphore *sem)
{
	__kmutex_hook_release(sem, PERCPU_READ);
	reader_leave(sem);
	__kmutex_hook_released(sem, PERCPU_READ);
}

/*
 * The sum of the counters (sequentially consistent loads, plain loads on
 * x86): a reader's section happens before the writer's through its
 * decrement.
 */
static unsigned int readers(struct percpu_rw_semaphore *sem)
{
	unsigned int sum = 0, i;

	for (i = 0; i <= sem->mask; i++)
		sum += (unsigned int)__atomic_load_n(&sem->slots[i].count,
						     __ATOMIC_SEQ_CST);
	return sum;
}

KMUTEX_API void kmutex_percpu_down_write(struct percpu_rw_semaphore *sem)
{
	__kmutex_hook_acquire(sem, 0);
	percpu_fork_recover(sem);
	down_write(&sem->rwsem);
	__atomic_store_n(&sem->block, percpu_drain_tag(), __ATOMIC_SEQ_CST);
	for (;;) {
		int seq = __atomic_load_n(&sem->writer_seq, __ATOMIC_SEQ_CST);

		if (readers(sem) == 0)
			break;
		futex_wait(&sem->writer_seq, seq);
	}
	/* RELAXED: still nonzero; only percpu_fork_recover() tells apart. */
	__atomic_store_n(&sem->block, PERCPU_HELD, __ATOMIC_RELAXED);
	__kmutex_hook_acquired(sem, 0, true);
}

KMUTEX_API void kmutex_percpu_up_write(struct percpu_rw_semaphore *sem)
{
	__kmutex_hook_release(sem, 0);
	__atomic_store_n(&sem->block, 0, __ATOMIC_RELEASE);
	up_write(&sem->rwsem);
	__kmutex_hook_released(sem, 0);
}
