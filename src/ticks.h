/* SPDX-License-Identifier: MIT */
/*
 * ticks.h - policy_ticks() (src/cpu.h) against nanoseconds: its rate,
 * calibrated against now_ns() by threads that wait anyway.  The mutex's
 * policy bounds a cycle with it (ticks_from_ns()); lock_stat times a
 * wait's end in ticks, where the spinner reads it between a release and
 * the next acquisition, and converts (ticks_to_ns()).
 */
#ifndef _KMUTEX_SRC_TICKS_H
#define _KMUTEX_SRC_TICKS_H

#include <stdbool.h>
#include <stdint.h>

#include "cpu.h"

void ticks_calibrate(bool refine);
uint64_t ticks_from_ns(uint64_t ns);
bool ticks_to_ns(uint64_t ticks, uint64_t *ns);

#endif /* _KMUTEX_SRC_TICKS_H */
