// SPDX-License-Identifier: MIT
/* Faulty: guarded data written without its lock. */
/* expect: writing variable 'counter' requires holding mutex 'lock' exclusively */
#include <linux/mutex.h>

static DEFINE_MUTEX(lock);
static long counter __guarded_by(lock);

void count(void)
{
	counter++;
}
