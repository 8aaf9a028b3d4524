/* SPDX-License-Identifier: MIT */
/*
 * kmutex/capability.h - lock annotations for clang's thread-safety
 * analysis (clang -Wthread-safety).
 *
 * The kernel annotates its locking functions (__acquires, __releases,
 * __must_hold ...) and, since its "context analysis" (Linux 6.19), maps
 * them to clang's capability attributes so that clang proves at compile
 * time that guarded data is only touched under its lock.  kmutex does
 * the same with the same names: struct mutex and struct rw_semaphore
 * are capabilities, and every lock, trylock and unlock says what it
 * does to them.  See __guarded_by(3).
 *
 * Two sets of names:
 *
 *   __kmutex_*  what kmutex's own headers use: always these attributes
 *               (nothing on gcc), whatever the program defines.
 *   kernel's    __acquires, __guarded_by ... for the program's own
 *               annotations, each defined only if not defined yet: a
 *               project with its own definitions (sparse's __acquires
 *               of older kernels, an empty stub) keeps them when they
 *               come first.  A project that defines them after
 *               including kmutex defines KMUTEX_NO_CONTEXT_NAMES first.
 *
 * gcc has none of these attributes: everything is empty there.
 *
 * Where the include path has a project's own <linux/compiler_types.h>
 * or <linux/compiler.h> (no system header has those names), they are
 * included first, as the kernel's headers see them, so that the
 * project's definitions of these names come first and are kept.
 */
#ifndef _KMUTEX_CAPABILITY_H
#define _KMUTEX_CAPABILITY_H

#if !defined(KMUTEX_NO_KERNEL_INCLUDES) && defined(__has_include)
#if __has_include(<linux/compiler_types.h>)
#include <linux/compiler_types.h>
#endif
#if __has_include(<linux/compiler.h>)
#include <linux/compiler.h>
#endif
#endif

#if defined(__has_attribute)
#if __has_attribute(__acquire_capability__) && \
	__has_attribute(__try_acquire_capability__) && \
	__has_attribute(__overloadable__)
#define __KMUTEX_CAPABILITY 1
#endif
#endif

#ifdef __KMUTEX_CAPABILITY
#define __kmutex_attr(a)	__attribute__((a))
#else
#define __kmutex_attr(a)
#endif

/* The struct type is a lock ("mutex" in clang's messages). */
#define __kmutex_capability(name)	__kmutex_attr(__capability__(name))

#define __kmutex_acquires(...) \
	__kmutex_attr(__acquire_capability__(__VA_ARGS__))
#define __kmutex_acquires_shared(...) \
	__kmutex_attr(__acquire_shared_capability__(__VA_ARGS__))
#define __kmutex_releases(...) \
	__kmutex_attr(__release_capability__(__VA_ARGS__))
#define __kmutex_releases_shared(...) \
	__kmutex_attr(__release_shared_capability__(__VA_ARGS__))
/* Held when the function returned @ret: 1 for trylocks, 0 for the rest. */
#define __kmutex_cond_acquires(ret, ...) \
	__kmutex_attr(__try_acquire_capability__(ret, __VA_ARGS__))
#define __kmutex_cond_acquires_shared(ret, ...) \
	__kmutex_attr(__try_acquire_shared_capability__(ret, __VA_ARGS__))
#define __kmutex_must_hold(...) \
	__kmutex_attr(__requires_capability__(__VA_ARGS__))
#define __kmutex_must_hold_shared(...) \
	__kmutex_attr(__requires_shared_capability__(__VA_ARGS__))
#define __kmutex_must_not_hold(...) \
	__kmutex_attr(__locks_excluded__(__VA_ARGS__))
/* From the call on, the caller holds it (lockdep_assert_held, guards). */
#define __kmutex_asserts(...) \
	__kmutex_attr(__assert_capability__(__VA_ARGS__))
#define __kmutex_asserts_shared(...) \
	__kmutex_attr(__assert_shared_capability__(__VA_ARGS__))
#define __kmutex_guarded_by(...) __kmutex_attr(__guarded_by__(__VA_ARGS__))
#define __kmutex_pt_guarded_by(...) \
	__kmutex_attr(__pt_guarded_by__(__VA_ARGS__))
/* The lock implementation itself, which the analysis cannot follow. */
#define __kmutex_no_analysis	__kmutex_attr(__no_thread_safety_analysis__)

/*
 * clang's thread-safety analysis does not follow the cleanup function
 * that releases a guard's lock at scope end back to the lock (clang 14
 * ignores it; the kernel's context analysis needs a newer clang that
 * can).  So the guard's constructor and destructor are not analysed
 * (they lock and unlock on the analysis' blind side) and the
 * constructor instead asserts the lock: the lock headers declare it
 * with __KMUTEX_GUARD_ASSERTS before their DEFINE_GUARD().  Here, not
 * in <linux/cleanup.h>, because a project may bring its own cleanup.h
 * (a copy of the kernel's, as bcachefs-tools does), which then wins on
 * the include path; its DEFINE_GUARD() defines the same constructor.
 */
#define __KMUTEX_GUARD_ASSERTS(_name, _type, _asserts)			\
	static inline _type class_##_name##_constructor(_type _T)	\
		_asserts(_T) __kmutex_no_analysis;			\
	static inline void class_##_name##_destructor(_type *__kmutex_p) \
		__kmutex_no_analysis;

/*
 * __KMUTEX_CAPABILITY_HELPERS(type, asserts): after a lock type's
 * definition, __kmutex_assert_held(p) for it: tells the analysis, by
 * @asserts (__kmutex_asserts or __kmutex_asserts_shared), that the
 * caller holds *p, and gives p back, so that a macro uses its argument
 * once (lockdep_assert_held).  clang's overloadable C functions make one
 * name serve every lock type, as the kernel's context analysis does; gcc
 * gets the bare pointer.
 */
#ifdef __KMUTEX_CAPABILITY
#define __KMUTEX_CAPABILITY_HELPERS(type, asserts)			\
	static inline __kmutex_attr(__overloadable__) type *		\
	__kmutex_assert_held(type *p) asserts(p) __kmutex_no_analysis;	\
	static inline __kmutex_attr(__overloadable__) type *		\
	__kmutex_assert_held(type *p) { return p; }

/* Anything else lockdep_assert_held() is given: no claim, as before. */
static inline __kmutex_attr(__overloadable__) const void *
__kmutex_assert_held(const void *p)
{
	return p;
}
#else
#define __KMUTEX_CAPABILITY_HELPERS(type, asserts)
#define __kmutex_assert_held(p)		(p)
#endif

#ifndef KMUTEX_NO_CONTEXT_NAMES
/* The kernel's names, for the program's own annotations: __guarded_by(3). */
#ifndef __acquires
/**
 * __acquires - the function returns with the lock(s) held
 * @...: the lock(s), e.g. &dev->lock
 */
#define __acquires(...)			__kmutex_acquires(__VA_ARGS__)
#endif
#ifndef __acquires_shared
/**
 * __acquires_shared - the function returns with a read lock held
 * @...: the rw_semaphore(s)
 */
#define __acquires_shared(...)		__kmutex_acquires_shared(__VA_ARGS__)
#endif
#ifndef __releases
/**
 * __releases - the function is called with the lock(s) and releases them
 * @...: the lock(s)
 */
#define __releases(...)			__kmutex_releases(__VA_ARGS__)
#endif
#ifndef __releases_shared
/**
 * __releases_shared - the function releases a read lock its caller held
 * @...: the rw_semaphore(s)
 */
#define __releases_shared(...)		__kmutex_releases_shared(__VA_ARGS__)
#endif
#ifndef __cond_acquires
/**
 * __cond_acquires - the function holds the lock when it returns @ret
 * @ret: the return value that means "taken": 1 for trylocks, 0 for
 *	calls that return 0 or -EINTR
 * @x: the lock
 */
#define __cond_acquires(ret, x)		__kmutex_cond_acquires(ret, x)
#endif
#ifndef __cond_acquires_shared
/**
 * __cond_acquires_shared - a read lock is held when it returns @ret
 * @ret: the return value that means "taken"
 * @x: the rw_semaphore
 */
#define __cond_acquires_shared(ret, x)	__kmutex_cond_acquires_shared(ret, x)
#endif
#ifndef __must_hold
/**
 * __must_hold - callers must hold the lock(s)
 * @...: the lock(s)
 */
#define __must_hold(...)		__kmutex_must_hold(__VA_ARGS__)
#endif
#ifndef __must_hold_shared
/**
 * __must_hold_shared - callers must hold the lock(s), a read lock will do
 * @...: the lock(s)
 */
#define __must_hold_shared(...)		__kmutex_must_hold_shared(__VA_ARGS__)
#endif
#ifndef __must_not_hold
/**
 * __must_not_hold - callers must not hold the lock(s)
 * @...: the lock(s)
 */
#define __must_not_hold(...)		__kmutex_must_not_hold(__VA_ARGS__)
#endif
#ifndef __guarded_by
/**
 * __guarded_by - the variable is only used with the lock held
 * @...: the lock; reads need it held shared, writes exclusively
 */
#define __guarded_by(...)		__kmutex_guarded_by(__VA_ARGS__)
#endif
#ifndef __pt_guarded_by
/**
 * __pt_guarded_by - what the pointer points to is only used with the lock
 * @...: the lock
 */
#define __pt_guarded_by(...)		__kmutex_pt_guarded_by(__VA_ARGS__)
#endif
#ifndef __no_context_analysis
/**
 * __no_context_analysis - do not check this function's body
 */
#define __no_context_analysis		__kmutex_no_analysis
#endif
#endif /* !KMUTEX_NO_CONTEXT_NAMES */

#endif /* _KMUTEX_CAPABILITY_H */
