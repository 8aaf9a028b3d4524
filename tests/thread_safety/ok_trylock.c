// SPDX-License-Identifier: MIT
/* Correct: mutex_trylock (1 = held) in a branch, and with an early return. */
#include <linux/mutex.h>

static DEFINE_MUTEX(lock);
static long hits __guarded_by(lock);

int try_hit(void)
{
	if (mutex_trylock(&lock)) {
		hits++;
		mutex_unlock(&lock);
		return 1;
	}
	return 0;
}

int try_hit_or_leave(void)
{
	if (!mutex_trylock(&lock))
		return 0;
	hits++;
	mutex_unlock(&lock);
	return 1;
}
