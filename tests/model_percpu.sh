#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# model_percpu - the spin model of the percpu_rw_semaphore handshake
# (model/percpu_rwsem.pml) holds exhaustively (2 readers, 1 writer), and
# its deliberately broken variants are caught (model/check_percpu).
#
# Run from the source root (tests/run does).  Exit 0 pass, 77 skip (spin
# or a C compiler missing), anything else fail.
cd "${KMUTEX_SRC:-.}" || exit 1
. tests/lib.sh || exit 1
run_model model_percpu model/check_percpu
