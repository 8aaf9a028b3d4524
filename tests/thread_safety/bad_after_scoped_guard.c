// SPDX-License-Identifier: MIT
/* Faulty: the data used after the scoped_guard() block has let go. */
/* expect: writing variable 'events' requires holding mutex 'lock' exclusively */
#include <linux/mutex.h>

static DEFINE_MUTEX(lock);
static long events __guarded_by(lock);

void record(void)
{
	scoped_guard(mutex, &lock)
		events++;
	events++;
}
