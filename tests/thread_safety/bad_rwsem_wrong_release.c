// SPDX-License-Identifier: MIT
/* Faulty: a write lock released with up_read(). */
/* expect: releasing rw_semaphore 'sem' using shared access, expected exclusive access */
#include <linux/rwsem.h>

static DECLARE_RWSEM(sem);

void writer(void)
{
	down_write(&sem);
	up_read(&sem);
}
