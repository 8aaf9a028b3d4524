// SPDX-License-Identifier: MIT
/* Faulty: unlock of a mutex this function does not hold. */
/* expect: releasing mutex 'lock' that was not held */
#include <linux/mutex.h>

static DEFINE_MUTEX(lock);

void release(void)
{
	mutex_unlock(&lock);
}
