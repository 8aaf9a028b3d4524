#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# thread_safety - the lock annotations (kmutex/capability.h) let clang
# -Wthread-safety find locking bugs at compile time, with no false
# warning on correct code, and gcc ignores them.
#
# Each file in tests/thread_safety/ is a small program:
#   bad_*.c  one locking bug; its "expect:" comment lines give the text
#            clang must print.  It must fail under -Wthread-safety
#            -Werror with each expected text, and compile cleanly
#            without -Wthread-safety (so that the bug found is the one
#            meant, not some other error).
#   ok_*.c   correct locking: no warning at all under -Wthread-safety.
# Each is compiled against the production headers, and against the
# debugging build's (-DKMUTEX_DEBUG) when the headers it includes exist
# there, so that both builds are annotated alike.  Then gcc -Wall
# -Wextra -Werror compiles every one of them (bad ones too) without a
# word.
#
# Run from the source root (tests/run does).  CLANG and GCC name the
# compilers (default clang, gcc).  Exit 0 pass, 77 skip (no clang), else
# fail.
set -u

dir=tests/thread_safety
CLANG=${CLANG:-clang}
GCC=${GCC:-gcc}
if [ ! -d "$dir" ]; then
	echo "thread_safety: run me from the kmutex source root" >&2
	exit 1
fi
if ! command -v "$CLANG" >/dev/null 2>&1; then
	echo "SKIP: clang is not installed: the -Wthread-safety analysis" \
	     "of the lock annotations is not checked"
	exit 77
fi

flags=(-std=gnu11 -Wall -Wextra -Werror -D_GNU_SOURCE -Iinclude -fsyntax-only)
fail=0
problem() { echo "thread_safety: $*"; fail=1; }

# builds FILE - "production", and "debug" if the kmutex headers FILE
# includes compile in the debugging build.
builds() {
	echo production
	grep '^#include <linux/' "$1" |
		"$CLANG" "${flags[@]}" -DKMUTEX_DEBUG -x c - 2>/dev/null &&
		echo debug
}

# check_bad FILE BUILD-FLAGS... - FILE fails with each expected warning.
check_bad() {
	local f=$1 out e n=0
	shift
	local what="$f${*:+ $*}"
	if out=$("$CLANG" "${flags[@]}" -Wthread-safety "$@" "$f" 2>&1); then
		problem "$what: compiles under -Wthread-safety, but it has" \
			"a locking bug"
		return
	fi
	while IFS= read -r e; do
		n=$((n + 1))
		grep -qF -- "$e" <<<"$out" ||
			problem "$what: no warning \"$e\"; clang said:" \
				"$(sed 's/^/    /' <<<"$out")"
	done < <(sed -n 's|^/\* expect: \(.*\) \*/$|\1|p' "$f")
	[ $n -gt 0 ] || problem "$f: no \"/* expect: ... */\" line"
	out=$("$CLANG" "${flags[@]}" "$@" "$f" 2>&1) ||
		problem "$what: fails without -Wthread-safety too:" \
			"$(sed 's/^/    /' <<<"$out")"
}

# check_ok COMPILER FILE FLAGS... - FILE compiles without a word.
check_ok() {
	local cc=$1 f=$2 out
	shift 2
	out=$("$cc" "${flags[@]}" "$@" "$f" 2>&1)
	if [ $? != 0 ] || [ -n "$out" ]; then
		problem "$f: $cc${*:+ $*} is not silent:" "$(sed 's/^/    /' <<<"$out")"
	fi
}

nbad=0 nok=0
for f in "$dir"/*.c; do
	for build in $(builds "$f"); do
		def=()
		[ "$build" = debug ] && def=(-DKMUTEX_DEBUG)
		case ${f##*/} in
		bad_*)	nbad=$((nbad + 1)); check_bad "$f" "${def[@]}" ;;
		ok_*)	nok=$((nok + 1))
			check_ok "$CLANG" "$f" -Wthread-safety "${def[@]}" ;;
		*)	problem "$f: name it bad_*.c or ok_*.c" ;;
		esac
		if command -v "$GCC" >/dev/null 2>&1; then
			check_ok "$GCC" "$f" "${def[@]}"
		fi
	done
done
# Not a pass on an empty or half-read directory.
[ $nbad -ge 15 ] && [ $nok -ge 12 ] ||
	problem "only $nbad faulty and $nok correct snippet builds found"
command -v "$GCC" >/dev/null 2>&1 ||
	echo "thread_safety: $GCC not installed: gcc's side not checked"

[ $fail = 0 ] && echo "thread_safety: $nbad faulty snippet builds caught," \
	"$nok correct ones silent"
exit $fail
