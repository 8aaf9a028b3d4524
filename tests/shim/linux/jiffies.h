/* SPDX-License-Identifier: MIT */
/* A project's <linux/jiffies.h>. */
#ifndef _LINUX_JIFFIES_H
#define _LINUX_JIFFIES_H

#include <limits.h>

#define HZ			1000
#define MAX_JIFFY_OFFSET	((LONG_MAX >> 1) - 1)

static inline unsigned long msecs_to_jiffies(const unsigned int m)
{
	return m;
}

static inline unsigned int jiffies_to_msecs(const unsigned long j)
{
	return (unsigned int)j;
}

static inline unsigned long project_jiffies_marker(void)
{
	return 42;
}

#endif
