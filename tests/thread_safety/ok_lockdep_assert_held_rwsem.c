// SPDX-License-Identifier: MIT
/* Correct: lockdep_assert_held() on a rw_semaphore claims it for reading. */
#include <linux/rwsem.h>

static DECLARE_RWSEM(sem);
static int size __guarded_by(sem);

int cache_size(void)
{
	lockdep_assert_held(&sem);
	return size;
}
