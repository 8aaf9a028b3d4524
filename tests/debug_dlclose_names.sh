#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# debug_dlclose_names - the debugging build names a plugin's locks after
# the plugin is unloaded.  A plugin (linked with the shared debugging
# library, which the program keeps loaded) takes its own lock between
# two of the program's: the checker records the plugin's class and the
# dependencies first -> plugin_lock -> second and first -> second,
# whose calls are string literals in the plugin.  After dlclose()
# the program takes its two locks the other way round: the cycle report
# prints those dependencies, and at exit the lock statistics
# (KMUTEX_STAT) print the plugin's class.  Both read the plugin's strings
# (found in review: SIGSEGV at exit), so the checker keeps copies
# (src/debug/strs.c).  Run from the source root with CC and B set.
. tests/lib.sh || exit 1
need_debug_build

cat > "$tmp/plugin.c" <<'C'
#include <linux/mutex.h>

static DEFINE_MUTEX(plugin_lock);

__attribute__((visibility("default")))
void plugin_use(struct mutex *a, struct mutex *b)
{
	mutex_lock(a);
	mutex_lock(&plugin_lock);	/* a -> plugin_lock */
	mutex_lock(b);			/* plugin_lock -> b */
	mutex_unlock(b);
	mutex_unlock(&plugin_lock);
	mutex_unlock(a);
}
C
cat > "$tmp/main.c" <<'C'
#include <dlfcn.h>
#include <stdio.h>
#include <linux/mutex.h>

static DEFINE_MUTEX(first);
static DEFINE_MUTEX(second);

int main(int argc, char **argv)
{
	void (*use)(struct mutex *, struct mutex *);
	void *h = dlopen(argv[argc - 1], RTLD_NOW);

	if (!h) {
		printf("dlopen: %s\n", dlerror());
		return 2;
	}
	use = (void (*)(struct mutex *, struct mutex *))dlsym(h, "plugin_use");
	if (!use)
		return 3;
	use(&first, &second);
	if (dlclose(h))
		return 4;
	/* second -> first closes first -> plugin_lock -> second. */
	mutex_lock(&second);
	mutex_lock(&first);
	mutex_unlock(&first);
	mutex_unlock(&second);
	printf("main done\n");
	return 0;
}
C

CF=(-std=gnu11 -D_GNU_SOURCE -Iinclude -pthread -DKMUTEX_DEBUG
    -fno-optimize-sibling-calls)
if ! $CC "${CF[@]}" -shared -fPIC "$tmp/plugin.c" -o "$tmp/plugin.so" \
	-L"$B" -lkmutex-debug ||
   ! $CC "${CF[@]}" "$tmp/main.c" -o "$tmp/main" -L"$B" -lkmutex-debug -ldl
then
	echo "FAIL: could not build the programs"
	exit 1
fi
out=$(KMUTEX_STAT="$tmp/stat.txt" KMUTEX_STAT_FORMAT= KMUTEX_DEBUG= \
	LD_LIBRARY_PATH="$B${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
	timeout 60 "${RUN[@]}" "$tmp/main" "$tmp/plugin.so" 2>&1)
rc=$?
echo "$out"
if [ $rc != 0 ] || ! grep -q "^main done$" <<< "$out"; then
	echo "FAIL: exit $rc, not a clean end"
	fail=1
fi
if ! grep -q "possible circular locking dependency detected" <<< "$out"
then
	echo "FAIL: no cycle report"
	fail=1
fi
# The cycle's older link, first -> second, made in the plugin (its
# call's text is the plugin's).
for want in 'taking "second" while holding "first"' \
	    'by mutex_lock(b) at .*plugin.c:10:'; do
	if ! grep -q "$want" <<< "$out"; then
		echo "FAIL: the cycle report lacks: $want"
		fail=1
	fi
done
echo "--- statistics:"
cat "$tmp/stat.txt" 2>/dev/null
if ! grep -q "^plugin_lock .*plugin.c:3$" "$tmp/stat.txt" 2>/dev/null; then
	echo "FAIL: the statistics lack the plugin's class and init site"
	fail=1
fi
exit $fail
