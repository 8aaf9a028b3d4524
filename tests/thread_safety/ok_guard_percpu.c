// SPDX-License-Identifier: MIT
/* Correct: the percpu rw semaphore guards, with no false warning. */
#include <linux/percpu-rwsem.h>

DEFINE_STATIC_PERCPU_RWSEM(sem);
static int config __guarded_by(sem);

int read_config(void)
{
	guard(percpu_read)(&sem);
	return config;
}

int read_config_try(void)
{
	scoped_guard(percpu_read_try, &sem)
		return config;
	return -1;
}

void write_config(int v)
{
	scoped_guard(percpu_write, &sem)
		config = v;
}
