/* SPDX-License-Identifier: MIT */
/*
 * kmutex/jiffies.h - the kernel's time unit for kmutex's timeouts.
 *
 * HZ is 1000: one jiffy is one millisecond of CLOCK_MONOTONIC.
 */
#ifndef _KMUTEX_JIFFIES_H
#define _KMUTEX_JIFFIES_H

#include <limits.h>

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

#endif /* _KMUTEX_JIFFIES_H */
