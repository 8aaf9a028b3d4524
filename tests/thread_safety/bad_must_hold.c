// SPDX-License-Identifier: MIT
/* Faulty: a __must_hold function called without the lock. */
/* expect: calling function 'add_locked' requires holding mutex 'lock' exclusively */
#include <linux/mutex.h>

static DEFINE_MUTEX(lock);
static long total __guarded_by(lock);

static void add_locked(long v) __must_hold(&lock);
static void add_locked(long v)
{
	total += v;
}

void add(long v)
{
	add_locked(v);
}
