/* SPDX-License-Identifier: MIT */
/*
 * kmutex/debug_signal.h - how the debugging build knows that a thread is
 * running a signal handler (the userspace form of interrupt context).
 *
 * Taking a sleeping lock in a signal handler deadlocks if the signal
 * interrupted a holder of it, so the debugging build reports it.  To
 * know cheaply that a thread is in a handler, it wraps the handlers the
 * program installs: kmutex-debug.pc links with
 *
 *	-Wl,--wrap=sigaction -Wl,--wrap=signal
 *
 * which sends the program's calls to sigaction() and signal() to
 * __wrap_sigaction() and __wrap_signal(), which the debugging library
 * defines (src/debug/wrap.c), and gives them the real functions as
 * __real_sigaction().  The library installs a
 * trampoline that counts "in a handler" in thread-local storage around
 * the program's handler; a lock call reads that counter.
 *
 * Why this way: --wrap works alike for static and shared linking and
 * needs no LD_PRELOAD.  The wrappers are in the library, not in this
 * header, so that a program whose objects include no kmutex header (a
 * test helper linked with kmutex-debug's flags) links as well.  Handlers
 * installed by other shared libraries (which are not relinked) and by
 * sigset()/sysv_signal() are not seen.
 */
#ifndef _KMUTEX_DEBUG_SIGNAL_H
#define _KMUTEX_DEBUG_SIGNAL_H

#include <kmutex/compiler.h>

__KMUTEX_BEGIN_DECLS

#ifdef KMUTEX_DEBUG

int kmutex_sigaction(int sig, const void *act, void *oldact,
		     int (*real)(int, const void *, void *));
void (*kmutex_signal(int sig, void (*handler)(int),
		     int (*real)(int, const void *, void *)))(int);

#endif /* KMUTEX_DEBUG */

__KMUTEX_END_DECLS

#endif /* _KMUTEX_DEBUG_SIGNAL_H */
