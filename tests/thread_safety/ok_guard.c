// SPDX-License-Identifier: MIT
/*
 * Correct: guard() and scoped_guard() in the ways kernel code uses them,
 * with no false warning; and the lock taken by hand again afterwards.
 */
#include <errno.h>
#include <linux/mutex.h>

static DEFINE_MUTEX(lock);
static long events __guarded_by(lock);

void record(void)
{
	guard(mutex)(&lock);
	events++;
}

long record_and_read(int n)
{
	for (int i = 0; i < n; i++) {
		guard(mutex)(&lock);
		events++;
	}
	scoped_guard(mutex, &lock) {
		if (events > 100)
			return events;	/* released by the guard */
		events++;
	}
	mutex_lock(&lock);		/* after the block: not held */
	events++;
	mutex_unlock(&lock);
	return 0;
}

int record_try(void)
{
	scoped_guard(mutex_try, &lock) {
		events++;
		return 1;
	}
	return 0;
}

int record_intr(void)
{
	scoped_cond_guard(mutex_intr, return -EINTR, &lock) {
		events++;
	}
	return 0;
}

int loop_break(int n)
{
	int i;

	for (i = 0; i < n; i++) {
		scoped_guard(mutex, &lock) {
			if (events == i)
				break;
			events++;
		}
	}
	return i;
}
