// SPDX-License-Identifier: MIT
/* Faulty: lockdep_assert_held() on a rw_semaphore does not allow writes. */
/* expect: writing variable 'size' requires holding rw_semaphore 'sem' exclusively */
#include <linux/rwsem.h>

static DECLARE_RWSEM(sem);
static int size __guarded_by(sem);

void cache_grow(void)
{
	lockdep_assert_held(&sem);
	size++;
}
