// SPDX-License-Identifier: MIT
/* Faulty: a function returns with the mutex still held. */
/* expect: mutex 'lock' is still held at the end of function */
#include <linux/mutex.h>

static DEFINE_MUTEX(lock);
static int state __guarded_by(lock);

void update(int v)
{
	mutex_lock(&lock);
	state = v;
}
