#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# model_semaphore - the spin model of the semaphore protocol
# (model/semaphore.pml) holds exhaustively in each of its configurations,
# and every deliberately broken variant of it is caught
# (model/check_semaphore).
#
# Run from the source root (tests/run does).  Exit 0 pass, 77 skip (spin
# or a C compiler missing), anything else fail.
cd "${KMUTEX_SRC:-.}" || exit 1
. tests/lib.sh || exit 1
run_model model_semaphore model/check_semaphore
