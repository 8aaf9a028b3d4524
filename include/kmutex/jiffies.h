/* SPDX-License-Identifier: MIT */
/*
 * kmutex/jiffies.h - the kernel's time unit for kmutex's timeouts.
 *
 * HZ is 1000: one jiffy is one millisecond of CLOCK_MONOTONIC.
 *
 * Beside a project's own shims: where the include path has a project's
 * <linux/jiffies.h> (no system header has that name; kmutex ships none)
 * it is included, and msecs_to_jiffies() and jiffies_to_msecs() are
 * left to it; also when its include guard (_LINUX_JIFFIES_H) is defined
 * or the program defines KMUTEX_NO_JIFFIES_NAMES.  kmutex's timeouts
 * count jiffies of 1 ms: a project's HZ must be 1000 too.
 */
#ifndef _KMUTEX_JIFFIES_H
#define _KMUTEX_JIFFIES_H

#include <limits.h>
#include <kmutex/compiler.h>

#if !defined(KMUTEX_NO_KERNEL_INCLUDES) && defined(__has_include)
#if __has_include(<linux/jiffies.h>)
#include <linux/jiffies.h>
#define __KMUTEX_PROJECT_JIFFIES 1
#endif
#endif

__KMUTEX_BEGIN_DECLS

#ifndef HZ
#define HZ 1000
#endif

#ifndef MAX_SCHEDULE_TIMEOUT
#define MAX_SCHEDULE_TIMEOUT LONG_MAX	/* wait without a timeout */
#endif

/*
 * The longest timeout in jiffies, "for ever" in practice (about 146
 * million years at HZ 1000): what msecs_to_jiffies() returns for a
 * negative count of milliseconds, as in the kernel.
 */
#ifndef MAX_JIFFY_OFFSET
#define MAX_JIFFY_OFFSET ((LONG_MAX >> 1) - 1)
#endif

/**
 * msecs_to_jiffies - convert milliseconds to jiffies
 * @m: milliseconds
 *
 * As in the kernel, @m is unsigned but a value that is negative as an
 * int (-1 passed for "no limit", say) means an infinite timeout.
 *
 * Return: @m, since HZ is 1000, or MAX_JIFFY_OFFSET if (int)@m < 0.
 */
#if !defined(__KMUTEX_PROJECT_JIFFIES) && !defined(_LINUX_JIFFIES_H) && \
	!defined(KMUTEX_NO_JIFFIES_NAMES)
static inline unsigned long msecs_to_jiffies(unsigned int m)
{
	if ((int)m < 0)
		return MAX_JIFFY_OFFSET;
	return m;
}

/**
 * jiffies_to_msecs - convert jiffies to milliseconds
 * @j: jiffies
 *
 * Return: @j, since HZ is 1000.
 */
static inline unsigned int jiffies_to_msecs(unsigned long j)
{
	return (unsigned int)j;
}
#endif

__KMUTEX_END_DECLS

#endif /* _KMUTEX_JIFFIES_H */
