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
 * __wrap_sigaction() and __wrap_signal(), defined below, and gives them
 * the real functions as __real_sigaction().  The library installs a
 * trampoline that counts "in a handler" in thread-local storage around
 * the program's handler; a lock call reads that counter.
 *
 * Why this way: --wrap works alike for static and shared linking and
 * needs no LD_PRELOAD; the wrappers are defined here, weak, in the
 * program's own objects, so the library still exports only kmutex_
 * names (one copy is kept however many objects include this).  Handlers
 * installed by other shared libraries (which are not relinked) and by
 * sigset()/sysv_signal() are not seen.
 */
#ifndef _KMUTEX_DEBUG_SIGNAL_H
#define _KMUTEX_DEBUG_SIGNAL_H

#ifdef KMUTEX_DEBUG

/* The real sigaction(), as --wrap names it; absent without --wrap. */
extern int __real_sigaction(int sig, const void *act, void *oldact)
	__attribute__((__weak__));

int kmutex_sigaction(int sig, const void *act, void *oldact,
		     int (*real)(int, const void *, void *));
void (*kmutex_signal(int sig, void (*handler)(int),
		     int (*real)(int, const void *, void *)))(int);

#ifndef __KMUTEX_BUILDING_LIBRARY
int __wrap_sigaction(int sig, const void *act, void *oldact);
void (*__wrap_signal(int sig, void (*handler)(int)))(int);

__attribute__((__weak__))
int __wrap_sigaction(int sig, const void *act, void *oldact)
{
	return kmutex_sigaction(sig, act, oldact, __real_sigaction);
}

__attribute__((__weak__))
void (*__wrap_signal(int sig, void (*handler)(int)))(int)
{
	return kmutex_signal(sig, handler, __real_sigaction);
}
#endif /* !__KMUTEX_BUILDING_LIBRARY */

#endif /* KMUTEX_DEBUG */

#endif /* _KMUTEX_DEBUG_SIGNAL_H */
