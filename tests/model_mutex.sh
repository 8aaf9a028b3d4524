#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# model_mutex - the spin model of the mutex protocol (model/mutex.pml)
# holds exhaustively for 3 threads, and every deliberately broken
# variant of it is caught (model/check).
#
# Run from the source root (tests/run does).  Exit 0 pass, 77 skip (spin
# or a C compiler missing), anything else fail.
cd "${KMUTEX_SRC:-.}" || exit 1
. tests/lib.sh || exit 1
run_model model_mutex sh model/check
