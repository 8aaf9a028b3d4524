// SPDX-License-Identifier: MIT
/* lock_kmutex.c - the lock under test: struct mutex, mutex_lock/unlock. */
#include <linux/mutex.h>

#include "lock_ops.h"

static void kmutex_init(void *p)
{
	mutex_init(p);
}

/* The lock and unlock halves, apart: not for clang -Wthread-safety. */
static __no_context_analysis void kmutex_lock(void *p)
{
	mutex_lock((struct mutex *)p);
}

static __no_context_analysis void kmutex_unlock(void *p)
{
	mutex_unlock((struct mutex *)p);
}

static void kmutex_destroy(void *p)
{
	mutex_destroy(p);
}

/* The inline fast paths of <linux/mutex.h>, as a user's program gets them. */
DEFINE_LOCK_LOOP(kmutex_loop, struct mutex, mutex_lock, mutex_unlock)

const struct lock_ops kmutex_ops = {
	.name		= "kmutex",
	.what		= "kmutex struct mutex (mutex_lock/mutex_unlock)",
	.kind		= LOCK_SLEEPING,
	.size		= sizeof(struct mutex),
	.init		= kmutex_init,
	.lock		= kmutex_lock,
	.unlock		= kmutex_unlock,
	.destroy	= kmutex_destroy,
	.loop		= kmutex_loop,
};
