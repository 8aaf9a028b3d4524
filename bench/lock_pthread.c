// SPDX-License-Identifier: MIT
/*
 * lock_pthread.c - glibc's pthread_mutex_t: the default kind (what most
 * programs use) and PTHREAD_MUTEX_ADAPTIVE_NP (spins a little first).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "lock_ops.h"

static void pthread_default_init(void *p)
{
	if (pthread_mutex_init(p, NULL)) {
		perror("pthread_mutex_init");
		exit(1);
	}
}

static void pthread_adaptive_init(void *p)
{
	pthread_mutexattr_t attr;

	pthread_mutexattr_init(&attr);
	if (pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_ADAPTIVE_NP) ||
	    pthread_mutex_init(p, &attr)) {
		perror("pthread_mutex_init(PTHREAD_MUTEX_ADAPTIVE_NP)");
		exit(1);
	}
	pthread_mutexattr_destroy(&attr);
}

static void pthread_lock(void *p)
{
	pthread_mutex_lock(p);
}

static void pthread_unlock(void *p)
{
	pthread_mutex_unlock(p);
}

static void pthread_destroy(void *p)
{
	pthread_mutex_destroy(p);
}

DEFINE_LOCK_LOOP(pthread_loop, pthread_mutex_t, pthread_mutex_lock,
		 pthread_mutex_unlock)

const struct lock_ops pthread_default_ops = {
	.name		= "pthread",
	.what		= "glibc pthread_mutex_t, default attributes",
	.kind		= LOCK_SLEEPING,
	.size		= sizeof(pthread_mutex_t),
	.init		= pthread_default_init,
	.lock		= pthread_lock,
	.unlock		= pthread_unlock,
	.destroy	= pthread_destroy,
	.loop		= pthread_loop,
};

const struct lock_ops pthread_adaptive_ops = {
	.name		= "pthread-adaptive",
	.what		= "glibc pthread_mutex_t, PTHREAD_MUTEX_ADAPTIVE_NP",
	.kind		= LOCK_SLEEPING,
	.size		= sizeof(pthread_mutex_t),
	.init		= pthread_adaptive_init,
	.lock		= pthread_lock,
	.unlock		= pthread_unlock,
	.destroy	= pthread_destroy,
	.loop		= pthread_loop,
};
