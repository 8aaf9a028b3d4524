// SPDX-License-Identifier: MIT
/* Faulty: the data used on the -EINTR path too (the lock is held on 0). */
/* expect: writing variable 'jobs' requires holding mutex 'lock' exclusively */
#include <linux/mutex.h>

static DEFINE_MUTEX(lock);
static int jobs __guarded_by(lock);

int queue_job(void)
{
	int ret = mutex_lock_interruptible(&lock);

	jobs++;
	if (ret == 0)
		mutex_unlock(&lock);
	return ret;
}
