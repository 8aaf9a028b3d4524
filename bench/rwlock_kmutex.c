// SPDX-License-Identifier: MIT
/* rwlock_kmutex.c - the rw lock under test: struct rw_semaphore. */
#include <linux/rwsem.h>

#include "rwlock_ops.h"

static void rwsem_init(void *p)
{
	init_rwsem(p);
}

/* The lock and unlock halves, apart: not for clang -Wthread-safety. */
static __no_context_analysis void rwsem_read_lock(void *p)
{
	down_read((struct rw_semaphore *)p);
}

static __no_context_analysis void rwsem_read_unlock(void *p)
{
	up_read((struct rw_semaphore *)p);
}

static __no_context_analysis void rwsem_write_lock(void *p)
{
	down_write((struct rw_semaphore *)p);
}

static __no_context_analysis void rwsem_write_unlock(void *p)
{
	up_write((struct rw_semaphore *)p);
}

static void rwsem_destroy(void *p)
{
	(void)p;
}

const struct rwlock_ops kmutex_rwsem_ops = {
	.base = {
		.name		= "kmutex-rwsem",
		.what		= "kmutex struct rw_semaphore (down_read/"
				  "up_read, down_write/up_write)",
		.kind		= LOCK_SLEEPING,
		.size		= sizeof(struct rw_semaphore),
		.init		= rwsem_init,
		.lock		= rwsem_write_lock,
		.unlock		= rwsem_write_unlock,
		.destroy	= rwsem_destroy,
	},
	.read_lock	= rwsem_read_lock,
	.read_unlock	= rwsem_read_unlock,
	.write_lock	= rwsem_write_lock,
	.write_unlock	= rwsem_write_unlock,
};
