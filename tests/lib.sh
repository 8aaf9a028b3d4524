# SPDX-License-Identifier: MIT
#
# tests/lib.sh - what the shell tests share.  Not a test: each script
# sources it from the source root (tests/run runs them there) with
# `. tests/lib.sh || exit 1`.  It sets
#   - set -u, CC (default cc) and B (the build dir, default build);
#   - RUN, the command the scripts run their programs through (empty,
#     or qemu-user on another CPU: make test-aarch64 ...);
#   - fail=0, which bad() sets to 1 (a script ends with exit $fail);
#   - tmp, a fresh directory removed at exit by an EXIT trap (a script
#     that removes more sets its own trap after sourcing this);
# and defines bad(), need_debug_build and run_model.
# The Makefile leaves it out of the tests it installs (TEST_SH).

set -u
CC=${CC:-cc}
B=${B:-build}
# On another CPU (make test-aarch64 ...) its programs run under qemu-user.
RUN=()
[ -z "${KMUTEX_ARCH:-}" ] || read -r -a RUN <<< "${KMUTEX_TEST_WRAPPER:-}"
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

bad() { echo "FAIL: $*"; fail=1; }

# need_debug_build: skip the test (exit 77) unless $B has the debugging
# build's shared library.
need_debug_build() {
	if [ ! -f "$B/libkmutex-debug.so" ]; then
		echo "SKIP: no debugging build in $B (DEBUG_BUILD=no)"
		exit 77
	fi
}

# run_model NAME COMMAND...: the body of the model_* tests (NAME): run
# COMMAND, a spin model's checker (model/check_*, its last word), and
# exit with its status, 77 (skip) when spin is not installed.  Run by
# sh the checker need only exist; else it must be executable.
run_model() {
	local name=$1 check=${!#} op=-x rc
	shift
	[ "$1" = sh ] && op=-f
	if [ ! $op "$check" ]; then
		echo "$name: run me from the kmutex source root" >&2
		exit 1
	fi
	if ! command -v "${SPIN:-spin}" >/dev/null 2>&1; then
		echo "SKIP: spin is not installed ($check needs it)"
		exit 77
	fi
	"$@"
	rc=$?
	[ $rc = 77 ] && echo "SKIP: $check cannot run here (see above)"
	exit $rc
}
