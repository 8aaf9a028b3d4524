// SPDX-License-Identifier: MIT
/* sem_kmutex.c - the semaphore under test: struct semaphore, down/up. */
#include <linux/semaphore.h>

#include "sem_ops.h"

static void ksem_init(void *p)
{
	sema_init(p, 0);
}

static void ksem_down(void *p)
{
	down((struct semaphore *)p);
}

static void ksem_up(void *p)
{
	up((struct semaphore *)p);
}

static void ksem_destroy(void *p)
{
	(void)p;
}

const struct sem_ops kmutex_sem_ops = {
	.base = {
		.name		= "kmutex-sem",
		.what		= "kmutex struct semaphore (down/up)",
		.kind		= LOCK_SLEEPING,
		.size		= sizeof(struct semaphore),
		.init		= ksem_init,
		.lock		= ksem_down,
		.unlock		= ksem_up,
		.destroy	= ksem_destroy,
	},
	.down	= ksem_down,
	.up	= ksem_up,
};
