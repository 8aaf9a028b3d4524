#!/bin/sh
# SPDX-License-Identifier: MIT
#
# model_ww - the spin model of the ww_mutex rules (model/ww_mutex.pml)
# holds for 3 contexts in both classes, and its broken variants are
# caught (model/check_ww).
#
# Run from the source root (tests/run does).  Exit 0 pass, 77 skip (spin
# or a C compiler missing), anything else fail.
cd "${KMUTEX_SRC:-.}" || exit 1
if [ ! -f model/check_ww ]; then
	echo "model_ww: run me from the kmutex source root" >&2
	exit 1
fi
if ! command -v "${SPIN:-spin}" >/dev/null 2>&1; then
	echo "SKIP: spin is not installed (model/check_ww needs it)"
	exit 77
fi
sh model/check_ww
rc=$?
[ $rc = 77 ] && echo "SKIP: model/check_ww cannot run here (see above)"
exit $rc
