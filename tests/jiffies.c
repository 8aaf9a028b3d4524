// SPDX-License-Identifier: MIT
/*
 * jiffies.c - msecs_to_jiffies() of a value that is negative as an int
 * is MAX_JIFFY_OFFSET (an infinite timeout, as in the kernel), and the
 * timed waits take MAX_JIFFY_OFFSET as "for ever": they sleep until
 * the unit or the completion comes, and return the jiffies left.
 *
 * Failed while msecs_to_jiffies(-1) returned 4294967295 (49.7 days).
 */
#include <linux/completion.h>
#include <linux/semaphore.h>

#include "family.h"

static void test_conversions(void)
{
	CHECK_EQ(MAX_JIFFY_OFFSET, (LONG_MAX >> 1) - 1);
	CHECK(msecs_to_jiffies(-1) == MAX_JIFFY_OFFSET);
	CHECK(msecs_to_jiffies((unsigned int)INT_MIN) == MAX_JIFFY_OFFSET);
	CHECK(msecs_to_jiffies(0x80000000u) == MAX_JIFFY_OFFSET);
	CHECK_EQ(msecs_to_jiffies(INT_MAX), INT_MAX);
	CHECK_EQ(msecs_to_jiffies(1), 1);
	CHECK_EQ(msecs_to_jiffies(0), 0);
}

static long call_down_timeout(struct fam_call *c)
{
	return down_timeout(c->obj, (long)msecs_to_jiffies(c->arg));
}

/* down_timeout(msecs_to_jiffies(-1)): waits for the unit, gets it. */
static void test_down_timeout_forever(void)
{
	struct semaphore s;
	struct fam_call c;

	sema_init(&s, 0);
	fam_start(&c, call_down_timeout, &s, -1);
	fam_wait_queued(&c, FAM_LIST(&s), 1);
	test_sleep_ms(20);
	CHECK(!fam_done(&c));
	up(&s);
	CHECK_EQ(fam_join(&c), 0);
	CHECK_EQ(s.count, 0);
	printf("down_timeout(msecs_to_jiffies(-1)): waited %.1f ms, got "
	       "the unit\n", (c.t1 - c.t0) / 1e6);
}

static long call_wait_timeout(struct fam_call *c)
{
	return (long)wait_for_completion_timeout(c->obj,
				msecs_to_jiffies(c->arg));
}

static long call_wait_interruptible_timeout(struct fam_call *c)
{
	return wait_for_completion_interruptible_timeout(c->obj,
				msecs_to_jiffies(c->arg));
}

/* The completion's timed waits: complete() after 20 ms ends them. */
static void test_completion_forever(long (*fn)(struct fam_call *),
				    const char *what)
{
	struct completion x;
	struct fam_call c;
	long left;

	init_completion(&x);
	fam_start(&c, fn, &x, -1);
	fam_wait_queued(&c, FAM_LIST(&x), 1);
	test_sleep_ms(20);
	CHECK(!fam_done(&c));
	complete(&x);
	left = fam_join(&c);
	printf("%s(msecs_to_jiffies(-1)): completed after %.1f ms, %ld "
	       "left\n", what, (c.t1 - c.t0) / 1e6, left);
	CHECK(left <= (long)MAX_JIFFY_OFFSET - 20);
	CHECK(left >= (long)MAX_JIFFY_OFFSET - PROMPT_MS);
}

int main(void)
{
	test_watchdog(60);
	test_conversions();
	test_down_timeout_forever();
	test_completion_forever(call_wait_timeout,
				"wait_for_completion_timeout");
	test_completion_forever(call_wait_interruptible_timeout,
				"wait_for_completion_interruptible_timeout");
	printf("jiffies: all passed\n");
	return 0;
}
