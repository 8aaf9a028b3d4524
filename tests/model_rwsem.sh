#!/bin/sh
# SPDX-License-Identifier: MIT
#
# model_rwsem - the spin model of the rw_semaphore protocol
# (model/rwsem.pml) holds exhaustively for 3 threads, and every
# deliberately broken variant of it is caught (model/check_rwsem).
#
# Run from the source root (tests/run does).  Exit 0 pass, 77 skip (spin
# or a C compiler missing), anything else fail.
cd "${KMUTEX_SRC:-.}" || exit 1
if [ ! -x model/check_rwsem ]; then
	echo "model_rwsem: run me from the kmutex source root" >&2
	exit 1
fi
if ! command -v "${SPIN:-spin}" >/dev/null 2>&1; then
	echo "SKIP: spin is not installed (model/check_rwsem needs it)"
	exit 77
fi
model/check_rwsem
rc=$?
[ $rc = 77 ] && echo "SKIP: model/check_rwsem cannot run here (see above)"
exit $rc
