// SPDX-License-Identifier: MIT
/*
 * lock_kmutex_variant.c - kmutex built with other flags (BENCH_VARIANTS
 * in bench/bench.mk), as the lock "kmutex-<name>", so that policies are
 * compared in one process, their windows interleaved with kmutex's and
 * the peers' (the CPU pair of a VM can change between two runs).
 *
 * Compiled once per variant with the variant's flags and
 * -include variant-<name>/variant.h, which defines VARIANT_ID,
 * VARIANT_FLAGS and a macro for every global symbol of the library
 * (kmutex_mutex_lock_slowpath -> kmutexV_<name>_mutex_lock_slowpath):
 * the inline fast paths of <linux/mutex.h> below, as a program inlines
 * them, call that variant's copy of the slow paths.
 */
#include <linux/mutex.h>

#include "lock_ops.h"

#ifndef VARIANT_ID
#error "built by bench/bench.mk with -include variant-<name>/variant.h"
#endif

#define __VCAT(a, b, c)	a##b##c
#define VCAT(a, b, c)	__VCAT(a, b, c)
#define __VSTR(x)	#x
#define VSTR(x)		__VSTR(x)
#define VARIANT_OPS	VCAT(kmutex_variant_, VARIANT_ID, _ops)

static void variant_init(void *p)
{
	mutex_init(p);
}

/* The lock and unlock halves, apart: not for clang -Wthread-safety. */
static __no_context_analysis void variant_lock(void *p)
{
	mutex_lock((struct mutex *)p);
}

static __no_context_analysis void variant_unlock(void *p)
{
	mutex_unlock((struct mutex *)p);
}

static void variant_destroy(void *p)
{
	mutex_destroy(p);
}

DEFINE_LOCK_LOOP(variant_loop, struct mutex, mutex_lock, mutex_unlock)

const struct lock_ops VARIANT_OPS = {
	.name		= "kmutex-" VSTR(VARIANT_ID),
	.what		= "kmutex built with " VARIANT_FLAGS
			  " (a variant: not a peer)",
	.kind		= LOCK_SLEEPING,
	.variant	= true,
	.size		= sizeof(struct mutex),
	.init		= variant_init,
	.lock		= variant_lock,
	.unlock		= variant_unlock,
	.destroy	= variant_destroy,
	.loop		= variant_loop,
};
