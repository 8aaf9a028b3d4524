#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# model_rwsem - the spin model of the rw_semaphore protocol
# (model/rwsem.pml) holds exhaustively for 3 threads, and every
# deliberately broken variant of it is caught (model/check_rwsem).
#
# Run from the source root (tests/run does).  Exit 0 pass, 77 skip (spin
# or a C compiler missing), anything else fail.
cd "${KMUTEX_SRC:-.}" || exit 1
. tests/lib.sh || exit 1
run_model model_rwsem model/check_rwsem
