// SPDX-License-Identifier: MIT
/* Faulty: a mutex does not nest; locking it twice deadlocks. */
/* expect: acquiring mutex 'lock' that is already held */
#include <linux/mutex.h>

static DEFINE_MUTEX(lock);

void twice(void)
{
	mutex_lock(&lock);
	mutex_lock(&lock);
	mutex_unlock(&lock);
}
