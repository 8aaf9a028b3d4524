/* SPDX-License-Identifier: MIT */
/*
 * peer_absl.h - the C face of abseil's absl::Mutex (bench/peer_absl.cc).
 */
#ifndef _BENCH_PEER_ABSL_H
#define _BENCH_PEER_ABSL_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* sizeof(absl::Mutex); peer_absl.cc checks it with a static_assert. */
#define PEER_ABSL_MUTEX_SIZE	8

void peer_absl_setup(void);
void peer_absl_init(void *p);
void peer_absl_lock(void *p);
void peer_absl_unlock(void *p);
void peer_absl_destroy(void *p);
void peer_absl_loop(void *p, unsigned long n);

#ifdef __cplusplus
}
#endif

#endif /* _BENCH_PEER_ABSL_H */
