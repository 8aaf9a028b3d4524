#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# dlclose_plugin - a plugin that uses kmutex is unloaded, then a thread
# that waited through it exits.  The library lists each thread that
# waits (src/waiter.c, for fork()) and unlists it at exit through a
# pthread key's destructor; dlclose() must not leave that destructor
# behind in unmapped code (found in review: SIGSEGV at the thread's
# exit), nor may lock statistics leave theirs (the same crash), nor the
# debugging build its held-locks key, nor may its hung-wait monitor
# thread run on in unmapped code (KMUTEX_DEBUG_HUNG; SIGSEGV at its
# next tick).  The plugin linked with the archive (kmutex inside it)
# and with the shared library (unloaded with the plugin), each with
# statistics off and on, and the same two against the debugging build
# when it was built, also with the monitor on.
# Run from the source root with CC and B (the build dir) set.
. tests/lib.sh || exit 1

cat > "$tmp/plugin.c" <<'C'
#include <linux/mutex.h>
#include <linux/semaphore.h>

static DEFINE_SEMAPHORE(never, 0);
static DEFINE_MUTEX(lock);

/*
 * A slow-path wait (it times out): this thread is listed, and watched
 * by the debugging build's monitor.  The mutex registers the thread
 * with the debugging build's lock checker.
 */
__attribute__((visibility("default"))) int plugin_wait(void)
{
	mutex_lock(&lock);
	mutex_unlock(&lock);
	return down_timeout(&never, 1);
}
C
cat > "$tmp/main.c" <<'C'
#include <dirent.h>
#include <dlfcn.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static sem_t called, closed;
static int (*plugin_wait)(void);

/* Threads named kmutex-hung: the debugging build's monitor. */
static int monitors(void)
{
	DIR *d = opendir("/proc/self/task");
	struct dirent *e;
	char path[300], name[32];
	int n = 0;

	while (d && (e = readdir(d))) {
		FILE *f;

		snprintf(path, sizeof(path), "/proc/self/task/%s/comm",
			 e->d_name);
		f = fopen(path, "r");
		if (f && fgets(name, sizeof(name), f) &&
		    !strcmp(name, "kmutex-hung\n"))
			n++;
		if (f)
			fclose(f);
	}
	if (d)
		closedir(d);
	return n;
}

static void *waiter(void *arg)
{
	printf("plugin_wait() = %d\n", plugin_wait());
	sem_post(&called);
	sem_wait(&closed);	/* until the plugin is unloaded */
	return arg;		/* exit: the key destructors run */
}

int main(int argc, char **argv)
{
	void *h = dlopen(argc > 1 ? argv[1] : "", RTLD_NOW);
	pthread_t t;

	if (!h) {
		printf("dlopen: %s\n", dlerror());
		return 2;
	}
	plugin_wait = (int (*)(void))dlsym(h, "plugin_wait");
	if (!plugin_wait)
		return 3;
	sem_init(&called, 0, 0);
	sem_init(&closed, 0, 0);
	pthread_create(&t, NULL, waiter, NULL);
	sem_wait(&called);
	printf("monitors: %d\n", monitors());
	dlclose(h);
	sem_post(&closed);
	pthread_join(t, NULL);
	usleep(600000);	/* a monitor left behind ticks meanwhile */
	printf("the thread exited\n");
	return 0;
}
C

CF=(-std=gnu11 -D_GNU_SOURCE -Iinclude -pthread)
$CC "${CF[@]}" "$tmp/main.c" -o "$tmp/main" -ldl || fail=1
$CC "${CF[@]}" -shared -fPIC "$tmp/plugin.c" -o "$tmp/plugin_a.so" \
	-Wl,--whole-archive "$B/libkmutex.a" -Wl,--no-whole-archive || fail=1
$CC "${CF[@]}" -shared -fPIC "$tmp/plugin.c" -o "$tmp/plugin_so.so" \
	-L"$B" -lkmutex || fail=1
plugins="plugin_a plugin_so"
if [ -f "$B/libkmutex-debug.a" ]; then
	DF=(-DKMUTEX_DEBUG -fno-optimize-sibling-calls)
	$CC "${CF[@]}" "${DF[@]}" -shared -fPIC "$tmp/plugin.c" \
		-o "$tmp/debug_a.so" -Wl,--whole-archive \
		"$B/libkmutex-debug.a" -Wl,--no-whole-archive -ldl \
		$(cat "$B/debug/libs" 2>/dev/null) || fail=1
	$CC "${CF[@]}" "${DF[@]}" -shared -fPIC "$tmp/plugin.c" \
		-o "$tmp/debug_so.so" -L"$B" -lkmutex-debug || fail=1
	plugins="$plugins debug_a debug_so"
else
	echo "skipped: the debugging build's plugins (not built here)"
fi
[ $fail = 0 ] || { echo "FAIL: could not build the programs"; exit 1; }

# Each run: the plugin, KMUTEX_STAT (lock statistics: the wait is
# counted in a per-thread table, handed on at the thread's exit by
# another pthread key's destructor, src/stat_thread.c, and printed at
# the unload), KMUTEX_DEBUG_HUNG (the debugging build's monitor, which
# ticks every 250 ms here and keeps its code loaded) and how many
# monitors run before the unload.
runs=()
for p in $plugins; do
	runs+=("$p - - 0" "$p $tmp/stat.txt - 0")
	case $p in debug_*) runs+=("$p - 1 1");; esac
done
for r in "${runs[@]}"; do
	read -r p stat hung want <<< "$r"
	[ "$stat" = - ] && stat=
	[ "$hung" = - ] && hung=
	rm -f "$tmp/stat.txt"
	out=$(KMUTEX_STAT=$stat KMUTEX_DEBUG_HUNG=$hung \
		LD_LIBRARY_PATH="$B${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
		timeout 60 "${RUN[@]}" "$tmp/main" "$tmp/$p.so" 2>&1)
	rc=$?
	what="$p${stat:+ (KMUTEX_STAT)}${hung:+ (KMUTEX_DEBUG_HUNG)}"
	echo "$what: exit $rc: $(echo "$out" | tr '\n' ' ')"
	if [ $rc != 0 ] || ! grep -q "^plugin_wait() = -62$" <<< "$out" ||
	   ! grep -q "^the thread exited$" <<< "$out"; then
		echo "FAIL: $what: the program did not end cleanly"
		fail=1
	fi
	# Under qemu-user, /proc/self/task names the emulator's threads.
	if [ ${#RUN[@]} = 0 ] && ! grep -q "^monitors: $want$" <<< "$out"; then
		echo "FAIL: $what: not $want hung-wait monitor(s) at the unload"
		fail=1
	fi
	if [ -n "$stat" ] && ! grep -q "semaphore" "$tmp/stat.txt"; then
		echo "FAIL: $what: no statistics printed at the unload"
		fail=1
	fi
done
exit $fail
