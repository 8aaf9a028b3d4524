// SPDX-License-Identifier: MIT
/*
 * peer_absl.cc - abseil's absl::Mutex behind plain C functions, so that
 * the C benchmark can measure it (lock_absl.c holds its ops entry).
 * Built only when bench/configure.sh finds libabsl-dev and a C++
 * compiler.
 */
#include <new>

#include <absl/synchronization/mutex.h>

#include "peer_absl.h"

static_assert(sizeof(absl::Mutex) == PEER_ABSL_MUTEX_SIZE,
	      "update PEER_ABSL_MUTEX_SIZE in bench/peer_absl.h");

static inline absl::Mutex *mu(void *p)
{
	return static_cast<absl::Mutex *>(p);
}

/*
 * Debian's libabsl is built without NDEBUG, so absl::Mutex tracks lock
 * order for deadlock detection on every acquisition unless told not to:
 * that is not what a release build of abseil costs.
 */
void peer_absl_setup(void)
{
	absl::SetMutexDeadlockDetectionMode(absl::OnDeadlockCycle::kIgnore);
}

void peer_absl_init(void *p)
{
	new (p) absl::Mutex();
}

void peer_absl_lock(void *p)
{
	mu(p)->Lock();
}

void peer_absl_unlock(void *p)
{
	mu(p)->Unlock();
}

void peer_absl_destroy(void *p)
{
	mu(p)->~Mutex();
}

/* Uncontended pairs without the C-to-C++ call per pair. */
void peer_absl_loop(void *p, unsigned long n)
{
	absl::Mutex *m = mu(p);

	while (n--) {
		m->Lock();
		m->Unlock();
	}
}
