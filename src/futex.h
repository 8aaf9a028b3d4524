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

/*
 * On a 32-bit CPU, SYS_futex takes the kernel's old 32-bit timespec.  A
 * program built with a 64-bit time_t there (-D_TIME_BITS=64, the default
 * of Debian 13's armhf, and always with musl) has a struct timespec of
 * 64-bit seconds, which only futex_time64 (Linux 5.1) reads: through
 * SYS_futex the kernel would take the high half of tv_sec for tv_nsec.
 * Older kernels say ENOSYS: then the timeout is converted to the old
 * layout (kmutex's deadlines are CLOCK_MONOTONIC, far below 2^31 s).
 */
struct __kmutex_timespec32 {
	long tv_sec;
	long tv_nsec;
};

static inline long __futex(int *uaddr, int op, int val,
			   const struct timespec *ts, int val3)
{
#ifdef SYS_futex_time64
	if (sizeof(ts->tv_sec) > sizeof(long)) {
		struct __kmutex_timespec32 old;
		long r = syscall(SYS_futex_time64, uaddr,
				 op | FUTEX_PRIVATE_FLAG, val, ts, NULL, val3);

		if (r != -1 || errno != ENOSYS)
			return r;
		if (ts) {
			old.tv_sec = ts->tv_sec > LONG_MAX ? LONG_MAX :
				     (long)ts->tv_sec;
			old.tv_nsec = ts->tv_nsec;
		}
		return syscall(SYS_futex, uaddr, op | FUTEX_PRIVATE_FLAG, val,
			       ts ? &old : NULL, NULL, val3);
	}
#endif
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
