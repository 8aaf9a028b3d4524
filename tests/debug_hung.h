/* SPDX-License-Identifier: MIT */
/*
 * debug_hung.h - for the tests of the hung-task detector
 * (KMUTEX_DEBUG_HUNG, src/debug/hung.c): main() with the variable set.
 */
#ifndef _KMUTEX_TESTS_DEBUG_HUNG_H
#define _KMUTEX_TESTS_DEBUG_HUNG_H

#include "debug_harness.h"

/* Held this long: well past KMUTEX_DEBUG_HUNG=1 and its 0.25 s ticks. */
#define HUNG_HOLD_MS	4000

static inline void hung_sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };

	while (nanosleep(&ts, &ts))
		;
}

/* main(): @fn's wait is reported with @secs set, with the needles. */
#define HUNG_EXPECT_REPORT(secs, fn, ...)				\
	int main(int argc, char **argv)					\
	{								\
		static const char *const needles[] = {			\
			"blocked for more than " secs " seconds.",	\
			__VA_ARGS__, NULL };				\
									\
		setenv("KMUTEX_DEBUG_HUNG", secs, 1);			\
		if (argc > 1 && !strcmp(argv[1], "--child"))		\
			debug_child_run(argc, argv, fn);		\
		debug_expect_report("blocked for more than", needles);	\
		return 0;						\
	}

/* main(): @fn prints nothing with KMUTEX_DEBUG_HUNG=@secs (NULL: unset). */
#define HUNG_EXPECT_CLEAN(secs, fn)					\
	int main(int argc, char **argv)					\
	{								\
		const char *s = secs;					\
									\
		if (s)							\
			setenv("KMUTEX_DEBUG_HUNG", s, 1);		\
		else							\
			unsetenv("KMUTEX_DEBUG_HUNG");			\
		if (argc > 1 && !strcmp(argv[1], "--child"))		\
			debug_child_run(argc, argv, fn);		\
		debug_expect_clean();					\
		return 0;						\
	}

#endif /* _KMUTEX_TESTS_DEBUG_HUNG_H */
