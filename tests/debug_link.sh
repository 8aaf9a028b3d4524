#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# debug_link - the debugging build as a program gets it:
#   (a) objects of the two builds do not mix: a -DKMUTEX_DEBUG object
#       with the production library, and a production object with the
#       debug library, both fail at link time on the ABI marker;
#   (b) `make install` stages libkmutex-debug.{a,so} and kmutex-debug.pc,
#       and `pkg-config --cflags --libs kmutex-debug` builds a program
#       (shared, then static) whose ABBA order is reported with the title,
#       the locks and the program's function names, and which
#       KMUTEX_DEBUG=abort aborts;
#   (c) in-tree, as docs/debugging.md says: -DKMUTEX_DEBUG
#       -fno-optimize-sibling-calls -funwind-tables -Iinclude
#       build/libkmutex-debug.a plus the link flags of kmutex-debug.pc;
#   (d) a program whose objects include no kmutex header, linked with
#       kmutex-debug's flags (--wrap=free,signal,sigaction), static and
#       shared: the library has the __wrap_ functions, and they work.
# Run from the source root with CC and B (the build dir) set.
. tests/lib.sh || exit 1

cat > "$tmp/abba.c" <<'EOF'
#include <linux/mutex.h>
#include <pthread.h>
#include <stdio.h>

static DEFINE_MUTEX(first_lock);
static DEFINE_MUTEX(second_lock);

__attribute__((noinline)) void *forward(void *arg)
{
	mutex_lock(&first_lock);
	mutex_lock(&second_lock);
	mutex_unlock(&second_lock);
	mutex_unlock(&first_lock);
	return arg;
}

__attribute__((noinline)) void *backward(void *arg)
{
	mutex_lock(&second_lock);
	mutex_lock(&first_lock);
	mutex_unlock(&first_lock);
	mutex_unlock(&second_lock);
	return arg;
}

int main(void)
{
	pthread_t t;

	pthread_create(&t, NULL, forward, NULL);
	pthread_join(t, NULL);
	pthread_create(&t, NULL, backward, NULL);
	pthread_join(t, NULL);
	printf("done\n");
	return 0;
}
EOF

# --- (a) the builds do not mix ----------------------------------------------
$CC -std=gnu11 -c -DKMUTEX_DEBUG -Iinclude "$tmp/abba.c" -o "$tmp/abba-debug.o" ||
	bad "abba.c does not compile for the debug build"
$CC -std=gnu11 -c -Iinclude "$tmp/abba.c" -o "$tmp/abba-prod.o" ||
	bad "abba.c does not compile for the production build"
if $CC "$tmp/abba-debug.o" "$B/libkmutex.a" -pthread -o "$tmp/mix1" \
	> "$tmp/mix1.log" 2>&1; then
	bad "a debug object links with the production library"
elif ! grep -q kmutex_abi_debug_build_v1 "$tmp/mix1.log"; then
	bad "debug object + production library failed, not on the marker"
else
	echo "debug object + libkmutex.a: refused on kmutex_abi_debug_build_v1"
fi
if $CC "$tmp/abba-prod.o" "$B/libkmutex-debug.a" -pthread -o "$tmp/mix2" \
	> "$tmp/mix2.log" 2>&1; then
	bad "a production object links with the debug library"
elif ! grep -q kmutex_abi_production_build_v1 "$tmp/mix2.log"; then
	bad "production object + debug library failed, not on the marker"
else
	echo "production object + libkmutex-debug.a: refused on kmutex_abi_production_build_v1"
fi
if $CC "$tmp/abba-prod.o" "-L$B" -lkmutex-debug -pthread -o "$tmp/mix3" \
	> "$tmp/mix3.log" 2>&1; then
	bad "a production object links with libkmutex-debug.so"
fi

# run NAME LIBPATH: the report, the names, going on, and the abort.
check_run() {
	local name=$1 libpath=$2 out rc
	out=$(LD_LIBRARY_PATH=$libpath timeout 60 "${RUN[@]}" "$tmp/$name" 2>&1)
	rc=$?
	[ $rc = 0 ] || bad "$name: exit $rc"
	for want in "WARNING: possible circular locking dependency detected" \
		    '"first_lock"' '"second_lock"' "forward+" "backward+" done; do
		case $out in
		*"$want"*) ;;
		*) bad "$name: no '$want' in:"; echo "$out" | head -n 40 | sed 's/^/    /' ;;
		esac
	done
	# In $(...), so that bash does not announce the abort.
	rc=$(LD_LIBRARY_PATH=$libpath KMUTEX_DEBUG=abort timeout 60 \
		"${RUN[@]}" "$tmp/$name" > "$tmp/$name.abort" 2>&1; echo $?)
	[ $rc = 134 ] || bad "$name: KMUTEX_DEBUG=abort: exit $rc, not SIGABRT (134)"
	! grep -q '^done' "$tmp/$name.abort" || bad "$name: went on after abort"
	echo "$name: reported, went on; aborted under KMUTEX_DEBUG=abort"
}

build() {	# NAME LINKAGE ARGS...
	local name=$1 linkage=$2
	shift 2
	if ! $CC -std=gnu11 -Wall -Wextra -Werror "$tmp/abba.c" "$@" \
		-o "$tmp/$name" > "$tmp/$name.log" 2>&1; then
		bad "$name: does not build: $CC $*"
		sed 's/^/    /' "$tmp/$name.log" | head -n 10
		return 1
	fi
	if readelf -d "$tmp/$name" | grep -q 'NEEDED.*libkmutex-debug.so.0'; then
		[ "$linkage" = shared ] || bad "$name: linked against the .so"
	else
		[ "$linkage" = static ] || bad "$name: not linked against libkmutex-debug.so.0"
	fi
}

# --- (b) installed, found with pkg-config -------------------------------------
if command -v pkg-config > /dev/null; then
	stage=$tmp/stage
	if ! make -s --no-print-directory install PREFIX=/usr DESTDIR="$stage" \
		CC="$CC" B="$B" > "$tmp/install.log" 2>&1; then
		bad "make install failed"
		tail -n 10 "$tmp/install.log"
		exit 1
	fi
	# The .pc files were made for this PREFIX: do not leave them to a
	# later install with another (they do not depend on PREFIX).
	rm -f "$B/kmutex.pc" "$B/kmutex-debug.pc"
	for f in usr/lib/libkmutex-debug.a usr/lib/libkmutex-debug.so.0 \
		usr/lib/pkgconfig/kmutex-debug.pc \
		usr/include/kmutex/kmutex/debug_signal.h; do
		[ -e "$stage/$f" ] || bad "not installed: /$f"
	done
	export PKG_CONFIG_SYSROOT_DIR=$stage
	export PKG_CONFIG_LIBDIR=$stage/usr/lib/pkgconfig
	if ! flags=$(pkg-config --cflags --libs kmutex-debug 2>&1); then
		bad "pkg-config --cflags --libs kmutex-debug: $flags"
	else
		echo "pkg-config: $flags"
		# shellcheck disable=SC2086
		build pc-shared shared $flags && check_run pc-shared "$stage/usr/lib"
		cflags=$(pkg-config --cflags kmutex-debug)
		libs=$(pkg-config --libs-only-other kmutex-debug)
		# Libs.private: -ldw when the library was built with libdw.
		private=$(pkg-config --static --libs-only-l kmutex-debug |
			  sed 's/-lkmutex-debug//')
		# shellcheck disable=SC2086
		build pc-static static $cflags "$stage/usr/lib/libkmutex-debug.a" \
			$libs -ldl $private && check_run pc-static ""
	fi
	unset PKG_CONFIG_SYSROOT_DIR PKG_CONFIG_LIBDIR
else
	echo "pkg-config not installed: (b) not checked"
fi

# --- (c) in-tree ------------------------------------------------------------------
intree="-pthread -ldl -rdynamic -Wl,--wrap=sigaction -Wl,--wrap=signal"
# What the library was built with beyond libc (-ldw): the Makefile's.
intree="$intree $(cat "$B/debug/libs" 2>/dev/null)"
# shellcheck disable=SC2086
build in-tree static -DKMUTEX_DEBUG -fno-optimize-sibling-calls -funwind-tables \
	-Iinclude "$B/libkmutex-debug.a" $intree &&
	check_run in-tree ""

# --- (d) no kmutex header at all -----------------------------------------------
cat > "$tmp/plain.c" <<'EOF'
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static volatile sig_atomic_t got;

static void on_usr1(int sig)
{
	got = sig;
}

int main(void)
{
	struct sigaction sa, old;
	char *p = malloc(32);

	if (!p)
		return 1;
	strcpy(p, "freed");
	free(p);
	if (signal(SIGUSR1, on_usr1) == SIG_ERR)
		return 2;
	raise(SIGUSR1);
	if (got != SIGUSR1)
		return 3;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	got = 0;
	if (sigaction(SIGUSR2, &sa, &old) != 0)
		return 4;
	raise(SIGUSR2);
	if (got != SIGUSR2)
		return 5;
	if (sigaction(SIGUSR2, NULL, &old) != 0 || old.sa_handler != on_usr1)
		return 6;
	printf("plain done\n");
	return 0;
}
EOF
wrapflags="-pthread -ldl -rdynamic -Wl,--wrap=sigaction -Wl,--wrap=signal -Wl,--wrap=free"
for linkage in static shared; do
	if [ $linkage = static ]; then
		lib="$B/libkmutex-debug.a $(cat "$B/debug/libs" 2>/dev/null)"
	else
		lib="-L$B -Wl,--no-as-needed -lkmutex-debug"
	fi
	# shellcheck disable=SC2086
	if ! $CC -std=gnu11 -Wall -Wextra -Werror "$tmp/plain.c" $lib \
		$wrapflags -o "$tmp/plain-$linkage" > "$tmp/plain.log" 2>&1; then
		bad "no kmutex header, $linkage: does not link"
		sed 's/^/    /' "$tmp/plain.log" | head -n 10
		continue
	fi
	out=$(LD_LIBRARY_PATH=$B timeout 60 "$tmp/plain-$linkage" 2>&1)
	rc=$?
	if [ $rc != 0 ] || [ "$out" != "plain done" ]; then
		bad "no kmutex header, $linkage: exit $rc: $out"
	else
		echo "no kmutex header, $linkage: links with kmutex-debug's flags, runs"
	fi
done

exit $fail
