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

/**
 * msecs_to_jiffies - convert milliseconds to jiffies
 * @m: milliseconds
 *
 * Return: @m, since HZ is 1000.
 */
static inline unsigned long msecs_to_jiffies(unsigned int m)
{
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
