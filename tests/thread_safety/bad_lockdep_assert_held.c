// SPDX-License-Identifier: MIT
/* Faulty: guarded data used before lockdep_assert_held() says it is held. */
/* expect: writing variable 'entries' requires holding mutex 'lock' exclusively */
#include <linux/mutex.h>

static DEFINE_MUTEX(lock);
static int entries __guarded_by(lock);

void cache_add(void)
{
	entries++;
	lockdep_assert_held(&lock);
}
