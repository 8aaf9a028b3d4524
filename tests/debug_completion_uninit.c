// SPDX-License-Identifier: MIT
/*
 * debug_completion_uninit - a completion in zeroed memory, never
 * initialised: "DEBUG_LOCKS_WARN_ON", then it works (not done).
 */
#include <linux/completion.h>

#include "debug_harness.h"

struct request {
	int status;
	struct completion done;
};

DEBUG_FN bool request_finished(struct request *r)
{
	return completion_done(&r->done);
}

static void bug(void)
{
	struct request *r = calloc(1, sizeof(*r));

	CHECK(r);
	CHECK(!request_finished(r));
	CHECK(!request_finished(r));	/* set up by the checker now */
	complete(&r->done);
	CHECK(request_finished(r));
	wait_for_completion(&r->done);
	free(r);
}

DEBUG_EXPECT_REPORT(bug, "WARNING: DEBUG_LOCKS_WARN_ON(x->magic != x)",
		    "completion_done(&r->done) at "
		    "tests/debug_completion_uninit.c:17",
		    "was never initialised", "request_finished+")
