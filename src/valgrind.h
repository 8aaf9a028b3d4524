/* SPDX-License-Identifier: MIT */
/*
 * valgrind.h - the library's own hooks for Helgrind and DRD (the public
 * ones are in include/kmutex/valgrind.h; both are src/valgrind.c).
 *
 * The slow paths keep their words (the lock's count, wait_lock, wait
 * list and spinner flag, the waiters' nodes) coherent with atomics and
 * the wait_lock, which the checkers do not understand: these hide
 * exactly that memory from them, and only when the program runs under
 * one of them.
 */
#ifndef _KMUTEX_SRC_VALGRIND_H
#define _KMUTEX_SRC_VALGRIND_H

#include <stdbool.h>
#include <kmutex/list.h>
#include <kmutex/valgrind.h>

/* @wait_lock's object: its count (or done) and wait_lock. */
void vg_ignore_header(int *wait_lock);
struct kmutex_waiter;
/* A waiter on its thread's stack, before its first write. */
void vg_ignore_waiter(struct kmutex_waiter *w);
/* What a waiter is queued before: a wait list's head (or a waiter). */
void vg_ignore_head(struct kmutex_list *head);
/* One word: a lock's spinner flag. */
void vg_ignore_word(int *word);

#if KMUTEX_VALGRIND
#define vg_hook(call)	__kmutex_vg(call)
#else
#define vg_hook(call)	do { } while (0)
#endif

/* Nonzero under any Valgrind tool, memcheck too (src/valgrind.c). */
extern int vg_running;
/* Whether Valgrind reports errors of the calling thread. */
void vg_report_errors(bool on);

#define vg_quiet(on)							\
	do {								\
		if (__builtin_expect(vg_running, 0))			\
			vg_report_errors(!(on));			\
	} while (0)

#endif /* _KMUTEX_SRC_VALGRIND_H */
