/* SPDX-License-Identifier: MIT */
/*
 * kmutex/debug_free.h - the debugging build's hook on free(), which
 * reports memory freed while the calling thread holds a lock in it
 * ("held lock freed"; src/debug/free.c).
 *
 * kmutex-debug.pc links with -Wl,--wrap=free: the program's calls to
 * free() go to __wrap_free(), which checks and calls the real free().
 * The debugging library (static and shared) defines __wrap_free, as it
 * does the signal wrappers of <kmutex/debug_signal.h> (src/debug/wrap.c),
 * so a program whose objects include no kmutex header links too.  Frees
 * inside other shared libraries (not relinked) and by realloc() are not
 * seen.
 */
#ifndef _KMUTEX_DEBUG_FREE_H
#define _KMUTEX_DEBUG_FREE_H

#include <kmutex/compiler.h>

__KMUTEX_BEGIN_DECLS

#ifdef KMUTEX_DEBUG

void kmutex_debug_free(void *ptr, const void *ip);

#endif /* KMUTEX_DEBUG */

__KMUTEX_END_DECLS

#endif /* _KMUTEX_DEBUG_FREE_H */
