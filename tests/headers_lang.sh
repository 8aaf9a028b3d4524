#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# headers_lang - the "languages" row of docs/API.md: the public headers
# work from
#   - C11 without GNU extensions' warnings: -std=c11 -pedantic -Wall
#     -Wextra -Werror (-O2 -fexceptions), gcc and clang, production and
#     debugging build;
#   - C++: every header compiles alone as C++ (-std=gnu++17 -Wall -Wextra
#     -Werror, g++ and clang++), and tests/lang/api_use.c, compiled as
#     C++ (-O2), links against the library (extern "C") and runs.
# Each program is linked against the library and run.  A compiler that
# is not installed is skipped, saying so.
# Run from the source root with CC and B (the build dir) set.
. tests/lib.sh || exit 1
n=0

DEBUG_LIBS="-ldl -rdynamic -Wl,--wrap=sigaction -Wl,--wrap=signal -Wl,--wrap=free"
# What the library was built with beyond libc (-ldw), as the Makefile says.
DEBUG_LIBS="$DEBUG_LIBS $(cat "$B/debug/libs" 2>/dev/null)"

libs_for() {	# BUILD: the library and link flags
	if [ "$1" = debug ]; then
		echo "$B/libkmutex-debug.a -pthread $DEBUG_LIBS"
	else
		echo "$B/libkmutex.a -pthread"
	fi
}

# run_prog NAME COMPILER ARGS...: build, run, expect "ok".
run_prog() {
	local name=$1 cc=$2 out
	shift 2
	n=$((n + 1))
	if ! $cc "$@" -o "$tmp/$name" > "$tmp/$name.log" 2>&1; then
		bad "$name: $cc $*"
		sed 's/^/    /' "$tmp/$name.log" | head -n 12
		return
	fi
	out=$(timeout 60 "$tmp/$name" 2>&1)
	[ "$out" = ok ] || bad "$name: run: $out"
}

builds="production"
[ -f "$B/libkmutex-debug.a" ] && builds="production debug"

# --- C11, pedantic ----------------------------------------------------------------
for cc in gcc clang; do
	command -v $cc > /dev/null || { echo "SKIP: $cc not installed"; continue; }
	for build in $builds; do
		def=
		[ $build = debug ] && def=-DKMUTEX_DEBUG
		# -O2 -fexceptions: the guards' cleanups run on unwinding too.
		# shellcheck disable=SC2046,SC2086
		run_prog "c11-$cc-$build" $cc -std=c11 -pedantic -Wall -Wextra \
			-O2 -fexceptions -Werror -D_POSIX_C_SOURCE=200809L \
			-Iinclude $def tests/lang/api_use.c $(libs_for $build)
	done
done

# --- C++ ----------------------------------------------------------------------------
for cxx in g++ clang++; do
	command -v $cxx > /dev/null || { echo "SKIP: $cxx not installed (C++ not checked with it)"; continue; }
	for build in $builds; do
		def=
		[ $build = debug ] && def=-DKMUTEX_DEBUG
		# The headers a program includes (the kmutex/debug_* ones,
		# rwsem_fast.h and atomic_fast.h come only through
		# <linux/...>).
		for h in include/linux/*.h include/kmutex/compiler.h \
			include/kmutex/capability.h include/kmutex/jiffies.h \
			include/kmutex/list.h include/kmutex/lockdep.h \
			include/kmutex/hooks.h include/kmutex/tsan.h \
			include/kmutex/valgrind.h \
			include/kmutex/project_headers.h; do
			n=$((n + 1))
			echo "#include <${h#include/}>" > "$tmp/one.cc"
			# shellcheck disable=SC2086
			$cxx -std=gnu++17 -Wall -Wextra -Werror -Iinclude $def \
				-fsyntax-only "$tmp/one.cc" > "$tmp/one.log" 2>&1 ||
				{ bad "$cxx $build: $h alone as C++:"
				  sed 's/^/    /' "$tmp/one.log" | head -n 8; }
		done
		# shellcheck disable=SC2046,SC2086
		run_prog "cxx-$cxx-$build" $cxx -x c++ -std=gnu++17 -O2 -Wall \
			-Wextra -Werror -Iinclude $def tests/lang/api_use.c -x none \
			$(libs_for $build)
	done
done

[ $fail = 0 ] && echo "$n builds: C11 -pedantic and C++ (gnu++17) clean, linked, run"
exit $fail
