// SPDX-License-Identifier: MIT
/*
 * Correct: a program's own DEFINE_LOCK_GUARD_1 and _COND around a
 * struct mutex (as bcachefs' mutex_noio), with no false warning from
 * the lock its constructor takes and its destructor releases.
 */
#include <linux/cleanup.h>
#include <linux/mutex.h>

struct mutex_noio {
	struct mutex lock;
};

DEFINE_LOCK_GUARD_1(mutex_noio, struct mutex_noio,
		    mutex_lock(&_T->lock->lock),
		    mutex_unlock(&_T->lock->lock), unsigned int flags)
DEFINE_LOCK_GUARD_1_COND(mutex_noio, _try, mutex_trylock(&_T->lock->lock))

static struct mutex_noio m = { .lock = __MUTEX_INITIALIZER(m.lock) };
static int n;

int bump(void)
{
	guard(mutex_noio)(&m);
	return ++n;
}

int try_bump(void)
{
	scoped_guard(mutex_noio_try, &m)
		return ++n;
	return -1;
}
