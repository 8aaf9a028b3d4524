// SPDX-License-Identifier: MIT
/* Faulty: an early return leaves the mutex held on one path. */
/* expect: mutex 'lock' is not held on every path through here */
#include <linux/mutex.h>

static DEFINE_MUTEX(lock);
static int state __guarded_by(lock);

int update(int v)
{
	mutex_lock(&lock);
	if (v < 0)
		return -1;
	state = v;
	mutex_unlock(&lock);
	return 0;
}
