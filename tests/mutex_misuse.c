// SPDX-License-Identifier: MIT
/*
 * mutex_misuse.c - misuse stops the program with a message that says
 * what and where, instead of corrupting the lock.
 *
 * Unlocking a mutex that is not locked would push count past 1 and let
 * later lockers in together; a never initialised (zero-filled) mutex
 * has no wait list.  Both abort (SIGABRT) with a message on stderr: the
 * first names the lock expression and the call site, the second says
 * "never initialised".  Each case runs in a fork()ed child whose stderr
 * comes back through a pipe; a correct child is the control.
 */
#include <linux/mutex.h>
#include <sys/mman.h>

#include "child.h"

struct device {
	int id;
	struct mutex lock;
};

static DEFINE_MUTEX(never_locked);
static DEFINE_MUTEX(twice);
/* __LINE__ of the bad call, set by the child (shared memory). */
static int *unlock_line;

/* Not checked by clang -Wthread-safety: misuses the lock on purpose. */
static __no_context_analysis void unlock_unlocked(void)
{
	*unlock_line = __LINE__ + 1;
	mutex_unlock(&never_locked);
}

/* Not checked by clang -Wthread-safety: misuses the lock on purpose. */
static __no_context_analysis void unlock_twice(void)
{
	mutex_lock(&twice);
	mutex_unlock(&twice);
	*unlock_line = __LINE__ + 1;
	mutex_unlock(&twice);
}

/* Not checked by clang -Wthread-safety: misuses the lock on purpose. */
static __no_context_analysis void unlock_member(void)
{
	struct device *dev = calloc(1, sizeof(*dev));

	CHECK(dev);
	mutex_init(&dev->lock);
	*unlock_line = __LINE__ + 1;
	mutex_unlock(&dev->lock);
}

static void *contender(void *arg)
{
	struct mutex *m = arg;
	int i;

	for (i = 0; i < 1000; i++) {
		mutex_lock(m);
		mutex_unlock(m);
	}
	return NULL;
}

/* Contended use forces the slow paths, where the checks live. */
static void use_contended(struct mutex *m)
{
	pthread_t t;
	int i;

	CHECK(pthread_create(&t, NULL, contender, m) == 0);
	for (i = 0; i < 1000; i++) {
		mutex_lock(m);
		mutex_unlock(m);
	}
	CHECK(pthread_join(t, NULL) == 0);
}

/* Not checked by clang -Wthread-safety: misuses the lock on purpose. */
static __no_context_analysis void lock_zeroed(void)
{
	struct mutex *m = calloc(1, sizeof(*m));

	CHECK(m);
	mutex_lock(m);
}

static void lock_zeroed_interruptible(void)
{
	static struct mutex zeroed;	/* static storage: all zero */

	mutex_lock_interruptible(&zeroed);
}

static void correct(void)
{
	struct device dev;

	mutex_init(&dev.lock);
	use_contended(&dev.lock);
	use_contended(&never_locked);
	mutex_lock(&twice);
	mutex_unlock(&twice);
	CHECK_EQ(dev.lock.count, 1);
}

/* The message names the call and its file:line. */
static void expect_unlock_abort(const char *what, void (*fn)(void),
				const char *call)
{
	struct outcome o;
	char site[64];

	*unlock_line = 0;
	run_child(fn, &o);
	CHECK(*unlock_line > 0);
	snprintf(site, sizeof(site), "mutex_misuse.c:%d", *unlock_line);
	expect_abort(what, &o, call, site);
}

int main(void)
{
	struct outcome o;

	test_watchdog(60);
	unlock_line = mmap(NULL, sizeof(*unlock_line), PROT_READ | PROT_WRITE,
			   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	CHECK(unlock_line != MAP_FAILED);

	run_child(correct, &o);
	printf("control: status %#x, stderr \"%s\"\n", o.status, o.err);
	CHECK(WIFEXITED(o.status) && WEXITSTATUS(o.status) == 0);
	CHECK_EQ(o.err[0], 0);

	expect_unlock_abort("unlock of a never locked mutex", unlock_unlocked,
			    "mutex_unlock(&never_locked)");
	expect_unlock_abort("second unlock", unlock_twice,
			    "mutex_unlock(&twice)");
	expect_unlock_abort("unlock through a pointer", unlock_member,
			    "mutex_unlock(&dev->lock)");
	run_child(lock_zeroed, &o);
	expect_abort("mutex_lock of a zero-filled mutex", &o,
		     "never initialised", NULL);
	run_child(lock_zeroed_interruptible, &o);
	expect_abort("mutex_lock_interruptible of a zero-filled mutex", &o,
		     "never initialised", NULL);
	return 0;
}
