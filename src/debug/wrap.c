// SPDX-License-Identifier: MIT
/*
 * wrap.c - the functions that kmutex-debug's link flags name:
 * -Wl,--wrap=free,--wrap=signal,--wrap=sigaction send the program's
 * calls to free(), signal() and sigaction() to __wrap_free(),
 * __wrap_signal() and __wrap_sigaction() (the why: <kmutex/debug_signal.h>).
 *
 * They are here, in the library (static and shared), and not in the
 * headers, so that every object of the program may go without kmutex's
 * headers (a test helper that takes no lock) and it still links.  The
 * only names the library exports without the kmutex_ prefix.
 *
 * The real function: under --wrap the linker gives the program's
 * __real_free the real free().  In the static library, linked into the
 * program, that works too (and a plain free() here would be wrapped
 * into a recursion).  The shared library is not linked with --wrap:
 * its weak __real_free stays NULL, and its own free() is the real one.
 */
#include "../api.h"

#include <signal.h>
#include <stdlib.h>

#include "debug.h"

typedef int (*real_sigaction_t)(int, const void *, void *);

extern void __real_free(void *ptr) __attribute__((__weak__));
extern int __real_sigaction(int sig, const void *act, void *oldact)
	__attribute__((__weak__));

KMUTEX_API void __wrap_free(void *ptr);
KMUTEX_API int __wrap_sigaction(int sig, const void *act, void *oldact);
KMUTEX_API void (*__wrap_signal(int sig, void (*handler)(int)))(int);

/* libc's sigaction(), whichever way this library was linked. */
static real_sigaction_t real_sigaction(void)
{
	if (__real_sigaction)
		return __real_sigaction;
	return (real_sigaction_t)sigaction;
}

KMUTEX_API void __wrap_free(void *ptr)
{
	kmutex_debug_free(ptr, __builtin_return_address(0));
	if (__real_free)
		__real_free(ptr);
	else
		free(ptr);
}

KMUTEX_API int __wrap_sigaction(int sig, const void *act, void *oldact)
{
	return kmutex_sigaction(sig, act, oldact, real_sigaction());
}

KMUTEX_API void (*__wrap_signal(int sig, void (*handler)(int)))(int)
{
	return kmutex_signal(sig, handler, real_sigaction());
}
