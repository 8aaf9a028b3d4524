// SPDX-License-Identifier: MIT
/*
 * rwlock_percpu.c - the rw lock under test: struct percpu_rw_semaphore,
 * whose readers write no shared cache line (issue 16).
 */
#include <stdio.h>
#include <stdlib.h>
#include <linux/percpu-rwsem.h>

#include "rwlock_ops.h"

static void percpu_init(void *p)
{
	if (percpu_init_rwsem((struct percpu_rw_semaphore *)p) != 0) {
		fprintf(stderr, "percpu_init_rwsem: out of memory\n");
		exit(1);
	}
}

/* The lock and unlock halves, apart: not for clang -Wthread-safety. */
static __no_context_analysis void percpu_read_lock(void *p)
{
	percpu_down_read((struct percpu_rw_semaphore *)p);
}

static __no_context_analysis void percpu_read_unlock(void *p)
{
	percpu_up_read((struct percpu_rw_semaphore *)p);
}

static __no_context_analysis void percpu_write_lock(void *p)
{
	percpu_down_write((struct percpu_rw_semaphore *)p);
}

static __no_context_analysis void percpu_write_unlock(void *p)
{
	percpu_up_write((struct percpu_rw_semaphore *)p);
}

static void percpu_destroy(void *p)
{
	percpu_free_rwsem((struct percpu_rw_semaphore *)p);
}

const struct rwlock_ops kmutex_percpu_rwsem_ops = {
	.base = {
		.name		= "kmutex-percpu",
		.what		= "kmutex struct percpu_rw_semaphore "
				  "(percpu_down_read/percpu_up_read, "
				  "percpu_down_write/percpu_up_write)",
		.kind		= LOCK_SLEEPING,
		.size		= sizeof(struct percpu_rw_semaphore),
		.init		= percpu_init,
		.lock		= percpu_write_lock,
		.unlock		= percpu_write_unlock,
		.destroy	= percpu_destroy,
	},
	.read_lock	= percpu_read_lock,
	.read_unlock	= percpu_read_unlock,
	.write_lock	= percpu_write_lock,
	.write_unlock	= percpu_write_unlock,
};
