/* SPDX-License-Identifier: MIT */
/*
 * kmutex/atomic_fast.h - the read-modify-writes of the inline fast
 * paths (<linux/mutex.h>, <linux/rwsem.h>, <linux/semaphore.h>,
 * <linux/ww_mutex.h> and their debugging-build twins), inline on every
 * CPU, without a call.
 *
 * Why not the __atomic builtins everywhere: gcc (10 and later, Debian's
 * default) and clang build for aarch64 with -moutline-atomics, which
 * turns each __atomic read-modify-write into a call to libgcc's
 * __aarch64_cas4_acq and the like (a run-time choice between LSE's casa
 * and an LL/SC loop).  That call lands in every program's lock and
 * unlock, with the registers the caller saves around it.  A header
 * cannot turn the option off for the caller (a target attribute on an
 * inline function is dropped when it is inlined), so on aarch64 without
 * LSE (__ARM_FEATURE_ATOMICS: -march=armv8.1-a or later) the operations
 * below are the LL/SC loops gcc emits with -mno-outline-atomics, written
 * out.  Everywhere else, and under ThreadSanitizer (which sees only the
 * builtins), they are the builtins: on x86 one locked instruction, with
 * LSE one casa/casl/ldadda/ldaddl, on 32-bit ARM gcc's own inline
 * ldrex/strex loop with dmb.  docs/portability.md shows the code per CPU.
 *
 * The orders: every CAS here is strong, its success order the one in
 * its name, its failure order RELAXED (a failed attempt takes nothing
 * and publishes nothing; the callers that retry reread through the CAS
 * itself).  What each one pairs with is said at its caller.
 *
 * No clrex on the LL/SC failure path (the kernel's arm64 LL/SC cmpxchg,
 * arch/arm64/include/asm/atomic_ll_sc.h, has none either): an exclusive
 * monitor left open after a failed compare only matters to a
 * store-exclusive that is not preceded by its own load-exclusive, and
 * every stxr/stlxr here is, and each load-exclusive re-arms the monitor
 * for its own address.
 *
 * Included by the headers above; never include it directly.
 */
#ifndef _KMUTEX_ATOMIC_FAST_H
#define _KMUTEX_ATOMIC_FAST_H

#include <stdbool.h>
#include <kmutex/compiler.h>

#if defined(__aarch64__) && !defined(__ARM_FEATURE_ATOMICS) && \
	!defined(__SANITIZE_THREAD__)
#if defined(__has_feature)
#if !__has_feature(thread_sanitizer)
#define __KMUTEX_LLSC 1
#endif
#else
#define __KMUTEX_LLSC 1
#endif
#endif

__KMUTEX_BEGIN_DECLS

#ifdef __KMUTEX_LLSC
/*
 * One strong CAS, as an LL/SC loop: LD loads exclusive (ldaxr: acquire,
 * ldxr: relaxed), ST stores exclusive (stxr: relaxed, stlxr: release).
 * On a mismatch it leaves at 2: without storing.  "rZ": a zero @nv is
 * wzr, no register.  Plain functions, not statement expressions, so
 * that a -pedantic program builds.
 */
#define __KMUTEX_LLSC_CAS(LD, ST)					\
	"1:	" LD "	%w[cur], %[mem]\n"				\
	"	cmp	%w[cur], %w[exp]\n"				\
	"	b.ne	2f\n"						\
	"	" ST "	%w[fail], %w[val], %[mem]\n"			\
	"	cbnz	%w[fail], 1b\n"					\
	"2:"								\
	: [cur] "=&r" (cur), [fail] "=&r" (fail), [mem] "+Q" (*p)	\
	: [exp] "r" (*old), [val] "rZ" (nv)				\
	: "cc", "memory"

static inline bool __kmutex_llsc_cas(int *p, int *old, int nv,
				     bool acquire)
{
	int cur;
	unsigned int fail;

	if (acquire)
		__asm__ __volatile__(__KMUTEX_LLSC_CAS("ldaxr", "stxr"));
	else
		__asm__ __volatile__(__KMUTEX_LLSC_CAS("ldxr", "stlxr"));
	if (cur == *old)
		return true;
	*old = cur;
	return false;
}

/* One fetch-and-add returning the new value, as an LL/SC loop. */
#define __KMUTEX_LLSC_ADD(LD, ST)					\
	"1:	" LD "	%w[sum], %[mem]\n"				\
	"	add	%w[sum], %w[sum], %w[add]\n"			\
	"	" ST "	%w[fail], %w[sum], %[mem]\n"			\
	"	cbnz	%w[fail], 1b\n"					\
	: [sum] "=&r" (sum), [fail] "=&r" (fail), [mem] "+Q" (*p)	\
	: [add] "r" (v)							\
	: "memory"

static inline int __kmutex_llsc_add(int *p, int v, bool acquire)
{
	int sum;
	unsigned int fail;

	if (acquire)
		__asm__ __volatile__(__KMUTEX_LLSC_ADD("ldaxr", "stxr"));
	else
		__asm__ __volatile__(__KMUTEX_LLSC_ADD("ldxr", "stlxr"));
	return sum;
}
#endif

/* CAS *@p from *@old to @nv, ACQUIRE on success; else *@old = *@p. */
static inline bool __kmutex_cas_acquire(int *p, int *old, int nv)
{
#ifdef __KMUTEX_LLSC
	return __kmutex_llsc_cas(p, old, nv, true);
#else
	return __atomic_compare_exchange_n(p, old, nv, false,
					   __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
#endif
}

/* CAS *@p from *@old to @nv, RELEASE on success; else *@old = *@p. */
static inline bool __kmutex_cas_release(int *p, int *old, int nv)
{
#ifdef __KMUTEX_LLSC
	return __kmutex_llsc_cas(p, old, nv, false);
#else
	return __atomic_compare_exchange_n(p, old, nv, false,
					   __ATOMIC_RELEASE, __ATOMIC_RELAXED);
#endif
}

/* *@p += @v, ACQUIRE; returns the new value. */
static inline int __kmutex_add_acquire(int *p, int v)
{
#ifdef __KMUTEX_LLSC
	return __kmutex_llsc_add(p, v, true);
#else
	return __atomic_add_fetch(p, v, __ATOMIC_ACQUIRE);
#endif
}

/* *@p += @v, RELEASE; returns the new value. */
static inline int __kmutex_add_release(int *p, int v)
{
#ifdef __KMUTEX_LLSC
	return __kmutex_llsc_add(p, v, false);
#else
	return __atomic_add_fetch(p, v, __ATOMIC_RELEASE);
#endif
}

__KMUTEX_END_DECLS

#endif /* _KMUTEX_ATOMIC_FAST_H */
