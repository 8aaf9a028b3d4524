#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# debug_dlclose_symbols - a report's backtrace names the functions of a
# plugin loaded where an unloaded one was.  The debugging build names
# static functions from the object's symbol table (src/debug/
# symbolize.c), cached by load address.  Plugin A's static fn_alpha()
# closes a lock-order cycle: its report names fn_alpha.  A is unloaded
# and plugin B, the same code with fn_omega, loaded (at A's address, as
# a rule: the test says when not).  B's fn_omega closes another cycle:
# its report must name fn_omega, where the stale cache named fn_alpha
# (found in review).  Run from the source root with CC and B set.
set -u
CC=${CC:-cc}
B=${B:-build}
RUN=()
[ -z "${KMUTEX_ARCH:-}" ] || read -r -a RUN <<< "${KMUTEX_TEST_WRAPPER:-}"
if [ ! -f "$B/libkmutex-debug.so" ]; then
	echo "SKIP: no debugging build in $B (DEBUG_BUILD=no)"
	exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cat > "$tmp/plugin.c" <<'C'
#include <linux/mutex.h>

/* Static: named from the symbol table only.  Takes b, then a. */
static __attribute__((noinline)) void FN(struct mutex *a, struct mutex *b)
{
	mutex_lock(b);
	mutex_lock(a);
	mutex_unlock(a);
	mutex_unlock(b);
}

__attribute__((visibility("default")))
void plugin_entry(struct mutex *a, struct mutex *b)
{
	FN(a, b);
	__asm__ volatile("" ::: "memory");	/* not a tail call */
}
C
cat > "$tmp/main.c" <<'C'
#include <dlfcn.h>
#include <stdio.h>
#include <linux/mutex.h>

static DEFINE_MUTEX(a1);
static DEFINE_MUTEX(b1);
static DEFINE_MUTEX(a2);
static DEFINE_MUTEX(b2);

static void *run(const char *path, struct mutex *a, struct mutex *b)
{
	void (*entry)(struct mutex *, struct mutex *);
	void *h = dlopen(path, RTLD_NOW);
	Dl_info info;

	if (!h || !(entry = dlsym(h, "plugin_entry"))) {
		printf("dlopen: %s\n", dlerror());
		return NULL;
	}
	dladdr((void *)entry, &info);
	printf("loaded at %p\n", info.dli_fbase);
	fflush(stdout);
	entry(a, b);		/* b -> a closes the cycle */
	fflush(stderr);
	return h;
}

int main(int argc, char **argv)
{
	void *h;

	(void)argc;
	mutex_lock(&a1);	/* a1 -> b1, a2 -> b2 */
	mutex_lock(&b1);
	mutex_unlock(&b1);
	mutex_unlock(&a1);
	mutex_lock(&a2);
	mutex_lock(&b2);
	mutex_unlock(&b2);
	mutex_unlock(&a2);
	h = run(argv[1], &a1, &b1);
	if (!h || dlclose(h))
		return 2;
	h = run(argv[2], &a2, &b2);
	if (!h)
		return 3;
	printf("main done\n");
	return 0;
}
C

CF=(-std=gnu11 -D_GNU_SOURCE -Iinclude -pthread -DKMUTEX_DEBUG
    -fno-optimize-sibling-calls -O1)
ok=1
for fn in fn_alpha fn_omega; do
	$CC "${CF[@]}" -DFN=$fn -shared -fPIC "$tmp/plugin.c" \
		-o "$tmp/$fn.so" -L"$B" -lkmutex-debug || ok=0
done
$CC "${CF[@]}" "$tmp/main.c" -o "$tmp/main" -L"$B" -lkmutex-debug -ldl ||
	ok=0
if [ $ok = 0 ]; then
	echo "FAIL: could not build the programs"
	exit 1
fi
out=$(KMUTEX_DEBUG= LD_LIBRARY_PATH="$B${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
	timeout 60 "${RUN[@]}" "$tmp/main" "$tmp/fn_alpha.so" \
	"$tmp/fn_omega.so" 2>&1)
rc=$?
echo "$out"
fail=0
if [ $rc != 0 ] || ! grep -q "^main done$" <<< "$out"; then
	echo "FAIL: exit $rc, not a clean end"
	fail=1
fi
# The two reports: what follows each "loaded at" line.
first=$(awk '/^loaded at/ { n++ } n == 1' <<< "$out")
second=$(awk '/^loaded at/ { n++ } n == 2' <<< "$out")
for r in first second; do
	if ! grep -q "possible circular locking dependency" <<< "${!r}"; then
		echo "FAIL: no report after the $r load"
		fail=1
	fi
done
if ! grep -q "fn_alpha" <<< "$first"; then
	echo "FAIL: the first report does not name fn_alpha"
	fail=1
fi
if ! grep -q "fn_omega" <<< "$second" || grep -q "fn_alpha" <<< "$second"
then
	echo "FAIL: the second report does not name fn_omega (only)"
	fail=1
fi
bases=$(grep "^loaded at" <<< "$out" | sort -u | wc -l)
[ "$bases" = 1 ] || echo "note: B was not loaded at A's address"
exit $fail
