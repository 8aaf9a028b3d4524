// SPDX-License-Identifier: MIT
/*
 * signal.c - knowing that a thread is in a signal handler.
 *
 * The program's sigaction() and signal() calls reach kmutex_sigaction()
 * through the --wrap wrappers of <kmutex/debug_signal.h> (the why is
 * there).  A handler the program installs is replaced by a trampoline
 * that counts lockdep_in_handler around it: a lock call then knows, for
 * one thread-local load, that it runs in a handler.
 *
 * A handler that leaves by siglongjmp() skips the decrement.  So when
 * the counter is set, lockdep_handler_signal() also checks that the
 * signal is still blocked (the kernel blocks it while its handler runs,
 * and siglongjmp() restores the mask); if it is not, the count was
 * stale and is dropped.  Handlers with SA_NODEFER are taken at their
 * word.
 */
#include "../api.h"

#include <errno.h>
#include <signal.h>
#include <string.h>

#include "debug.h"

typedef int (*real_sigaction_t)(int, const void *, void *);

__thread int lockdep_in_handler KMUTEX_TLS;
static __thread int handler_sig KMUTEX_TLS;

/* The program's handler for each signal, as it installed it. */
static struct {
	void *fn;			/* sa_handler or sa_sigaction */
	int flags;			/* its sa_flags */
} user[NSIG];
static pthread_mutex_t user_lock = PTHREAD_MUTEX_INITIALIZER;

static void trampoline(int sig, siginfo_t *si, void *uc)
{
	void *fn = __atomic_load_n(&user[sig].fn, __ATOMIC_ACQUIRE);
	int flags = __atomic_load_n(&user[sig].flags, __ATOMIC_RELAXED);
	int outer_sig = handler_sig;

	if (!fn)
		return;		/* raced with a reset to SIG_DFL/SIG_IGN */
	handler_sig = sig;
	lockdep_in_handler++;
	if (flags & SA_SIGINFO)
		((void (*)(int, siginfo_t *, void *))fn)(sig, si, uc);
	else
		((void (*)(int))fn)(sig);
	lockdep_in_handler--;
	handler_sig = outer_sig;
}

int lockdep_handler_signal(void)
{
	sigset_t cur;
	int sig = handler_sig;

	if (!lockdep_in_handler)
		return 0;
	if (sig > 0 && sig < NSIG &&
	    !(__atomic_load_n(&user[sig].flags, __ATOMIC_RELAXED) &
	      SA_NODEFER) &&
	    pthread_sigmask(SIG_BLOCK, NULL, &cur) == 0 &&
	    !sigismember(&cur, sig)) {
		lockdep_in_handler = 0;		/* left by siglongjmp() */
		handler_sig = 0;
		return 0;
	}
	return sig ? sig : -1;
}

static bool is_handler(void *fn)
{
	return fn != (void *)SIG_DFL && fn != (void *)SIG_IGN &&
	       fn != (void *)SIG_ERR;
}

/**
 * kmutex_sigaction - sigaction() for a program of the debugging build
 * @sig: the signal
 * @vact: the new action (struct sigaction *), or NULL
 * @vold: where to store the old one, or NULL
 * @real: the real sigaction()
 *
 * Installs the trampoline in place of the program's handler, and shows
 * the program its own handler as the old action.
 */
KMUTEX_API int kmutex_sigaction(int sig, const void *vact, void *vold,
				real_sigaction_t real)
{
	const struct sigaction *act = vact;
	struct sigaction copy, old;
	void *prev_fn;
	int prev_flags, ret;

	if (!real) {
		errno = ENOSYS;
		return -1;
	}
	if (sig <= 0 || sig >= NSIG)
		return real(sig, vact, vold);
	pthread_mutex_lock(&user_lock);
	prev_fn = user[sig].fn;
	prev_flags = user[sig].flags;
	if (act) {
		void *fn = act->sa_flags & SA_SIGINFO
				? (void *)act->sa_sigaction
				: (void *)act->sa_handler;

		copy = *act;
		if (is_handler(fn)) {
			__atomic_store_n(&user[sig].flags, act->sa_flags,
					 __ATOMIC_RELAXED);
			__atomic_store_n(&user[sig].fn, fn, __ATOMIC_RELEASE);
			copy.sa_sigaction = trampoline;
			copy.sa_flags |= SA_SIGINFO;
		}
		ret = real(sig, &copy, &old);
		if (ret == 0 && !is_handler(fn))
			__atomic_store_n(&user[sig].fn, NULL, __ATOMIC_RELEASE);
		if (ret != 0 && is_handler(fn)) {
			user[sig].fn = prev_fn;		/* undo */
			user[sig].flags = prev_flags;
		}
	} else {
		ret = real(sig, NULL, &old);
	}
	pthread_mutex_unlock(&user_lock);
	if (ret == 0 && vold) {
		if (old.sa_sigaction == trampoline) {
			old.sa_flags = prev_flags;
			if (prev_flags & SA_SIGINFO)
				old.sa_sigaction = (void (*)(int, siginfo_t *,
							     void *))prev_fn;
			else
				old.sa_handler = (void (*)(int))prev_fn;
		}
		memcpy(vold, &old, sizeof(old));
	}
	return ret;
}

/**
 * kmutex_signal - signal() for a program of the debugging build
 * @sig: the signal
 * @handler: the handler, SIG_DFL or SIG_IGN
 * @real: the real sigaction()
 *
 * Return: the previous handler, or SIG_ERR.  BSD semantics, as glibc's
 * signal(): SA_RESTART, the signal blocked while its handler runs.
 */
KMUTEX_API void (*kmutex_signal(int sig, void (*handler)(int),
				real_sigaction_t real))(int)
{
	struct sigaction sa, old;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = handler;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	if (sig > 0 && sig < NSIG)
		sigaddset(&sa.sa_mask, sig);
	if (kmutex_sigaction(sig, &sa, &old, real) != 0)
		return SIG_ERR;
	return old.sa_handler;
}
