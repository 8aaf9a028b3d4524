#!/usr/bin/env bash
# install_pkgconfig.sh - a program finds kmutex the documented ways
# (docs/API.md, "How a program finds it"; README, "Building against it"):
#   - `make install PREFIX=/usr DESTDIR=$tmp` stages headers, libraries,
#     kmutex.pc and the man pages;
#   - `pkg-config --cflags --libs kmutex` (pointed at the staging dir)
#     builds a program that uses <linux/mutex.h> and <linux/cleanup.h>,
#     linked against the shared library and, with the .a, statically;
#   - the installed kmutex.pc names the PREFIX of that install, also
#     when an earlier install used another PREFIX;
#   - README's way for PREFIX=$HOME/x (no DESTDIR): PKG_CONFIG_PATH,
#     -Wl,-rpath and the static .a build examples/hello.c, which runs
#     without LD_LIBRARY_PATH; man -M finds an alias page; make
#     uninstall leaves no file;
#   - in-tree: `-Iinclude build/libkmutex.a -pthread`, and the shared
#     library with `-Lbuild -lkmutex`.
# Each program runs and must print the right total.
# Run from the source root with CC and B (the build dir) set.
. tests/lib.sh || exit 1
# The .pc files made for this test's PREFIXes must not be left for a
# later "make install" with another one (see the second install below):
# this trap replaces lib.sh's, which removes $tmp only.
trap 'rm -rf "$tmp" "$B/kmutex.pc" "$B/kmutex-debug.pc"' EXIT

command -v pkg-config > /dev/null ||
	{ echo "SKIP: pkg-config not installed"; exit 77; }

cat > "$tmp/example.c" <<'EOF'
/* Kernel-style code, unchanged: DEFINE_MUTEX, guard, scoped_guard. */
#include <linux/cleanup.h>
#include <linux/mutex.h>
#include <pthread.h>
#include <stdio.h>

#define THREADS	4
#define LOOPS	100000

static DEFINE_MUTEX(lock);
static long counter;

static void *work(void *arg)
{
	for (int i = 0; i < LOOPS; i++) {
		if (i & 1) {
			guard(mutex)(&lock);
			counter++;
		} else {
			scoped_guard(mutex, &lock)
				counter++;
		}
	}
	return arg;
}

int main(void)
{
	pthread_t t[THREADS];
	struct mutex dyn;

	mutex_init(&dyn);
	if (mutex_lock_interruptible(&dyn) || !mutex_is_locked(&dyn))
		return 2;
	mutex_unlock(&dyn);
	for (int i = 0; i < THREADS; i++)
		pthread_create(&t[i], NULL, work, NULL);
	for (int i = 0; i < THREADS; i++)
		pthread_join(t[i], NULL);
	printf("%ld\n", counter);
	if (counter != (long)THREADS * LOOPS || mutex_is_locked(&lock))
		return 1;
	return 0;
}
EOF
expected=400000

# build_and_run NAME LINKAGE(shared|static) LD_LIBRARY_PATH CC-ARGS...
build_and_run() {
	local name=$1 linkage=$2 libpath=$3 out
	shift 3
	if ! $CC -std=gnu11 -Wall -Wextra -Werror "$tmp/example.c" "$@" \
		-o "$tmp/$name" > "$tmp/$name.log" 2>&1; then
		bad "$name: does not build: $CC $*"
		sed 's/^/    /' "$tmp/$name.log" | head -n 10
		return
	fi
	if readelf -d "$tmp/$name" | grep -q 'NEEDED.*libkmutex'; then
		[ "$linkage" = shared ] ||
			bad "$name: needs libkmutex.so: not linked statically"
	else
		[ "$linkage" = static ] ||
			bad "$name: not linked against libkmutex.so"
	fi
	out=$(LD_LIBRARY_PATH=$libpath timeout 60 "${RUN[@]}" "$tmp/$name" 2>&1)
	if [ $? != 0 ] || [ "$out" != $expected ]; then
		bad "$name: ran wrong: '$out' (expected $expected)"
	else
		echo "$name ($linkage): ok"
	fi
}

# --- installed, found with pkg-config ---------------------------------------
stage=$tmp/stage
if ! make -s --no-print-directory install PREFIX=/usr DESTDIR="$stage" \
	CC="$CC" B="$B" > "$tmp/install.log" 2>&1; then
	bad "make install PREFIX=/usr DESTDIR=... failed"
	sed 's/^/    /' "$tmp/install.log" | tail -n 10
	exit 1
fi
for f in include/kmutex/linux/mutex.h include/kmutex/linux/cleanup.h \
	lib/libkmutex.a lib/pkgconfig/kmutex.pc; do
	[ -f "$stage/usr/$f" ] || bad "not installed: /usr/$f"
done
ls "$stage"/usr/lib/libkmutex.so.* > /dev/null 2>&1 ||
	bad "not installed: /usr/lib/libkmutex.so.N"

# Man pages: every page in the tree, installed under man3.
pages=$(ls man/man3/*.3 2>/dev/null | wc -l)
if [ "$pages" -gt 0 ]; then
	for p in man/man3/*.3; do
		cmp -s "$p" "$stage/usr/share/man/man3/${p##*/}" ||
			bad "not installed: /usr/share/man/man3/${p##*/}"
	done
	echo "man pages: $pages installed"
fi

export PKG_CONFIG_SYSROOT_DIR=$stage
export PKG_CONFIG_PATH=$stage/usr/lib/pkgconfig
export PKG_CONFIG_LIBDIR=$stage/usr/lib/pkgconfig	# no system .pc files
if ! flags=$(pkg-config --cflags --libs kmutex 2>&1); then
	bad "pkg-config --cflags --libs kmutex: $flags"
else
	echo "pkg-config: $flags"
	# shellcheck disable=SC2086
	build_and_run pkgconfig-shared shared "$stage/usr/lib" $flags
	# Static: the archive named explicitly, flags from --static.
	cflags=$(pkg-config --cflags kmutex)
	libs=$(pkg-config --static --libs-only-other kmutex)
	# shellcheck disable=SC2086
	build_and_run pkgconfig-static static "" $cflags \
		"$stage/usr/lib/libkmutex.a" $libs
fi
# The debugging build, once it installs its .pc: the same correct
# program must build unchanged and run without a report.
if [ -f "$stage/usr/lib/pkgconfig/kmutex-debug.pc" ]; then
	if ! flags=$(pkg-config --cflags --libs kmutex-debug 2>&1); then
		bad "pkg-config --cflags --libs kmutex-debug: $flags"
	else
		# shellcheck disable=SC2086
		build_and_run pkgconfig-debug shared "$stage/usr/lib" $flags
	fi
else
	echo "(no kmutex-debug.pc installed yet: debug build not checked)"
fi
unset PKG_CONFIG_SYSROOT_DIR PKG_CONFIG_PATH PKG_CONFIG_LIBDIR

# --- a second install, with another PREFIX --------------------------------
# The .pc is generated from kmutex.pc.in with PREFIX substituted; an
# install with a new PREFIX must not install the one made for the last.
check_pc() {	# STAGE PREFIX
	local pc line missing
	for pc in "$1$2"/lib/pkgconfig/*.pc; do
		missing=
		for line in prefix=$2 libdir=$2/lib \
			includedir=$2/include/kmutex; do
			grep -qx "$line" "$pc" || missing+="$line "
		done
		[ -z "$missing" ] ||
			bad "make install PREFIX=$2 installed a ${pc##*/}" \
				"without: $missing(it has:" \
				"$(grep -E '^(prefix|.*dir)=' "$pc" |
					tr '\n' ' '))"
	done
}
check_pc "$stage" /usr
stage2=$tmp/stage2
if make -s --no-print-directory install PREFIX=/opt/kmutex DESTDIR="$stage2" \
	CC="$CC" B="$B" > "$tmp/install2.log" 2>&1; then
	[ -f "$stage2/opt/kmutex/lib/libkmutex.a" ] ||
		bad "PREFIX=/opt/kmutex: libkmutex.a not under /opt/kmutex/lib"
	check_pc "$stage2" /opt/kmutex
else
	bad "make install PREFIX=/opt/kmutex DESTDIR=... failed"
	sed 's/^/    /' "$tmp/install2.log" | tail -n 10
fi

# --- README's way for a prefix of one's own --------------------------------
# `make install PREFIX=$HOME/x`, no DESTDIR: README's commands, as a
# newcomer types them, build examples/hello.c so that it runs without
# LD_LIBRARY_PATH (-Wl,-rpath) and statically; `man -M $PREFIX/share/man`
# shows an alias page; `make uninstall` with the same PREFIX leaves no
# file behind.
# hello_run NAME LINKAGE CC-ARGS...: build examples/hello.c, run it.
hello_run() {
	local name=$1 linkage=$2 out
	shift 2
	if ! $CC examples/hello.c "$@" -o "$tmp/$name" > "$tmp/$name.log" 2>&1
	then
		bad "$name: does not build: $CC examples/hello.c $*"
		sed 's/^/    /' "$tmp/$name.log" | head -n 10
		return
	fi
	if readelf -d "$tmp/$name" | grep -q 'NEEDED.*libkmutex'; then
		[ "$linkage" = shared ] || bad "$name: not linked statically"
	else
		[ "$linkage" = static ] || bad "$name: not linked against libkmutex.so"
	fi
	if ! out=$(env -u LD_LIBRARY_PATH timeout 60 "${RUN[@]}" \
		"$tmp/$name" 2>&1) || [ "$out" != 4000000 ]; then
		bad "$name: ran wrong: '$out' (expected 4000000)"
	else
		echo "$name ($linkage): ok"
	fi
}
px=$tmp/x
if make -s --no-print-directory install PREFIX="$px" CC="$CC" B="$B" \
	> "$tmp/install3.log" 2>&1; then
	export PKG_CONFIG_PATH=$px/lib/pkgconfig
	libdir=$(pkg-config --variable=libdir kmutex)
	[ "$libdir" = "$px/lib" ] ||
		bad "PKG_CONFIG_PATH=\$PREFIX/lib/pkgconfig: libdir is '$libdir'"
	# shellcheck disable=SC2046
	hello_run prefix-rpath shared $(pkg-config --cflags --libs kmutex) \
		"-Wl,-rpath,$libdir"
	# shellcheck disable=SC2046
	hello_run prefix-static static $(pkg-config --cflags kmutex) \
		"$libdir/libkmutex.a" $(pkg-config --static --libs-only-other kmutex)
	unset PKG_CONFIG_PATH
	if command -v man > /dev/null && command -v groff > /dev/null; then
		MANPAGER="cat" man -M "$px/share/man" guard 2>&1 |
			grep -q 'scoped_guard' ||
			bad "man -M \$PREFIX/share/man guard: no page shown"
	else
		echo "SKIP: man -M \$PREFIX/share/man guard (man or groff not installed)"
	fi
	make -s --no-print-directory uninstall PREFIX="$px" CC="$CC" B="$B" \
		> "$tmp/uninstall.log" 2>&1 || bad "make uninstall PREFIX=... failed"
	left=$(find "$px" ! -type d | head -n 5 | tr '\n' ' ')
	[ -z "$left" ] || bad "make uninstall left files behind: $left"
else
	bad "make install PREFIX=\$tmp/x failed"
	sed 's/^/    /' "$tmp/install3.log" | tail -n 10
fi

# --- in-tree, without installing --------------------------------------------
build_and_run in-tree-static static "" -Iinclude "$B/libkmutex.a" -pthread
build_and_run in-tree-shared shared "$B" -Iinclude "-L$B" -lkmutex -pthread

exit $fail
