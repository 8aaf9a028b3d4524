#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# examples_ww - examples/ww_grow.c, the worked example of docs/ww_mutex.md
# (locking a set of ww_mutexes that grows while it is locked), builds
# and runs, so that the example cannot rot:
#   (a) against the production library: it exits 0 and prints its
#       summary with the total value kept;
#   (b) against the debugging build, with KMUTEX_DEBUG=abort: no report;
#   (c) the same with KMUTEX_DEBUG_WW_INJECT=1: fake -EDEADLKs (one at
#       least in every transaction of two nodes or more: over 10000
#       backoffs, where real conflicts make some hundreds at most), still
#       no report, the value still kept;
# (The part docs/ww_mutex.md quotes is checked by tests/doc_examples.sh:
# its block is fenced "```c quote examples/ww_grow.c".)
# Run from the source root with CC and B (the build dir) set.
. tests/lib.sh || exit 1
fail() { echo "FAIL: $*"; exit 1; }

CFLAGS=(-std=gnu11 -Wall -Wextra -Werror -D_GNU_SOURCE -Iinclude -pthread -O2)
summary='^ww_grow: 4 threads, 80000 transactions, [0-9]+ backoffs \(-EDEADLK\), longest set [0-9]+ nodes, total value 3200 of 3200$'

# run NAME ENV...: run $tmp/NAME with ENV, its stdout in $tmp/NAME.out.
run() {
	local name=$1
	shift
	env "$@" timeout 120 "${RUN[@]}" "$tmp/$name" >"$tmp/$name.out" \
		2>"$tmp/$name.err" || {
		rc=$?; cat "$tmp/$name.err"; fail "$name exits $rc"; }
	grep -Eq "$summary" "$tmp/$name.out" ||
		{ cat "$tmp/$name.out"; fail "$name: no summary, or value lost"; }
}

"$CC" "${CFLAGS[@]}" examples/ww_grow.c "$B/libkmutex.a" -o "$tmp/prod" \
	2>"$tmp/cc.err" || { cat "$tmp/cc.err"; fail "does not build"; }
run prod
cat "$tmp/prod.out"

if [ ! -f "$B/libkmutex-debug.a" ]; then
	echo "SKIP (b), (c): no debugging build in $B (DEBUG_BUILD=no)"
	exit 0
fi
"$CC" "${CFLAGS[@]}" -DKMUTEX_DEBUG -fno-optimize-sibling-calls \
	-funwind-tables examples/ww_grow.c "$B/libkmutex-debug.a" -o "$tmp/debug" \
	-pthread -ldl -rdynamic -Wl,--wrap=sigaction -Wl,--wrap=signal \
	-Wl,--wrap=free $(cat "$B/debug/libs" 2>/dev/null) 2>"$tmp/cc.err" ||
	{ cat "$tmp/cc.err"; fail "does not build against the debugging build"; }
run debug KMUTEX_DEBUG=abort
[ -s "$tmp/debug.err" ] && { cat "$tmp/debug.err"; fail "debug: a report"; }
cp "$tmp/debug" "$tmp/inject"
run inject KMUTEX_DEBUG=abort KMUTEX_DEBUG_WW_INJECT=1
[ -s "$tmp/inject.err" ] && { cat "$tmp/inject.err"; fail "inject: a report"; }
n=$(sed -E 's/.* ([0-9]+) backoffs.*/\1/' "$tmp/inject.out")
[ "$n" -gt 10000 ] || fail "KMUTEX_DEBUG_WW_INJECT=1: only $n backoffs"
cat "$tmp/inject.out"
exit 0
