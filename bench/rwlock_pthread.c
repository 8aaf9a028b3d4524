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

/* The two differ in their name and their init only. */
#define PTHREAD_RWLOCK_OPS(lock_name, lock_what, lock_init) {		\
	.base = {							\
		.name		= lock_name,				\
		.what		= lock_what,				\
		.kind		= LOCK_SLEEPING,			\
		.size		= sizeof(pthread_rwlock_t),		\
		.init		= lock_init,				\
		.lock		= rw_write_lock,			\
		.unlock		= rw_unlock,				\
		.destroy	= rw_destroy,				\
	},								\
	.read_lock	= rw_read_lock,					\
	.read_unlock	= rw_unlock,					\
	.write_lock	= rw_write_lock,				\
	.write_unlock	= rw_unlock,					\
}

const struct rwlock_ops pthread_rwlock_ops =
	PTHREAD_RWLOCK_OPS("pthread-rwlock",
			   "glibc pthread_rwlock_t, default attributes",
			   rw_init);

const struct rwlock_ops pthread_rwlock_wp_ops =
	PTHREAD_RWLOCK_OPS("pthread-rwlock-wp",
			   "glibc pthread_rwlock_t, PTHREAD_RWLOCK_"
			   "PREFER_WRITER_NONRECURSIVE_NP",
			   rw_init_wp);
