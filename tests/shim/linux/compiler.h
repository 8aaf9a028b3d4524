/* SPDX-License-Identifier: MIT */
/* A project's <linux/compiler.h>: the usual helpers, and sparse-style
 * context annotations that expand to nothing (as older kernels'). */
#ifndef __TOOLS_LINUX_COMPILER_H
#define __TOOLS_LINUX_COMPILER_H

#define likely(x)		__builtin_expect(!!(x), 1)
#define unlikely(x)		__builtin_expect(!!(x), 0)
#define barrier()		__asm__ __volatile__("" : : : "memory")
#define READ_ONCE(x)		(*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, v)	(*(volatile __typeof__(x) *)&(x) = (v))
#define __must_check		__attribute__((__warn_unused_result__))
#define __maybe_unused		__attribute__((__unused__))
#define noinline		__attribute__((__noinline__))

#define __acquires(x)
#define __releases(x)
#define __must_hold(x)
#define __acquire(x)		(void)0
#define __release(x)		(void)0
#define __cond_lock(x, c)	(c)

#endif
