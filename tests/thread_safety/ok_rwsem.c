// SPDX-License-Identifier: MIT
/* Correct: readers read under down_read, writers write under down_write. */
#include <errno.h>
#include <linux/rwsem.h>

static DECLARE_RWSEM(sem);
static int config __guarded_by(sem);

int get_config(void)
{
	int v;

	down_read(&sem);
	v = config;
	up_read(&sem);
	return v;
}

int get_config_interruptible(int *v)
{
	if (down_read_interruptible(&sem))
		return -EINTR;
	*v = config;
	up_read(&sem);
	return 0;
}

int get_config_killable(int *v)
{
	int ret = down_read_killable(&sem);

	if (ret)
		return ret;
	*v = config;
	up_read(&sem);
	return 0;
}

int try_get_config(int *v)
{
	if (!down_read_trylock(&sem))
		return 0;
	*v = config;
	up_read(&sem);
	return 1;
}

void set_config(int v)
{
	down_write(&sem);
	config = v;
	up_write(&sem);
}

int set_config_killable(int v)
{
	if (down_write_killable(&sem))
		return -EINTR;
	config = v;
	up_write(&sem);
	return 0;
}

int try_set_config(int v)
{
	if (down_write_trylock(&sem)) {
		config = v;
		up_write(&sem);
		return 1;
	}
	return 0;
}

void set_config_nested(int v)
{
	down_write_nested(&sem, 0);
	config = v;
	up_write(&sem);
	down_read_nested(&sem, 0);
	v = config;
	up_read(&sem);
	if (down_write_killable_nested(&sem, 0) == 0) {
		config = v;
		up_write(&sem);
	}
}
