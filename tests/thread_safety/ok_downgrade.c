// SPDX-License-Identifier: MIT
/* Correct: write, downgrade_write, read on, up_read. */
#include <linux/rwsem.h>

static DECLARE_RWSEM(sem);
static int version __guarded_by(sem);

int publish(void)
{
	int v;

	down_write(&sem);
	version++;
	downgrade_write(&sem);
	v = version;
	up_read(&sem);
	return v;
}
