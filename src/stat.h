/* SPDX-License-Identifier: MIT */
/*
 * stat.h - lock statistics (KMUTEX_STAT, kmutex_stat(3)): a consumer of
 * the slow paths' hooks (src/hooks.h).  The machinery is in stat.c (the
 * side table, the output) and stat_names.c (addresses to names).
 *
 * Nothing here touches the inline fast paths or the lock structs: a
 * slow path's exported entry point is wrapped in HOOK_WAIT(), which with
 * statistics off costs one predictable branch on stat_on, read once.
 *
 * A wait is counted from the slow path's entry to its return: the time
 * the thread could not go on because the lock was taken.  It "slept" if
 * waiter_sleep() got as far as futex_wait() (hook_sleep()), else,
 * for the spinning kinds, it was "won by spinning".
 */
#ifndef _KMUTEX_SRC_STAT_H
#define _KMUTEX_SRC_STAT_H

#include <stdint.h>
#include <stdio.h>

#include <kmutex/compiler.h>

#include "cpu.h"
#include "tls.h"

enum stat_kind {
	STAT_MUTEX,
	STAT_RWSEM_READ,
	STAT_RWSEM_WRITE,
	STAT_WW_MUTEX,
	STAT_SPINNING_KINDS,		/* above: a wait without sleep counts */
	STAT_SEMAPHORE = STAT_SPINNING_KINDS,
	STAT_COMPLETION,
	STAT_KINDS
};

/* Set once at start-up (KMUTEX_STAT) or by a build with KMUTEX_STAT_FORCE. */
extern int stat_on;
/* futex_wait()s of this thread while statistics are on. */
extern __thread KMUTEX_TLS
	unsigned int stat_sleeps;
/* policy_ticks() when this thread's slow path acquired, if read; or 0. */
extern __thread KMUTEX_TLS
	uint64_t stat_took_ticks;

/*
 * The debugging build's entry points (src/debug/) call the slow paths
 * from inside the library: they name the program's call site first.
 */
struct stat_caller {
	const void *lock;
	const void *ip;
	void *cls;		/* its lock class (debugging build), or NULL */
};
extern __thread KMUTEX_TLS
	struct stat_caller stat_caller;

struct stat_wait {
	uint64_t t0;		/* now_ns(); 0: statistics off at entry */
	uint64_t t0_ticks;	/* policy_ticks() then */
	const void *ip;		/* the public call's caller */
	void *cls;		/* its lock class (debugging build), or NULL */
	unsigned int sleeps;	/* stat_sleeps at entry */
};

void stat_begin(struct stat_wait *sw, const void *lock, const void *ip);
void stat_end(struct stat_wait *sw, const void *lock, enum stat_kind kind,
	      long ret);
void stat_handoff(const void *lock, enum stat_kind kind);

/*
 * lock_stat as a consumer of the slow paths' hooks (src/hooks.h), which
 * are what the lock code calls.  Each costs one predictable branch on
 * stat_on with statistics off.
 */

/* hook_caller(): the program's call site for the next wait on @l. */
static __kmutex_inline void stat_hook_caller(const void *l, const void *where,
					     void *cls)
{
	if (__kmutex_unlikely(__atomic_load_n(&stat_on, __ATOMIC_RELAXED))) {
		stat_caller.lock = l;
		stat_caller.ip = where;
		stat_caller.cls = cls;
	}
}

/* hook_contended(): a wait starts; @ip is the public call's caller. */
static __kmutex_inline void stat_hook_contended(struct stat_wait *sw,
						const void *lock,
						const void *ip)
{
	sw->t0 = 0;
	if (__kmutex_unlikely(__atomic_load_n(&stat_on, __ATOMIC_RELAXED)))
		stat_begin(sw, lock, ip);
}

/* hook_acquired(): the wait ends with the slow path's value @ret. */
static __kmutex_inline void stat_hook_acquired(struct stat_wait *sw,
					       const void *lock,
					       enum stat_kind kind, long ret)
{
	if (__kmutex_unlikely(sw->t0 != 0))
		stat_end(sw, lock, kind, ret);
}

/* hook_handoff(): a lock handed to a waiter by its releaser. */
static __kmutex_inline void stat_hook_handoff(const void *lock,
					      enum stat_kind kind)
{
	if (__kmutex_unlikely(__atomic_load_n(&stat_on, __ATOMIC_RELAXED)))
		stat_handoff(lock, kind);
}

/*
 * hook_clock(): the wait's end, in policy_ticks() (src/cpu.h: the TSC on
 * x86, ~10 ns here against clock_gettime()'s ~25).  The mutex's spinner
 * reads it before its attempt, not in the hold: a read there would
 * lengthen the hold, which the mutex's policy measures (src/mutex.c);
 * but that is between a release and the acquisition, where every
 * nanosecond is the lock's too.  0 with statistics off.
 */
static __kmutex_inline uint64_t stat_hook_clock(void)
{
	if (__kmutex_unlikely(__atomic_load_n(&stat_on, __ATOMIC_RELAXED)))
		return policy_ticks();
	return 0;
}

/* hook_took(): the slow path acquired at @t, hook_clock()'s read. */
static __kmutex_inline void stat_hook_took(uint64_t t)
{
	stat_took_ticks = t;
}

/* hook_sleep(): in waiter_sleep(), before each futex_wait(). */
static __kmutex_inline void stat_hook_sleep(void)
{
	if (__kmutex_unlikely(__atomic_load_n(&stat_on, __ATOMIC_RELAXED)))
		stat_sleeps++;
}

enum stat_format { STAT_TEXT, STAT_CSV, STAT_JSON };

/* *p = min(*p, v) (0: none yet) and max, lock-free; relaxed: counters. */
static inline void stat_min(uint64_t *p, uint64_t v)
{
	uint64_t old = __atomic_load_n(p, __ATOMIC_RELAXED);

	while ((old == 0 || v < old) &&
	       !__atomic_compare_exchange_n(p, &old, v, true,
					    __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		;
}

static inline void stat_max(uint64_t *p, uint64_t v)
{
	uint64_t old = __atomic_load_n(p, __ATOMIC_RELAXED);

	while (v > old &&
	       !__atomic_compare_exchange_n(p, &old, v, true,
					    __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		;
}

#ifdef KMUTEX_DEBUG
/*
 * src/debug/stat_class.c: the debugging build's per-class statistics
 * (every acquisition, hold times, acquisition sites).  @cls is a
 * struct kmutex_lock_class.
 */
void class_stat_contended(void *cls, enum stat_kind kind, uint64_t wait);
void class_stat_print(FILE *f, enum stat_format fmt);
void class_stat_reset(void);
#endif

/* stat_names.c: @addr as "symbol+0xoff" or "module+0xoff" into @buf. */
struct stat_syms;
struct stat_syms *stat_syms_open(void);
void stat_syms_close(struct stat_syms *s);
const char *stat_symbolize(struct stat_syms *s, const void *addr,
			   char *buf, unsigned long len);

#endif /* _KMUTEX_SRC_STAT_H */
