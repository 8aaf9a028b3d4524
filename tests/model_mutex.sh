#!/bin/sh
# SPDX-License-Identifier: MIT
#
# model_mutex - the spin model of the mutex protocol (model/mutex.pml)
# holds exhaustively for 3 threads, and every deliberately broken
# variant of it is caught (model/check).
#
# Run from the source root (tests/run does).  Exit 0 pass, 77 skip (spin
# or a C compiler missing), anything else fail.
cd "${KMUTEX_SRC:-.}" || exit 1
if [ ! -f model/check ]; then
	echo "model_mutex: run me from the kmutex source root" >&2
	exit 1
fi
if ! command -v "${SPIN:-spin}" >/dev/null 2>&1; then
	echo "SKIP: spin is not installed (model/check needs it)"
	exit 77
fi
sh model/check
rc=$?
[ $rc = 77 ] && echo "SKIP: model/check cannot run here (see above)"
exit $rc
