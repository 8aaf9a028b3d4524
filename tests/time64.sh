#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# time64 - on a 32-bit CPU, the library built with a 64-bit time_t
# (-D_TIME_BITS=64, Debian 13's armhf default, and musl's) sleeps as long
# as its timeouts say: its futex waits must go through futex_time64, as
# SYS_futex reads the old 32-bit timespec (src/futex.h).  Before that
# fix, a 1.5 s wait here lasted about 0.75 s.  Where time_t is 64-bit
# anyway (x86-64, aarch64) there is nothing to check: skip.
# Run from the source root with CC set (tests/run does).
. tests/lib.sh || exit 1

if $CC -dM -E -x c /dev/null | grep -q '__SIZEOF_LONG__ 8'; then
	echo "SKIP: a 64-bit CPU: time_t is 64-bit already"; exit 77
fi
cat > "$tmp/t.c" <<'EOT'
#include <errno.h>
#include <linux/completion.h>
#include <linux/semaphore.h>
#include <stdio.h>
#include <time.h>

int main(void)
{
	struct completion x;
	struct semaphore s;
	struct timespec a, b;
	double ms;

	init_completion(&x);
	sema_init(&s, 0);
	clock_gettime(CLOCK_MONOTONIC, &a);
	if (wait_for_completion_timeout(&x, 250) != 0 ||
	    down_timeout(&s, 1250) != -ETIME)
		return 2;
	clock_gettime(CLOCK_MONOTONIC, &b);
	ms = (b.tv_sec - a.tv_sec) * 1e3 + (b.tv_nsec - a.tv_nsec) / 1e6;
	printf("time_t of %zu bytes: timeouts of 1500 ms took %.0f ms\n",
	       sizeof(time_t), ms);
	return ms >= 1490 && ms < 10000 ? 0 : 1;
}
EOT
# shellcheck disable=SC2046
$CC -std=gnu11 -O2 -D_GNU_SOURCE -D_TIME_BITS=64 -D_FILE_OFFSET_BITS=64 \
	-Iinclude -fvisibility=hidden src/*.c "$tmp/t.c" -o "$tmp/t" \
	-pthread || { echo "FAIL: does not build"; exit 1; }
timeout 60 "${RUN[@]}" "$tmp/t" || { echo "FAIL: exit $?"; exit 1; }
