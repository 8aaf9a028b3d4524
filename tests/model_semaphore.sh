#!/bin/sh
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
if [ ! -x model/check_semaphore ]; then
	echo "model_semaphore: run me from the kmutex source root" >&2
	exit 1
fi
if ! command -v "${SPIN:-spin}" >/dev/null 2>&1; then
	echo "SKIP: spin is not installed (model/check_semaphore needs it)"
	exit 77
fi
model/check_semaphore
rc=$?
[ $rc = 77 ] && echo "SKIP: model/check_semaphore cannot run here (see above)"
exit $rc
