/* SPDX-License-Identifier: MIT */
/*
 * kmutex/debug_free.h - the debugging build's hook on free(), which
 * reports memory freed while the calling thread holds a lock in it
 * ("held lock freed"; src/debug/free.c).
 *
 * kmutex-debug.pc links with -Wl,--wrap=free: the program's calls to
 * free() go to __wrap_free() below, which checks and calls the real
 * free() (__real_free).  Defined weak in the program's own objects, as
 * the signal wrappers of <kmutex/debug_signal.h> are, so the library
 * still exports only kmutex_ names.  Frees inside other shared
 * libraries (not relinked) and by realloc() are not seen.
 */
#ifndef _KMUTEX_DEBUG_FREE_H
#define _KMUTEX_DEBUG_FREE_H

#ifdef KMUTEX_DEBUG

/* The real free(), as --wrap names it; absent without --wrap. */
extern void __real_free(void *ptr) __attribute__((__weak__));

void kmutex_debug_free(void *ptr, const void *ip);

#ifndef __KMUTEX_BUILDING_LIBRARY
void __wrap_free(void *ptr);

__attribute__((__weak__))
void __wrap_free(void *ptr)
{
	kmutex_debug_free(ptr, __builtin_return_address(0));
	__real_free(ptr);
}
#endif /* !__KMUTEX_BUILDING_LIBRARY */

#endif /* KMUTEX_DEBUG */

#endif /* _KMUTEX_DEBUG_FREE_H */
