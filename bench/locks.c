// SPDX-License-Identifier: MIT
/* locks.c - the table of every lock, in the order the tables show them. */
#include <string.h>

#include "lock_ops.h"
/* The variants of kmutex (BENCH_VARIANTS), generated into $(B)/bench. */
#include "variants.h"

const struct lock_ops *const all_locks[] = {
	&kmutex_ops,
	BENCH_VARIANT_OPS
	&pthread_default_ops,
	&pthread_adaptive_ops,
	&absl_ops,
	&drepper_ops,
	&ck_mcs_ops,
	&ttas_ops,
	&floor_xchg_ops,
	&floor_2rmw_ops,
};

const char *const lock_kind_name[] = {
	[LOCK_SLEEPING]	= "sleeping",
	[LOCK_SPINNING]	= "spinning",
	[LOCK_FLOOR]	= "floor",
};

const unsigned int nr_all_locks = sizeof(all_locks) / sizeof(all_locks[0]);

const struct lock_ops *lock_by_name(const char *name)
{
	unsigned int i;

	for (i = 0; i < nr_all_locks; i++)
		if (!strcmp(all_locks[i]->name, name))
			return all_locks[i];
	return NULL;
}
