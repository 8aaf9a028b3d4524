/* SPDX-License-Identifier: MIT */
/*
 * cpu.h - the pause hint for spin loops, a monotonic clock in ns, a
 * cheaper count for the mutex's policy, and the one-spinner-at-a-time
 * claim of the mutex and the rwsem.
 */
#ifndef _KMUTEX_SRC_CPU_H
#define _KMUTEX_SRC_CPU_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "valgrind.h"

/*
 * The spin loops count iterations (MUTEX_SPINS, WAIT_LOCK_SPINS), so
 * the hint sets how long they spin, not only how politely.  x86: pause
 * (tens to ~140 cycles).  aarch64: isb, not yield: yield is a NOP on
 * the cores without SMT (Neoverse, Cortex-A), so a spin of N yields
 * lasts N loads, while isb drains the pipeline, a delay of the order of
 * x86's pause; Rust's core::hint::spin_loop() and OpenJDK's
 * -XX:OnSpinWaitInst=isb chose isb for the same reason.  32-bit ARM
 * (v6K and later): yield, as Rust does there (a NOP hint on most cores,
 * a hint to an SMT sibling on the rest).  Not measured: see
 * docs/portability.md.
 */
static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ __volatile__("isb" ::: "memory");
#elif defined(__arm__) && (defined(__ARM_ARCH_6K__) || \
			   (defined(__ARM_ARCH) && __ARM_ARCH >= 7))
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

/*
 * policy_ticks() - a cheap monotonic count, for the mutex's move-or-keep
 * policy (src/mutex.c), which needs only ratios of short intervals and a
 * rough bound in time.  Its read sits between a release and the next
 * acquisition, where every nanosecond is the lock's: on the x86 VM
 * measured (AMD EPYC, kvm-clock), rdtsc took ~10 ns and clock_gettime()
 * ~25 ns (docs/benchmark.md).  x86: the TSC; aarch64: the virtual
 * counter (cntvct_el0, read directly by user space); elsewhere now_ns().
 * POLICY_TICKS_NS says which: 1 when the ticks are nanoseconds.
 */
#if defined(__x86_64__) || defined(__i386__)
#define POLICY_TICKS_NS	0
static inline uint64_t policy_ticks(void)
{
	return __builtin_ia32_rdtsc();
}
#elif defined(__aarch64__)
#define POLICY_TICKS_NS	0
static inline uint64_t policy_ticks(void)
{
	uint64_t v;

	__asm__ __volatile__("mrs %0, cntvct_el0" : "=r"(v));
	return v;
}
#else
#define POLICY_TICKS_NS	1
static inline uint64_t policy_ticks(void)
{
	return now_ns();
}
#endif

/*
 * Claim the right to spin on a lock (@spinner: its flag), or fail if
 * another thread has it: more than one spinner only bounces the line
 * (shared/notes, item 4).  The read first keeps a failed claim from
 * taking the line exclusive.
 */
static inline bool spinner_claim(int *spinner)
{
	vg_hook(vg_ignore_word(spinner));
	/*
	 * The flag guards no data, only who spins: the spinner takes the
	 * lock through count's own ACQUIRE.  RELAXED test first (keeps the
	 * line shared); ACQUIRE/RELEASE here cost nothing more on x86 and
	 * aarch64 (ldaxr/stlr) and keep the flag a conventional lock bit.
	 */
	return !__atomic_load_n(spinner, __ATOMIC_RELAXED) &&
	       !__atomic_exchange_n(spinner, 1, __ATOMIC_ACQUIRE);
}

static inline void spinner_release(int *spinner)
{
	__atomic_store_n(spinner, 0, __ATOMIC_RELEASE);
}

#endif /* _KMUTEX_SRC_CPU_H */
