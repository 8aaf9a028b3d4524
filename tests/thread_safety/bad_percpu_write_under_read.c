// SPDX-License-Identifier: MIT
/* Faulty: a write under the percpu rw semaphore's read guard. */
/* expect: writing variable 'config' requires holding percpu_rw_semaphore 'sem' exclusively */
#include <linux/percpu-rwsem.h>

DEFINE_STATIC_PERCPU_RWSEM(sem);
static int config __guarded_by(sem);

void write_config(int v)
{
	guard(percpu_read)(&sem);
	config = v;
}
