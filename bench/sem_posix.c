// SPDX-License-Identifier: MIT
/* sem_posix.c - the baseline semaphore: POSIX sem_t, sem_wait/sem_post. */
#include <errno.h>
#include <semaphore.h>

#include "sem_ops.h"

static void psem_init(void *p)
{
	sem_init(p, 0, 0);
}

static void psem_down(void *p)
{
	while (sem_wait(p) && errno == EINTR)
		;
}

static void psem_up(void *p)
{
	sem_post(p);
}

static void psem_destroy(void *p)
{
	sem_destroy(p);
}

const struct sem_ops posix_sem_ops = {
	.base = {
		.name		= "posix-sem",
		.what		= "POSIX sem_t (sem_wait/sem_post)",
		.kind		= LOCK_SLEEPING,
		.size		= sizeof(sem_t),
		.init		= psem_init,
		.lock		= psem_down,
		.unlock		= psem_up,
		.destroy	= psem_destroy,
	},
	.down	= psem_down,
	.up	= psem_up,
};
