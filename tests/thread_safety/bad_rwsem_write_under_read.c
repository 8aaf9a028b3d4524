// SPDX-License-Identifier: MIT
/* Faulty: rwsem-guarded data written under down_read(). */
/* expect: writing variable 'config' requires holding rw_semaphore 'sem' exclusively */
#include <linux/rwsem.h>

static DECLARE_RWSEM(sem);
static int config __guarded_by(sem);

void set_config(int v)
{
	down_read(&sem);
	config = v;
	up_read(&sem);
}
