/* SPDX-License-Identifier: MIT */
/*
 * stat_rec.h - one lock's statistics record, as the shared side table
 * (stat.c) and the per-thread tables (stat_thread.c) both hold it.
 *
 * Every field is written and read with relaxed atomics: a record is
 * written by its thread (or, in the shared table, by any thread) while
 * kmutex_stat_print() reads it from another one.  A thread's own record
 * has one writer, its thread, which updates it with a load and a store
 * (stat_inc()): an atomic add is a locked instruction, and the update
 * runs while the lock just acquired is held.  kmutex_stat_reset() does
 * not write it: the thread clears its own records when it sees that a
 * reset happened (stat_thread.c).
 */
#ifndef _KMUTEX_SRC_STAT_REC_H
#define _KMUTEX_SRC_STAT_REC_H

#include <stdbool.h>
#include <stdint.h>

#include "stat.h"

#define STAT_SITES	8		/* call sites per record */

struct stat_site {
	uintptr_t ip;
	uint64_t count;
	uint64_t wait;
};

struct stat_rec {
	uint64_t key;			/* address << 3 | kind + 1; 0 free */
	uintptr_t first_ip;		/* the first contended call site */
	uint64_t contended, spun, slept, acquired, handoffs;
	uint64_t wait_min, wait_max, wait_total;
	uint64_t other_count, other_wait;	/* sites past STAT_SITES */
	struct stat_site sites[STAT_SITES];
};

#define STAT_LOAD(p)		__atomic_load_n((p), __ATOMIC_RELAXED)
#define STAT_STORE(p, v)	__atomic_store_n((p), (v), __ATOMIC_RELAXED)
#define STAT_ADD(p, v)		__atomic_fetch_add((p), (v), __ATOMIC_RELAXED)

/* *p += v: @own, a record only this thread writes; else atomic. */
static inline void stat_inc(uint64_t *p, uint64_t v, bool own)
{
	if (own)
		STAT_STORE(p, STAT_LOAD(p) + v);
	else
		STAT_ADD(p, v);
}

static inline uint64_t stat_key(const void *lock, enum stat_kind kind)
{
	return ((uint64_t)(uintptr_t)lock << 3) | (kind + 1u);
}

static inline uint64_t stat_hash(uint64_t key)
{
	return key * 0x9e3779b97f4a7c15ull;
}

/* stat.c: the shared table's record of @key, claimed if new. */
struct stat_rec *stat_shared(uint64_t key);
void stat_rec_site(struct stat_rec *r, uintptr_t ip, uint64_t count,
		   uint64_t wait, bool own);
void stat_rec_merge(struct stat_rec *dst, struct stat_rec *src);
void stat_rec_clear(struct stat_rec *r);

/*
 * stat_thread.c: this thread's record of @key (registered in the shared
 * table, with @ip as its first call site if it is new there; *@own set),
 * else the shared one when this thread's table is full (*@own clear);
 * NULL if both are full.
 */
struct stat_rec *stat_local(uint64_t key, uintptr_t ip, bool *own);
/* Under stat_threads_lock(): what kmutex_stat_print() and _reset() see. */
void stat_threads_lock(void);
void stat_threads_unlock(void);
typedef void stat_rec_fn(struct stat_rec *r, void *arg);
void stat_threads_each(uint64_t key, stat_rec_fn *fn, void *arg);
void stat_threads_reset(void);
int stat_threads_init(void);

#endif /* _KMUTEX_SRC_STAT_REC_H */
