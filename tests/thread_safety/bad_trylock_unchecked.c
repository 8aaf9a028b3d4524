// SPDX-License-Identifier: MIT
/* Faulty: mutex_trylock()'s result ignored, the data used anyway. */
/* expect: writing variable 'hits' requires holding mutex 'lock' exclusively */
#include <linux/mutex.h>

static DEFINE_MUTEX(lock);
static long hits __guarded_by(lock);

void hit(void)
{
	(void)mutex_trylock(&lock);
	hits++;
}
