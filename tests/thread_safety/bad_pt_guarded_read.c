// SPDX-License-Identifier: MIT
/* Faulty: data behind a __pt_guarded_by pointer read without the lock. */
/* expect: reading the value pointed to by 'table' requires holding mutex 'lock' */
#include <linux/mutex.h>

static DEFINE_MUTEX(lock);
static int *table __pt_guarded_by(lock);

int first(void)
{
	return table[0];
}
