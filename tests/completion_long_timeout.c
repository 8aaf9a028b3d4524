// SPDX-License-Identifier: MIT
/*
 * completion_long_timeout.c - wait_for_completion_timeout() and
 * wait_for_completion_interruptible_timeout() return the jiffies left
 * also for very long timeouts.
 *
 * A timeout of 10^15 jiffies (ms), completed after about 20 ms, must
 * return about 10^15 - 20: at least 10^15 - PROMPT_MS and at most
 * 10^15 - 20.  Fails while ms_until() (src/waiter.c) computes the
 * nanoseconds left in a long long that overflows for deadlines more
 * than about 292 years away (9.2e18 ns).  Where long is 32 bits, the
 * longest timeouts (24.8 days) instead (make test-armhf).
 */
#include <linux/completion.h>

#include "family.h"	/* from tests/: move this file there */

static long call_wait_timeout(struct fam_call *c)
{
	return (long)wait_for_completion_timeout(c->obj, c->arg);
}

static long call_wait_interruptible_timeout(struct fam_call *c)
{
	return wait_for_completion_interruptible_timeout(c->obj, c->arg);
}

static void check_long(long (*fn)(struct fam_call *), long timeout)
{
	struct completion x;
	struct fam_call c;
	long left;

	init_completion(&x);
	fam_start(&c, fn, &x, timeout);
	fam_wait_queued(&c, FAM_LIST(&x), 1);
	test_sleep_ms(20);
	complete(&x);
	left = fam_join(&c);
	printf("timeout %ld, completed after %.1f ms: %ld left\n", timeout,
	       (c.t1 - c.t0) / 1e6, left);
	CHECK(left <= timeout - 20);
	CHECK(left >= timeout - PROMPT_MS);
}

int main(void)
{
	test_watchdog(60);
#if LONG_MAX > 0x7fffffffL
	check_long(call_wait_timeout, 4294967295L);	/* fine */
	check_long(call_wait_timeout, 1000000000000000L);
	check_long(call_wait_interruptible_timeout, 1000000000000000L);
#else
	/*
	 * 32-bit long (armhf, i386): the longest timeouts are 24.8 days;
	 * their deadline, in a 32-bit time_t too, and the ms left (s * 1000
	 * + the ms rounded up, in a long) must not overflow.
	 */
	check_long(call_wait_timeout, MAX_JIFFY_OFFSET);
	check_long(call_wait_interruptible_timeout, LONG_MAX / 2 + 1);
	check_long(call_wait_interruptible_timeout, MAX_SCHEDULE_TIMEOUT - 2);
#endif
	check_long(call_wait_timeout, MAX_SCHEDULE_TIMEOUT - 1);
	return 0;
}
