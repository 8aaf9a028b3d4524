/* SPDX-License-Identifier: MIT */
/*
 * kmutex/compiler.h - small helpers shared by kmutex's public headers.
 *
 * Everything here is prefixed (__kmutex_, KMUTEX_) so that the public
 * headers can sit beside a project's own kernel shims (its own
 * <linux/compiler.h>, likely(), atomic_t ...) without clashing.
 */
#ifndef _KMUTEX_COMPILER_H
#define _KMUTEX_COMPILER_H

#include <stdbool.h>
#include <kmutex/capability.h>

/* C++: every kmutex declaration has C linkage (the library is C). */
#ifdef __cplusplus
#define __KMUTEX_BEGIN_DECLS	extern "C" {
#define __KMUTEX_END_DECLS	}
#else
#define __KMUTEX_BEGIN_DECLS
#define __KMUTEX_END_DECLS
#endif

/* A null pointer constant that both C and C++ convert to any pointer. */
#ifdef __cplusplus
#define __KMUTEX_NULL		nullptr
#else
#define __KMUTEX_NULL		((void *)0)
#endif

/*
 * The inline API (mutex_lock(), down_read(), ...) is inlined even at -O0,
 * so that the slow paths' return address is the program's call site,
 * which lock statistics report (docs/lock_stat.md), in debug builds too.
 */
#define __kmutex_inline		inline __attribute__((__always_inline__))

#define __kmutex_likely(x)	__builtin_expect(!!(x), 1)
#define __kmutex_unlikely(x)	__builtin_expect(!!(x), 0)

#define __KMUTEX_STR2(x)	#x
#define __KMUTEX_STR(x)		__KMUTEX_STR2(x)
#define __KMUTEX_PASTE2(a, b)	a##b
#define __KMUTEX_PASTE(a, b)	__KMUTEX_PASTE2(a, b)
#define __KMUTEX_UNIQUE(p)	__KMUTEX_PASTE(__kmutex_##p##_, __COUNTER__)

/* "file.c:123", a string literal naming the caller's line. */
#define __KMUTEX_SITE		__FILE__ ":" __KMUTEX_STR(__LINE__)

/* "mutex_lock(&m) at file.c:12": what a report says the caller did. */
#ifndef __KMUTEX_CALL
#define __KMUTEX_CALL(fn, lock)	#fn "(" #lock ") at " __KMUTEX_SITE
#endif

/*
 * One API for both builds (issue 14).  Each entry point is one inline
 * function, its debugging-build call behind #ifdef KMUTEX_DEBUG, as the
 * kernel keeps CONFIG_DEBUG_LOCK_ALLOC's.  The debugging build's reports
 * name the caller's expression and line, which only a macro can see: so
 * there the function takes one more parameter, __KMUTEX_CALLER (what the
 * caller wrote, __KMUTEX_CALL), and a macro of the function's own name,
 * defined after it, passes it: __KMUTEX_CALLED() calls the function of
 * the same name, as a macro is not expanded again inside itself.  The
 * function is always inlined, so the debug library's return address is
 * still the caller.  In production nothing of this exists: the API is
 * the inline functions alone.
 */
#ifdef KMUTEX_DEBUG
#define __KMUTEX_CALLER			, const char *__kmutex_call
#define __KMUTEX_CALLED(fn, lock)	fn((lock), __KMUTEX_CALL(fn, lock))
#define __KMUTEX_CALLED2(fn, lock, a)	fn((lock), (a), __KMUTEX_CALL(fn, lock))
/* A function's own call, passed on to another entry point it calls. */
#define __KMUTEX_CALLER_ARG		, __kmutex_call
/* The call as an extra argument, where the call is not of fn itself. */
#define __KMUTEX_CALLARG(fn, lock)	, __KMUTEX_CALL(fn, lock)
/*
 * An initialiser's: the variable's name as written (#lock in the API's
 * own macro, so that it is not macro-expanded first) and the line; with
 * a class key, a static variable made in the caller's code: one class
 * per init line, as in the kernel (a key made in a library function
 * would put every lock in one class).
 */
#define __KMUTEX_NAMER			, const char *__kmutex_name,	\
					const char *__kmutex_site
#define __KMUTEX_CLASS_NAMER		, const char *__kmutex_name,	\
					const void *__kmutex_key,	\
					const char *__kmutex_site
#define __KMUTEX_CLASSED(fn, lock, name)				\
	do {								\
		static char __kmutex_key;	/* the class: its address */ \
									\
		fn((lock), (name), &__kmutex_key, __KMUTEX_SITE);	\
	} while (0)
#else
#define __KMUTEX_CALLER
#define __KMUTEX_CALLER_ARG
#define __KMUTEX_CALLARG(fn, lock)
#define __KMUTEX_NAMER
#define __KMUTEX_CLASS_NAMER
#endif

/*
 * The library is built twice, production and debugging, and their
 * objects must not be mixed (the two struct layouts differ).  Each
 * library defines one marker symbol; every translation unit that
 * includes a kmutex header references the marker of the build it was
 * compiled for, so a mix fails at link time with an undefined symbol
 * that names the problem.
 */
__KMUTEX_BEGIN_DECLS
#ifdef KMUTEX_DEBUG
extern const int kmutex_abi_debug_build_v1;
#define __KMUTEX_ABI_MARKER	kmutex_abi_debug_build_v1
#else
extern const int kmutex_abi_production_build_v1;
#define __KMUTEX_ABI_MARKER	kmutex_abi_production_build_v1
#endif

#ifndef __KMUTEX_BUILDING_LIBRARY
static const int *const __kmutex_abi_ref __attribute__((__used__, __unused__)) =
	&__KMUTEX_ABI_MARKER;
#endif
__KMUTEX_END_DECLS

#endif /* _KMUTEX_COMPILER_H */
