// SPDX-License-Identifier: MIT
/* Faulty: writing after downgrade_write() made the lock a read lock. */
/* expect: writing variable 'version' requires holding rw_semaphore 'sem' exclusively */
#include <linux/rwsem.h>

static DECLARE_RWSEM(sem);
static int version __guarded_by(sem);

int publish(void)
{
	int v;

	down_write(&sem);
	version++;
	downgrade_write(&sem);
	version++;
	v = version;
	up_read(&sem);
	return v;
}
