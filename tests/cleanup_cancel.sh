#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# cleanup_cancel - what guard(mutex) does when its thread is cancelled
# (pthread_cancel) in the guard's scope, as cleanup(3) documents it:
#   (a) built with -fexceptions, the cancellation unwinds the stack and
#       runs the guard's destructor: the mutex is free afterwards;
#   (b) built without it, no destructor runs and the mutex stays held
#       (the documented limit: if that ever changes, change the page);
#   (c) mutex_lock() is not a cancellation point: a thread cancelled
#       while it waits there gets the lock, and is cancelled at the
#       next cancellation point.
# A script, because the program must be built twice, with and without
# -fexceptions.  Run from the source root with CC and B (build dir) set.
. tests/lib.sh || exit 1

cat > "$tmp/cancel.c" <<'EOF'
#include <linux/cleanup.h>
#include <linux/mutex.h>
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

static DEFINE_MUTEX(lock);
static int inside, got;

static void *victim(void *arg)
{
	guard(mutex)(&lock);
	__atomic_store_n(&inside, 1, __ATOMIC_RELEASE);
	for (;;)
		pause();	/* a cancellation point */
	return arg;
}

static void *waiter(void *arg)
{
	__atomic_store_n(&inside, 1, __ATOMIC_RELEASE);
	mutex_lock(&lock);
	__atomic_store_n(&got, 1, __ATOMIC_RELEASE);
	mutex_unlock(&lock);
	for (;;)
		pause();
	return arg;
}

/* (c): cancel a thread that waits in mutex_lock() (or is on its way). */
static int cancel_waiter(void)
{
	pthread_t t;
	void *ret;

	__atomic_store_n(&inside, 0, __ATOMIC_RELEASE);
	mutex_lock(&lock);
	if (pthread_create(&t, NULL, waiter, NULL))
		return 2;
	while (!__atomic_load_n(&inside, __ATOMIC_ACQUIRE))
		usleep(1000);
	usleep(20000);	/* asleep in mutex_lock(), most likely */
	pthread_cancel(t);
	usleep(20000);
	mutex_unlock(&lock);
	pthread_join(t, &ret);
	if (ret != PTHREAD_CANCELED)
		return 2;
	printf("mutex_lock %s a cancellation point\n",
	       __atomic_load_n(&got, __ATOMIC_ACQUIRE) ? "is not" : "is");
	return 0;
}

int main(void)
{
	pthread_t t;
	void *ret;

	alarm(60);	/* the watchdog: a hang dies of SIGALRM */
	if (pthread_create(&t, NULL, victim, NULL))
		return 2;
	while (!__atomic_load_n(&inside, __ATOMIC_ACQUIRE))
		usleep(1000);
	pthread_cancel(t);
	pthread_join(t, &ret);
	if (ret != PTHREAD_CANCELED)
		return 2;
	printf("%s\n", mutex_is_locked(&lock) ? "held" : "free");
	if (!mutex_is_locked(&lock))
		return cancel_waiter();
	return 0;
}
EOF

# check FLAGS EXPECTED
check() {
	local out
	if ! $CC -std=gnu11 -Wall -Wextra -Werror -D_GNU_SOURCE -Iinclude \
		-pthread -O2 $1 "$tmp/cancel.c" -o "$tmp/cancel" \
		"$B/libkmutex.a"; then
		echo "FAIL: could not build with '$1'"
		fail=1
		return
	fi
	out=$("${RUN[@]}" "$tmp/cancel" | tr '\n' ' ')
	if [ "$out" = "$2" ]; then
		echo "ok: built with '${1:-no -fexceptions}': $out"
	else
		echo "FAIL: built with '${1:-no -fexceptions}': '$out'," \
			"expected '$2' (free/held: the mutex after" \
			"cancelling its guard's thread)"
		fail=1
	fi
}

check -fexceptions "free mutex_lock is not a cancellation point "
check "" "held "
exit $fail
