// SPDX-License-Identifier: MIT
/*
 * keep_mutex_interruptible.c - mutex_interruptible.c against the library built with the mutex
 * policy fixed to "keep" (make's keep variant, MUTEX_FORCE_KEEP): the
 * first waiter sleeps timed and unlocks leave it asleep
 * (src/mutex.c, MUTEX_KEEP_NS), a path the adaptive policy may not
 * take in a test's run.
 */
#include "mutex_interruptible.c"
