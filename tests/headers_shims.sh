#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# headers_shims - kmutex's headers beside a project's own kernel shims
# (docs/API.md, "coexistence"; issue 16): tests/headers_coexist.c with
# -DKMUTEX_TEST_SHIMS and the fake project tree tests/shim/linux/
# (struct lock_class_key, lockdep_*, debug_check_no_locks_*,
# msecs_to_jiffies, __acquires ..., list_head, raw_spinlock_t, a wait.h),
# with gcc and clang, production and debugging build, the shims' -I
# before and after kmutex's, and the project's headers included before
# and after kmutex's; -Wall -Wextra -Werror, linked and run.  Then
# tests/shim/only_mutex.c: <linux/mutex.h> alone brings the project's
# list_head and raw_spinlock_t; and with tests/shim-nowait (a tree with
# no wait.h, so that the system's UAPI <linux/wait.h> is found),
# <linux/completion.h> leaves <sys/wait.h> working.  And with clang,
# tests/shim/guard_analysis.c: kmutex's guards built by the project's
# cleanup.h pass -Wthread-safety.
# Run from the source root with CC and B (the build dir) set.
. tests/lib.sh || exit 1
n=0

DEBUG_LIBS="-pthread -ldl -rdynamic -Wl,--wrap=sigaction -Wl,--wrap=signal -Wl,--wrap=free"
# What the library was built with beyond libc (-ldw), as the Makefile says.
DEBUG_LIBS="$DEBUG_LIBS $(cat "$B/debug/libs" 2>/dev/null)"

# try CC NAME SRC ARGS...: compile, link, run; the output must say OK.
try() {
	local cc=$1 name=$2 src=$3 out
	shift 3
	n=$((n + 1))
	if ! $cc -std=gnu11 -Wall -Wextra -Werror -D_GNU_SOURCE "$src" "$@" \
		-o "$tmp/$name" > "$tmp/$name.log" 2>&1; then
		bad "$name: $cc $src $*:"
		sed 's/^/    /' "$tmp/$name.log" | head -n 12
		return
	fi
	if ! out=$(timeout 60 "$tmp/$name" 2>&1); then
		bad "$name: run failed: $out"
	fi
}

ccs=
for cc in gcc clang; do
	if command -v $cc > /dev/null; then
		ccs="$ccs $cc"
	else
		echo "SKIP: $cc not installed (its half of the matrix not run)"
	fi
done

for cc in $ccs; do
	for build in production debug; do
		if [ $build = debug ]; then
			[ -f "$B/libkmutex-debug.a" ] || {
				echo "SKIP: no $B/libkmutex-debug.a"; continue; }
			def=-DKMUTEX_DEBUG
			libs="$B/libkmutex-debug.a $DEBUG_LIBS"
		else
			def=
			libs="$B/libkmutex.a -pthread"
		fi
		for path in shim-first kmutex-first; do
			if [ $path = shim-first ]; then
				inc="-Itests/shim -Iinclude"
			else
				inc="-Iinclude -Itests/shim"
			fi
			for order in "" -DKMUTEX_TEST_SHIMS_FIRST; do
				# shellcheck disable=SC2086
				try $cc "coexist-$cc-$build-$path${order:+-first}" \
					tests/headers_coexist.c $def $inc \
					-DKMUTEX_TEST_SHIMS $order $libs
			done
		done
		# shellcheck disable=SC2086
		try $cc "only-mutex-$cc-$build" tests/shim/only_mutex.c $def \
			-Itests/shim -Iinclude -DWITH_COMPLETION $libs
		# shellcheck disable=SC2086
		try $cc "only-mutex-nowait-$cc-$build" tests/shim/only_mutex.c \
			$def -Itests/shim-nowait -Iinclude -DWITH_COMPLETION $libs
	done
done

# clang's thread-safety analysis of kmutex's guards built by the
# project's cleanup.h (compile only).
if command -v clang > /dev/null; then
	for def in "" -DKMUTEX_DEBUG; do
		n=$((n + 1))
		if ! clang -std=gnu11 -Wall -Wextra -Werror -Wthread-safety \
			-D_GNU_SOURCE $def -Itests/shim -Iinclude -fsyntax-only \
			tests/shim/guard_analysis.c > "$tmp/analysis.log" 2>&1; then
			bad "guard_analysis${def:+ $def}: clang -Wthread-safety:"
			sed 's/^/    /' "$tmp/analysis.log" | head -n 12
		fi
	done
fi

# The control: the UAPI <linux/wait.h> does break <sys/wait.h> (else the
# nowait case above proves nothing).
printf '#include <linux/wait.h>\n#include <sys/wait.h>\nint main(void) { return P_ALL; }\n' \
	> "$tmp/uapi.c"
if cc -c "$tmp/uapi.c" -o "$tmp/uapi.o" > /dev/null 2>&1; then
	echo "note: this system's <linux/wait.h> does not break <sys/wait.h>"
fi

[ $fail = 0 ] && echo "$n builds beside the project shims in tests/shim: clean, and they run"
exit $fail
