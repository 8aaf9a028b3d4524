/* SPDX-License-Identifier: MIT */
/* cpu.h - the pause hint for spin loops, and a monotonic clock in ns. */
#ifndef _KMUTEX_SRC_CPU_H
#define _KMUTEX_SRC_CPU_H

#include <stdint.h>
#include <time.h>

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ __volatile__("yield" ::: "memory");
#else
	__asm__ __volatile__("" ::: "memory");
#endif
}

static inline uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

#endif /* _KMUTEX_SRC_CPU_H */
