// SPDX-License-Identifier: MIT
/*
 * family_misuse.c - misuse of a rw_semaphore or a semaphore stops the
 * program with a message naming the call, instead of corrupting it.
 *
 * Releasing a rwsem not held that way (up_read() with no reader,
 * up_write() with no writer, downgrade_write() without the write lock)
 * would let readers and writers in together; an up() that would push a
 * semaphore's count past INT_MAX would wrap it negative; a zero-filled
 * (never initialised) rwsem, semaphore or completion would crash on a
 * NULL list head in its first slow path, or seem to work (issue 15).  Each aborts
 * (SIGABRT) with a message on stderr.  Each case runs in a fork()ed
 * child whose stderr comes back through a pipe; correct use of both is
 * the control, and must say nothing.  The misuse is deliberate: clang's
 * -Wthread-safety is told not to look (__no_context_analysis).
 */
#include <limits.h>
#include <linux/completion.h>
#include <linux/rwsem.h>
#include <linux/semaphore.h>
#include "child.h"

static DECLARE_RWSEM(rwsem);
static struct semaphore sem;

/* Run @fn in a child: it must die of SIGABRT, saying @needle. */
static void expect_abort_of(const char *what, void (*fn)(void),
			    const char *needle)
{
	struct outcome o;

	run_child(fn, &o);
	expect_abort(what, &o, needle, NULL);
}

static void correct(void)
{
	down_read(&rwsem);
	up_read(&rwsem);
	down_write(&rwsem);
	downgrade_write(&rwsem);
	up_read(&rwsem);
	down_write(&rwsem);
	up_write(&rwsem);
	CHECK(!rwsem_is_locked(&rwsem));

	sema_init(&sem, INT_MAX - 1);
	up(&sem);			/* to INT_MAX: allowed */
	CHECK_EQ(down_trylock(&sem), 0);
	up(&sem);
}

static __no_context_analysis void up_read_free(void)
{
	up_read(&rwsem);
}

static __no_context_analysis void up_write_free(void)
{
	up_write(&rwsem);
}

static __no_context_analysis void up_write_reader(void)
{
	down_read(&rwsem);
	up_write(&rwsem);
}

static __no_context_analysis void downgrade_free(void)
{
	downgrade_write(&rwsem);
}

/* Zero-filled, as a calloc()ed struct that nobody initialised. */
static struct rw_semaphore zero_rwsem;
static struct semaphore zero_sem;
static struct completion zero_completion;

static __no_context_analysis void rwsem_zeroed(void)
{
	down_write(&zero_rwsem);	/* fast path: no list needed */
	down_read(&zero_rwsem);		/* the slow path finds it */
}

static void sem_zeroed(void)
{
	down(&zero_sem);
}

static void complete_zeroed(void)
{
	complete(&zero_completion);
}

static void wait_zeroed(void)
{
	wait_for_completion(&zero_completion);
}

static void up_past_int_max(void)
{
	sema_init(&sem, INT_MAX);
	up(&sem);
}

int main(void)
{
	struct outcome o;

	test_watchdog(60);
	run_child(correct, &o);
	printf("control: status %#x, stderr \"%s\"\n", o.status, o.err);
	CHECK(WIFEXITED(o.status) && WEXITSTATUS(o.status) == 0);
	CHECK_EQ(o.err[0], 0);

	expect_abort_of("up_read() of a free rwsem", up_read_free,
			"up_read()");
	expect_abort_of("up_write() of a free rwsem", up_write_free,
			"up_write()");
	expect_abort_of("up_write() of a read-locked rwsem", up_write_reader,
			"up_write()");
	expect_abort_of("downgrade_write() of a free rwsem", downgrade_free,
			"downgrade_write()");
	expect_abort_of("up() of a semaphore at INT_MAX", up_past_int_max,
			"INT_MAX");
	expect_abort_of("down_read() of a zero-filled rwsem", rwsem_zeroed,
			"down_read: rw_semaphore");
	expect_abort_of("down() of a zero-filled semaphore", sem_zeroed,
			"down: semaphore");
	expect_abort_of("complete() of a zero-filled completion",
			complete_zeroed, "complete: completion");
	expect_abort_of("wait_for_completion() of a zero-filled completion",
			wait_zeroed, "never initialised");
	return 0;
}
