#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# model_ww - the spin model of the ww_mutex rules (model/ww_mutex.pml)
# holds for 3 contexts in both classes, and its broken variants are
# caught (model/check_ww).
#
# Run from the source root (tests/run does).  Exit 0 pass, 77 skip (spin
# or a C compiler missing), anything else fail.
cd "${KMUTEX_SRC:-.}" || exit 1
. tests/lib.sh || exit 1
run_model model_ww sh model/check_ww
