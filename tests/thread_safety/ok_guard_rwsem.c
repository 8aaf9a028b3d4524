// SPDX-License-Identifier: MIT
/* Correct: the rw_semaphore guards, with no false warning. */
#include <errno.h>
#include <linux/rwsem.h>

static DECLARE_RWSEM(sem);
static int config __guarded_by(sem);

int read_config(void)
{
	guard(rwsem_read)(&sem);
	return config;
}

void write_config(int v)
{
	scoped_guard(rwsem_write, &sem)
		config = v;
	scoped_guard(rwsem_write_try, &sem)
		config = v;
	scoped_cond_guard(rwsem_write_kill, return, &sem)
		config = v;
}

int read_config_cond(void)
{
	scoped_guard(rwsem_read_try, &sem)
		return config;
	scoped_cond_guard(rwsem_read_intr, return -EINTR, &sem)
		return config;
	return 0;
}
