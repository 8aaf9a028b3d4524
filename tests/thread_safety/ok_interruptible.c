// SPDX-License-Identifier: MIT
/* Correct: the 0-on-success locks, tested as kernel code tests them. */
#include <errno.h>
#include <linux/mutex.h>

static DEFINE_MUTEX(lock);
static int jobs __guarded_by(lock);

int add_job(void)
{
	if (mutex_lock_interruptible(&lock))
		return -EINTR;
	jobs++;
	mutex_unlock(&lock);
	return 0;
}

int add_job_killable(void)
{
	int ret = mutex_lock_killable(&lock);

	if (ret)
		return ret;
	jobs++;
	mutex_unlock(&lock);
	return 0;
}

int add_job_nested(void)
{
	if (mutex_lock_interruptible_nested(&lock, 0) == 0) {
		jobs++;
		mutex_unlock(&lock);
		return 0;
	}
	return -EINTR;
}

int add_job_killable_nested(void)
{
	if (mutex_lock_killable_nested(&lock, 0) != 0)
		return -EINTR;
	jobs++;
	mutex_unlock(&lock);
	return 0;
}
