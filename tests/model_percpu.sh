#!/bin/sh
# SPDX-License-Identifier: MIT
#
# model_percpu - the spin model of the percpu_rw_semaphore handshake
# (model/percpu_rwsem.pml) holds exhaustively (2 readers, 1 writer), and
# its deliberately broken variants are caught (model/check_percpu).
#
# Run from the source root (tests/run does).  Exit 0 pass, 77 skip (spin
# or a C compiler missing), anything else fail.
cd "${KMUTEX_SRC:-.}" || exit 1
if [ ! -x model/check_percpu ]; then
	echo "model_percpu: run me from the kmutex source root" >&2
	exit 1
fi
if ! command -v "${SPIN:-spin}" >/dev/null 2>&1; then
	echo "SKIP: spin is not installed (model/check_percpu needs it)"
	exit 77
fi
model/check_percpu
rc=$?
[ $rc = 77 ] && echo "SKIP: model/check_percpu cannot run here (see above)"
exit $rc
