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
# (found in review).  Then B is unloaded, its file replaced by C (the
# same code with fn_gamma) and loaded again from the same path, which
# libdw's list of modules would keep with B's data: C's report must
# name fn_gamma.  Run from the source root with CC and B set.
. tests/lib.sh || exit 1
need_debug_build

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
static DEFINE_MUTEX(a3);
static DEFINE_MUTEX(b3);

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

static void order(struct mutex *a, struct mutex *b)
{
	mutex_lock(a);
	mutex_lock(b);
	mutex_unlock(b);
	mutex_unlock(a);
}

/* argv: A, B, and C to be moved over B. */
int main(int argc, char **argv)
{
	void *h;

	(void)argc;
	order(&a1, &b1);
	order(&a2, &b2);
	order(&a3, &b3);
	h = run(argv[1], &a1, &b1);
	if (!h || dlclose(h))
		return 2;
	h = run(argv[2], &a2, &b2);
	if (!h || dlclose(h) || rename(argv[3], argv[2]))
		return 3;
	h = run(argv[2], &a3, &b3);
	if (!h)
		return 4;
	printf("main done\n");
	return 0;
}
C

CF=(-std=gnu11 -D_GNU_SOURCE -Iinclude -pthread -DKMUTEX_DEBUG
    -fno-optimize-sibling-calls -O1)
ok=1
for p in a:fn_alpha b:fn_omega c:fn_gamma; do
	$CC "${CF[@]}" -DFN=${p#*:} -shared -fPIC "$tmp/plugin.c" \
		-o "$tmp/${p%%:*}.so" -L"$B" -lkmutex-debug || ok=0
done
$CC "${CF[@]}" "$tmp/main.c" -o "$tmp/main" -L"$B" -lkmutex-debug -ldl ||
	ok=0
if [ $ok = 0 ]; then
	echo "FAIL: could not build the programs"
	exit 1
fi
out=$(KMUTEX_DEBUG= LD_LIBRARY_PATH="$B${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
	timeout 60 "${RUN[@]}" "$tmp/main" "$tmp/a.so" "$tmp/b.so" \
	"$tmp/c.so" 2>&1)
rc=$?
echo "$out"
if [ $rc != 0 ] || ! grep -q "^main done$" <<< "$out"; then
	echo "FAIL: exit $rc, not a clean end"
	fail=1
fi
# Each report (what follows its "loaded at" line) names its plugin's
# function, and no other's.
n=0
for fn in fn_alpha fn_omega fn_gamma; do
	n=$((n + 1))
	r=$(awk -v k=$n '/^loaded at/ { n++ } n == k' <<< "$out")
	if ! grep -q "possible circular locking dependency" <<< "$r"; then
		echo "FAIL: no report after load $n"
		fail=1
	fi
	if ! grep -q "$fn+0x" <<< "$r" ||
	   [ "$(grep -o 'fn_[a-z]*+0x' <<< "$r" | sort -u)" != "$fn+0x" ]
	then
		echo "FAIL: report $n does not name $fn (only)"
		fail=1
	fi
done
bases=$(grep "^loaded at" <<< "$out" | sort -u | wc -l)
if [ "$bases" != 1 ]; then
	echo "SKIP: the plugins were not all loaded at one address: the" \
	     "stale caches were not put to the test"
fi
exit $fail
