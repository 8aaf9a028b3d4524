#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# fastpath_calls - the inline fast paths a program compiles from the
# public headers are inline on every CPU (issue 13, docs/portability.md,
# "Fast paths per CPU"): a program built with a compiler's default flags
# gets, in mutex_lock(), mutex_unlock(), mutex_trylock(), down_read(),
# up_read(), down_write(), up_write(), down(), up() and
# ww_mutex_unlock():
#   - no call but to kmutex's own functions (the slow paths and the
#     Valgrind hooks): in particular none to libgcc's outline atomics
#     (__aarch64_cas4_acq ...), which gcc and clang emit by default on
#     aarch64 for the __atomic builtins (kmutex/atomic_fast.h);
#   - one atomic read-modify-write on each path through it (one LL/SC
#     loop, one LSE instruction, one lock-prefixed instruction): one or
#     two in the code, as the compiler may copy it into both arms of the
#     Valgrind hook's branch (gcc does for the unlocks with LSE).
# Compiled only (-O2), never run, so it needs no qemu: for aarch64 with
# gcc's default flags, with -march=armv8.1-a (LSE) and with clang; for
# armhf; for x86-64 with the host's gcc.  The aarch64 cross compiler is
# required (SKIP without it); the others are checked when installed.
# INC: the include directory checked (default include).
# Run from the source root.
. tests/lib.sh || exit 1
INC=${INC:-include}
checked=0

A64=aarch64-linux-gnu
command -v $A64-gcc > /dev/null ||
	{ echo "SKIP: $A64-gcc not installed (Debian: crossbuild-essential-arm64)"; exit 77; }

FUNCS="fp_lock fp_unlock fp_trylock fp_down_read fp_up_read fp_down_write fp_up_write fp_down fp_up fp_ww_unlock"
cat > "$tmp/fp.c" <<'EOF'
#include <linux/mutex.h>
#include <linux/rwsem.h>
#include <linux/semaphore.h>
#include <linux/ww_mutex.h>
void fp_lock(struct mutex *m) { mutex_lock(m); }
void fp_unlock(struct mutex *m) { mutex_unlock(m); }
int fp_trylock(struct mutex *m) { return mutex_trylock(m); }
void fp_down_read(struct rw_semaphore *s) { down_read(s); }
void fp_up_read(struct rw_semaphore *s) { up_read(s); }
void fp_down_write(struct rw_semaphore *s) { down_write(s); }
void fp_up_write(struct rw_semaphore *s) { up_write(s); }
void fp_down(struct semaphore *s) { down(s); }
void fp_up(struct semaphore *s) { up(s); }
void fp_ww_unlock(struct ww_mutex *w) { ww_mutex_unlock(w); }
EOF

# The atomic read-modify-writes, one per LL/SC loop: load-exclusive,
# an LSE instruction, a lock prefix.
RMW='^\s*[0-9a-f]+:\s+(ldaxr|ldxr|ldrex|ldaex|cas[a-z]*|ldadd[a-z]*|swp[a-z]*|lock)\s'
# A call or tail call by relocation; allowed targets: kmutex's own.
CALL='R_(AARCH64_(CALL|JUMP)26|X86_64_PLT32|ARM_(THM_)?(CALL|JUMP24|PC24))'

# check NAME CC FLAGS...: compile fp.c, check each function.
check() {
	local name=$1 cc=$2 f body n calls
	shift 2
	command -v "${cc%% *}" > /dev/null ||
		{ echo "note: $name: ${cc%% *} not installed, not checked"; return; }
	if ! $cc -std=gnu11 -O2 -Wall -Wextra -Werror -D_GNU_SOURCE -I"$INC" \
			"$@" -c "$tmp/fp.c" -o "$tmp/$name.o" 2> "$tmp/err"; then
		bad "$name: fp.c does not compile"; cat "$tmp/err"; return
	fi
	local od=${OBJDUMP_FOR[$name]}
	$od -dr --no-show-raw-insn "$tmp/$name.o" > "$tmp/$name.dis"
	checked=$((checked + 1))
	for f in $FUNCS; do
		body=$(awk -v f="<$f>:" '$2 == f { on = 1; next }
			on && /^[0-9a-f]+ <.*>:$/ { on = 0 } on' "$tmp/$name.dis")
		[ -n "$body" ] || { bad "$name: no $f in the object"; continue; }
		calls=$(grep -E "$CALL" <<< "$body" | awk '{ print $3 }' |
			sed 's/[-+].*//' | grep -Ev '^(__)?kmutex_' | sort -u |
			tr '\n' ' ')
		[ -z "$calls" ] ||
			bad "$name: $f calls ${calls}(an inline fast path with a call)"
		n=$(grep -cE "$RMW" <<< "$body")
		if [ "$n" -lt 1 ] || [ "$n" -gt 2 ]; then
			bad "$name: $f has $n atomic read-modify-writes, not 1 or 2"
		fi
	done
}

declare -A OBJDUMP_FOR=(
	[aarch64]=$A64-objdump [aarch64-lse]=$A64-objdump
	[aarch64-clang]=$A64-objdump
	[armhf]=arm-linux-gnueabihf-objdump [x86-64]=objdump
)
check aarch64 $A64-gcc
check aarch64-lse $A64-gcc -march=armv8.1-a
if command -v clang > /dev/null &&
   echo 'int x;' | clang --target=$A64 -x c -c - -o /dev/null 2> /dev/null; then
	check aarch64-clang "clang --target=$A64"
else
	echo "note: aarch64-clang: clang cannot build for $A64 here, not checked"
fi
# The inline assembly builds where the builtins did: ISO C with
# -pedantic (no statement expressions), C++, -O0, the debugging build.
for fl in "-std=c11 -pedantic" "-O0" "-DKMUTEX_DEBUG" "-x c++ -std=gnu++17"; do
	cc=$A64-gcc std=-std=gnu11
	case $fl in -x*) cc=$A64-g++ std= ;; esac
	command -v $cc > /dev/null || continue
	# shellcheck disable=SC2086
	$cc $std -O2 $fl -Wall -Wextra -Werror -D_GNU_SOURCE -I"$INC" \
		-c "$tmp/fp.c" -o "$tmp/flags.o" 2> "$tmp/err" ||
		{ bad "aarch64 $fl: fp.c does not compile"; cat "$tmp/err"; }
done
check armhf arm-linux-gnueabihf-gcc
if [ "$(uname -m)" = x86_64 ]; then
	check x86-64 gcc
fi

[ $fail = 0 ] && echo "fast paths inline, no call, one atomic each path ($checked compilers/flags)"
exit $fail
