/* SPDX-License-Identifier: MIT */
/*
 * race.h - named points in the slow paths where a test may stall the
 * calling thread, to open a race window on purpose.
 *
 * Only the library variant built with -DKMUTEX_RACE_POINTS (make builds
 * it for the tests named race_*.c, which include this file) has them;
 * in the real library a RACE_POINT() is nothing at all.
 */
#ifndef _KMUTEX_SRC_RACE_H
#define _KMUTEX_SRC_RACE_H

enum kmutex_race_point {
	/* up() saw waiters (count -1) and is about to take wait_lock. */
	KMUTEX_RACE_UP_LOCKING = 1,
	/* up() has made its unit visible to the lock-free down()s. */
	KMUTEX_RACE_UP_PUBLISHED,
};

/* Called at each point with its number, when set (race variant only). */
extern void (*kmutex_race_hook)(int point);

#ifdef KMUTEX_RACE_POINTS
#define RACE_POINT(p)							\
	do {								\
		/* Tests set it before they start threads: ACQUIRE is spare. */ \
		void (*__hook)(int) = __atomic_load_n(&kmutex_race_hook, \
						      __ATOMIC_ACQUIRE); \
		if (__hook)						\
			__hook(p);					\
	} while (0)
#else
#define RACE_POINT(p)	do { } while (0)
#endif

#endif /* _KMUTEX_SRC_RACE_H */
