// SPDX-License-Identifier: MIT
/*
 * rwlock_pthread.c - glibc's pthread_rwlock_t: the default (readers
 * preferred: a steady stream of readers can keep a writer out) and
 * PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP (a waiting writer holds
 * new readers back, as kmutex's rwsem does).
 */
#include <pthread.h>

#include "rwlock_ops.h"

static void rw_init(void *p)
{
	pthread_rwlock_init(p, NULL);
}

static void rw_init_wp(void *p)
{
	pthread_rwlockattr_t a;

	pthread_rwlockattr_init(&a);
	pthread_rwlockattr_setkind_np(&a,
			PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
	pthread_rwlock_init(p, &a);
	pthread_rwlockattr_destroy(&a);
}

static void rw_read_lock(void *p)
{
	pthread_rwlock_rdlock(p);
}

static void rw_write_lock(void *p)
{
	pthread_rwlock_wrlock(p);
}

static void rw_unlock(void *p)
{
	pthread_rwlock_unlock(p);
}

static void rw_destroy(void *p)
{
	pthread_rwlock_destroy(p);
}

const struct rwlock_ops pthread_rwlock_ops = {
	.base = {
		.name		= "pthread-rwlock",
		.what		= "glibc pthread_rwlock_t, default attributes",
		.kind		= LOCK_SLEEPING,
		.size		= sizeof(pthread_rwlock_t),
		.init		= rw_init,
		.lock		= rw_write_lock,
		.unlock		= rw_unlock,
		.destroy	= rw_destroy,
	},
	.read_lock	= rw_read_lock,
	.read_unlock	= rw_unlock,
	.write_lock	= rw_write_lock,
	.write_unlock	= rw_unlock,
};

const struct rwlock_ops pthread_rwlock_wp_ops = {
	.base = {
		.name		= "pthread-rwlock-wp",
		.what		= "glibc pthread_rwlock_t, PTHREAD_RWLOCK_"
				  "PREFER_WRITER_NONRECURSIVE_NP",
		.kind		= LOCK_SLEEPING,
		.size		= sizeof(pthread_rwlock_t),
		.init		= rw_init_wp,
		.lock		= rw_write_lock,
		.unlock		= rw_unlock,
		.destroy	= rw_destroy,
	},
	.read_lock	= rw_read_lock,
	.read_unlock	= rw_unlock,
	.write_lock	= rw_write_lock,
	.write_unlock	= rw_unlock,
};
