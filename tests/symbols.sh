#!/usr/bin/env bash
# symbols.sh - the library's link-level contract (docs/API.md, "How a
# program finds it"):
#   - libkmutex.so (and libkmutex-debug.so, when built) exports only
#     kmutex_* and __kmutex_* (plus the version node KMUTEX_1), and has
#     a SONAME;
#   - the .a archives define no other global names either: a static
#     link must not clash with a program's own functions of those names;
#   - a program compiled for the debugging build (-DKMUTEX_DEBUG) does
#     not build against the production library (today <linux/mutex.h>
#     refuses it with #error; the ABI marker makes the link fail too).
# Run from the source root with CC and B (the build dir) set.
. tests/lib.sh || exit 1
list() { tr '\n' ' ' < "$1"; }

NM=${NM:-nm}		# the target's (make test-aarch64 sets them)
READELF=${READELF:-readelf}
for tool in "$NM" "$READELF"; do
	command -v $tool > /dev/null ||
		{ echo "SKIP: $tool not installed"; exit 77; }
done
for f in libkmutex.so libkmutex.a; do
	[ -f "$B/$f" ] || { echo "FAIL: no $B/$f (run make)"; exit 1; }
done

# Names that may be global: kmutex_... and __kmutex_...; the debugging
# library also has the targets of its link flags' --wrap (they must be
# in the library: a program whose objects include no kmutex header links
# with those flags too).
prefixed='^(__)?kmutex_'
wrapped='^__wrap_(free|signal|sigaction)$'

allowed() {	# LIB: the pattern of the names LIB may define
	case $1 in
	libkmutex-debug) echo "$prefixed|$wrapped" ;;
	*) echo "$prefixed" ;;
	esac
}

# --- the shared libraries ---------------------------------------------------
check_shared() {	# NAME (libkmutex, libkmutex-debug)
	local so=$B/$1.so soname
	"$NM" -D --defined-only "$so" > "$tmp/dyn" || bad "nm -D $so failed"
	# "ADDR TYPE NAME[@@VERSION]"; the version node is an absolute symbol.
	awk '$2 != "A" { sub(/@.*/, "", $3); print $3 }' "$tmp/dyn" |
		sort -u > "$tmp/dyn.names"
	grep -qx kmutex_mutex_lock_slowpath "$tmp/dyn.names" ||
		grep -q '^kmutex_debug_' "$tmp/dyn.names" ||
		bad "$1.so lacks the kmutex_ entry points (nm output?)"
	if grep -Ev "$(allowed "$1")" "$tmp/dyn.names" > "$tmp/dyn.bad"; then
		bad "$1.so exports names without the kmutex_ prefix:" \
			"$(list "$tmp/dyn.bad")"
	else
		echo "$1.so exports $(wc -l < "$tmp/dyn.names") names," \
			"all kmutex_*"
	fi
	awk '$2 == "A" { print $3 }' "$tmp/dyn" | grep -vx KMUTEX_1 \
		> "$tmp/dyn.abs" && bad "$1.so: unexpected absolute symbols:" \
			"$(list "$tmp/dyn.abs")"

	soname=$("$READELF" -d "$so" | sed -n 's/.*(SONAME).*\[\(.*\)\].*/\1/p')
	case $soname in
	"$1".so.[0-9]*)
		echo "$1.so: SONAME $soname"
		[ -e "$B/$soname" ] || bad "no $B/$soname for SONAME $soname" ;;
	*)	bad "$1.so has no proper SONAME (got '$soname')" ;;
	esac
}

# --- the static libraries ---------------------------------------------------
# Hidden visibility hides nothing from a static link: every global name
# in an archive is one that a program linked with it may not define.
check_static() {	# NAME
	local ar=$B/$1.a name
	"$NM" -g --defined-only "$ar" 2> /dev/null |
		awk 'NF == 3 { print $3 }' | sort -u > "$tmp/ar.names"
	grep -q '^kmutex_' "$tmp/ar.names" ||
		bad "$1.a has no kmutex_ names (nm output?)"
	if ! grep -Ev "$(allowed "$1")" "$tmp/ar.names" > "$tmp/ar.bad"; then
		echo "$1.a defines $(wc -l < "$tmp/ar.names") global names," \
			"all kmutex_*"
		return
	fi
	bad "$1.a defines global names without the kmutex_ prefix, which" \
		"clash with a program's own in a static link:" \
		"$(list "$tmp/ar.bad")"
	# Show the clash itself, with the first such name (production).
	[ "$1" = libkmutex ] || return
	name=$(head -n 1 "$tmp/ar.bad")
	cat > "$tmp/clash.c" <<-EOF
	#include <linux/mutex.h>
	static DEFINE_MUTEX(m);
	void $name(void);
	void $name(void) { }	/* the program's own, same name */
	int main(void)
	{
		mutex_lock(&m);
		mutex_unlock(&m);
		$name();
		return 0;
	}
	EOF
	if ! $CC -Iinclude "$tmp/clash.c" "$B/libkmutex.a" -pthread \
		-o "$tmp/clash" > "$tmp/clash.log" 2>&1; then
		echo "    so a program with its own $name() does not link:"
		grep -m 2 -i 'multiple definition\|duplicate' \
			"$tmp/clash.log" | sed 's/^/    /'
	fi
}

for lib in libkmutex libkmutex-debug; do
	if [ ! -f "$B/$lib.so" ] && [ "$lib" = libkmutex-debug ]; then
		echo "(no $lib built: not checked)"
		continue
	fi
	check_shared $lib
	check_static $lib
done
if [ -f "$B/libkmutex-debug.so" ]; then
	for f in "$B/libkmutex-debug.so" "$B/libkmutex-debug.a"; do
		for w in free signal sigaction; do
			nm -g --defined-only "$f" 2> /dev/null |
				grep -q " T __wrap_$w\(@.*\)\?\$" ||
				bad "$f does not define __wrap_$w"
		done
	done
fi

# --- a debug-build program against the production library ----------------
cat > "$tmp/prog.c" <<'EOF'
#include <linux/mutex.h>
static DEFINE_MUTEX(m);
int main(void) { mutex_lock(&m); mutex_unlock(&m); return 0; }
EOF
# Control: the same program builds without -DKMUTEX_DEBUG.
$CC -Iinclude "$tmp/prog.c" "$B/libkmutex.a" -pthread -o "$tmp/prog" \
	> "$tmp/prog.log" 2>&1 ||
	bad "the control program does not build: $(head -n 3 "$tmp/prog.log")"
for lib in "$B/libkmutex.a" "-L$B -lkmutex"; do
	# shellcheck disable=SC2086
	if $CC -DKMUTEX_DEBUG -Iinclude "$tmp/prog.c" $lib -pthread \
		-o "$tmp/prog.debug" > "$tmp/debug.log" 2>&1; then
		bad "a -DKMUTEX_DEBUG program builds against the" \
			"production library ($lib)"
	else
		echo "-DKMUTEX_DEBUG against $lib refused:" \
			"$(grep -m 1 -E '#error|kmutex_abi_debug_build|error' \
				"$tmp/debug.log")"
	fi
done
# The ABI marker alone (what stays once a debug build exists): a unit
# compiled for the debug build refers to a symbol only a debug library
# defines, so the link fails even if no kmutex function is called.
cat > "$tmp/marker.c" <<'EOF'
#include <kmutex/compiler.h>
int main(void) { return 0; }
EOF
if $CC -DKMUTEX_DEBUG -Iinclude "$tmp/marker.c" "$B/libkmutex.a" \
	-pthread -o "$tmp/marker" > "$tmp/marker.log" 2>&1; then
	bad "a unit compiled with -DKMUTEX_DEBUG links against the" \
		"production library"
elif ! grep -q kmutex_abi_debug_build "$tmp/marker.log"; then
	bad "the debug/production mix failed, but not on the ABI marker:" \
		"$(head -n 3 "$tmp/marker.log")"
else
	echo "ABI marker: $(grep -m 1 'undefined reference' "$tmp/marker.log")"
fi
$CC -Iinclude "$tmp/marker.c" "$B/libkmutex.a" -pthread -o "$tmp/marker" \
	> "$tmp/marker.log" 2>&1 ||
	bad "the production marker does not link:" \
		"$(head -n 3 "$tmp/marker.log")"

exit $fail
