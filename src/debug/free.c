// SPDX-License-Identifier: MIT
/*
 * free.c - the debugging build's hook on free(): memory freed while the
 * calling thread holds a lock in it is "held lock freed".
 *
 * kmutex-debug.pc links programs with -Wl,--wrap=free, which sends their
 * free() calls to __wrap_free() (src/debug/wrap.c) and so here
 * (the why of --wrap is in <kmutex/debug_signal.h>).  As the kernel's
 * kfree() hook does, only the caller's own held locks are looked at:
 * that costs one thread-local load when it holds none, and no lock ever.
 * A lock that another thread holds is found by debug_check_no_locks_freed
 * (which takes the checker's lock to look at every thread), not here.
 *
 * The length is malloc_usable_size(), at least what was asked for.
 * After the report the freed locks leave the thread's stack: their
 * memory is gone, and a later report must not read their names from it.
 */
#include "../api.h"

#include <malloc.h>

#include "debug.h"

static void __attribute__((noinline))
check_free(struct kmutex_thread *t, void *ptr, const void *ip)
{
	size_t len = malloc_usable_size(ptr);
	int i;

	for (i = t->depth - 1; i >= 0; i--) {
		struct held_lock *h = &t->held[i];

		if (!overlaps(h->obj, h->obj_size, ptr, len))
			continue;
		lockdep_lock_acquire();
		report_freed(t, t, h, ptr, len, ip);
		lockdep_lock_release();
		held_remove(t, h);
	}
}

/**
 * kmutex_debug_free - the check of the free() hook
 * @ptr: the memory the program is about to free
 * @ip: the return address of its free() call
 */
KMUTEX_API void kmutex_debug_free(void *ptr, const void *ip)
{
	struct kmutex_thread *t = lockdep_self;

	if (__kmutex_likely(!t || !t->depth) || !ptr || lockdep_recursion)
		return;
	check_free(t, ptr, ip);
}
