// SPDX-License-Identifier: MIT
/*
 * debug_no_locks_held - debug_check_no_locks_held() with a mutex held:
 * "still has locks held".
 */
#include <linux/mutex.h>

#include "debug_harness.h"

static DEFINE_MUTEX(state_lock);

DEBUG_FN void checkpoint(void)
{
	debug_check_no_locks_held();
}

DEBUG_FN void update_state(void)
{
	mutex_lock(&state_lock);
	checkpoint();
	mutex_unlock(&state_lock);
}

static void bug(void)
{
	checkpoint();		/* nothing held: fine */
	update_state();
	update_state();		/* reported once */
}

DEBUG_EXPECT_REPORT(bug, "still has locks held!", "\"state_lock\"",
		    "checkpoint+", "update_state+",
		    "debug_check_no_locks_held() found locks held")
