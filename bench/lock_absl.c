// SPDX-License-Identifier: MIT
/*
 * lock_absl.c - abseil's absl::Mutex, through the C++ shim peer_absl.cc,
 * when libabsl-dev and a C++ compiler are installed (BENCH_HAVE_ABSL).
 */
#include "lock_ops.h"

#ifdef BENCH_HAVE_ABSL
#include "peer_absl.h"

const struct lock_ops absl_ops = {
	.name		= "absl",
	.what		= "abseil absl::Mutex (deadlock detection off)",
	.kind		= LOCK_SLEEPING,
	.size		= PEER_ABSL_MUTEX_SIZE,
	.setup		= peer_absl_setup,
	.init		= peer_absl_init,
	.lock		= peer_absl_lock,
	.unlock		= peer_absl_unlock,
	.destroy	= peer_absl_destroy,
	.loop		= peer_absl_loop,
};
#else
const struct lock_ops absl_ops = {
	.name		= "absl",
	.what		= "abseil absl::Mutex (deadlock detection off)",
	.kind		= LOCK_SLEEPING,
	.skipped	= "install libabsl-dev and g++",
};
#endif
