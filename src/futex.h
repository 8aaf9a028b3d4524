/* SPDX-License-Identifier: MIT */
/*
 * futex.h - the futex(2) calls kmutex sleeps and wakes with.
 *
 * All waits are FUTEX_PRIVATE: kmutex locks live in one process.
 */
#ifndef _KMUTEX_SRC_FUTEX_H
#define _KMUTEX_SRC_FUTEX_H

#include <errno.h>
#include <limits.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "futex_uapi.h"

static inline long __futex(int *uaddr, int op, int val,
			   const struct timespec *ts, int val3)
{
	return syscall(SYS_futex, uaddr, op | FUTEX_PRIVATE_FLAG, val, ts,
		       NULL, val3);
}

/* Sleep while *uaddr == val; signals and spurious wake-ups just return. */
static inline void futex_wait(int *uaddr, int val)
{
	__futex(uaddr, FUTEX_WAIT, val, NULL, 0);
}

/*
 * Sleep while *uaddr == val, until the absolute CLOCK_MONOTONIC time
 * @deadline (NULL: for ever).  Return 0 (woken, or the value changed),
 * -EINTR (a signal handler ran) or -ETIMEDOUT.
 *
 * Why a deadline even for "for ever": a FUTEX_WAIT without a timeout is
 * restarted by the kernel after a handler installed with SA_RESTART
 * (ERESTARTSYS), so the caller would never see the signal.  A wait with
 * a timeout is restarted through restart_syscall only when no handler
 * ran (ERESTART_RESTARTBLOCK), and fails with EINTR when one did,
 * whatever SA_RESTART says.  tests/signal_restart.c pins this.
 */
static inline int futex_wait_intr(int *uaddr, int val,
				  const struct timespec *deadline)
{
	/* About 68 years from boot: "for ever", but still a timeout. */
	static const struct timespec forever = { .tv_sec = INT_MAX };
	long r;

	r = __futex(uaddr, FUTEX_WAIT_BITSET, val,
		    deadline ? deadline : &forever, FUTEX_BITSET_MATCH_ANY);
	if (r == 0 || errno == EAGAIN)
		return 0;
	if (errno == EINTR)
		return -EINTR;
	if (errno == ETIMEDOUT)
		return -ETIMEDOUT;
	return 0;
}

static inline void futex_wake(int *uaddr, int nr)
{
	__futex(uaddr, FUTEX_WAKE, nr, NULL, 0);
}

#endif /* _KMUTEX_SRC_FUTEX_H */
