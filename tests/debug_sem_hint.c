// SPDX-License-Identifier: MIT
/*
 * debug_sem_hint - a semaphore used as a mutex (count 1, each down()
 * released by an up() of the same thread) gets the one-time hint that
 * names it and suggests struct mutex, and the program goes on; a
 * counting semaphore (count 3; a count-1 semaphore up()ed by another
 * thread) gets none.  A hint is not a report: KMUTEX_DEBUG=abort does
 * not abort on it.
 */
#include <linux/semaphore.h>

#include "debug_harness.h"

static DEFINE_SEMAPHORE(config_sem);		/* count 1: a mutex */
static DEFINE_SEMAPHORE(pool, 3);		/* counting */
static struct semaphore handoff;		/* count 1, up()ed by another */
static int shared;

static void *up_handoff(void *arg)
{
	up(&handoff);
	return arg;
}

static void run(void)
{
	pthread_t t;
	int i;

	sema_init(&handoff, 1);
	for (i = 0; i < 200; i++) {
		down(&config_sem);
		shared++;
		up(&config_sem);

		down(&pool);
		up(&pool);

		down(&handoff);
		CHECK(pthread_create(&t, NULL, up_handoff, NULL) == 0);
		pthread_join(t, NULL);
	}
}

static void expect(const struct debug_run *r)
{
	if (debug_count(r->out, "kmutex-debug: hint: ") != 1)
		debug_fail(r, "not exactly one hint");
	if (!strstr(r->out, "kmutex-debug: hint: semaphore \"config_sem\" "
		    "(init at tests/debug_sem_hint.c:") ||
	    !strstr(r->out, "is used as a mutex") ||
	    !strstr(r->out, "struct mutex"))
		debug_fail(r, "the hint does not name config_sem, or mutex");
	if (strstr(r->out, "\"pool\"") || strstr(r->out, "handoff"))
		debug_fail(r, "a counting semaphore got a hint");
	if (!strstr(r->out, DEBUG_WENT_ON))
		debug_fail(r, "the program did not go on");
	if (!WIFEXITED(r->status) || WEXITSTATUS(r->status))
		debug_fail(r, "the child did not exit 0");
}

int main(int argc, char **argv)
{
	static struct debug_run r;

	if (argc > 1 && !strcmp(argv[1], "--child"))
		debug_child_run(argc, argv, run);
	debug_spawn(&r, NULL);
	expect(&r);
	debug_spawn(&r, "abort");
	expect(&r);
	return 0;
}
