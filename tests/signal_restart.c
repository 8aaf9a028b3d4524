// SPDX-License-Identifier: MIT
/*
 * signal_restart.c - pins the kernel behaviour that
 * mutex_lock_interruptible rests on (src/futex.h).
 *
 * After a signal handler installed with SA_RESTART, the kernel restarts
 * a futex wait that has no timeout (ERESTARTSYS): the caller never sees
 * the signal.  A wait with a timeout is restarted only when no handler
 * ran (ERESTART_RESTARTBLOCK) and otherwise fails with EINTR, whatever
 * SA_RESTART says.  kmutex therefore sleeps interruptibly with a far-off
 * absolute deadline.  If a kernel ever changes either half, this test
 * says so before the mutex tests fail in a more puzzling way.
 *
 * Raw futex calls only: nothing of kmutex is used.
 */
#include <limits.h>

#include "harness.h"
/*
 * The futex(2) numbers as the library states them: musl-gcc has no
 * <linux/futex.h> on its include path.
 */
#include "../src/futex_uapi.h"

static int handled;

static void handler(int sig)
{
	(void)sig;
	__atomic_fetch_add(&handled, 1, __ATOMIC_SEQ_CST);
}

enum wait_kind {
	NO_TIMEOUT,		/* FUTEX_WAIT, timeout NULL */
	RELATIVE_TIMEOUT,	/* FUTEX_WAIT, an hour from now */
	ABSOLUTE_DEADLINE,	/* FUTEX_WAIT_BITSET, CLOCK_MONOTONIC */
	FOREVER_DEADLINE,	/* the same, at INT_MAX s as kmutex uses */
};

struct sleeper {
	pthread_t thread;
	enum wait_kind kind;
	int word;		/* the futex word; 0 while it should sleep */
	pid_t tid;
	long ret;
	int err;
	int done;
};

static void *sleeper_thread(void *arg)
{
	struct sleeper *s = arg;
	struct timespec ts = { .tv_sec = 3600 };
	long r = 0;

	__atomic_store_n(&s->tid, test_gettid(), __ATOMIC_RELEASE);
	switch (s->kind) {
	case NO_TIMEOUT:
		r = syscall(SYS_futex, &s->word, FUTEX_WAIT_PRIVATE, 0, NULL,
			    NULL, 0);
		break;
	case RELATIVE_TIMEOUT:
		r = syscall(SYS_futex, &s->word, FUTEX_WAIT_PRIVATE, 0, &ts,
			    NULL, 0);
		break;
	case ABSOLUTE_DEADLINE:
		clock_gettime(CLOCK_MONOTONIC, &ts);
		ts.tv_sec += 3600;
		r = syscall(SYS_futex, &s->word, FUTEX_WAIT_BITSET_PRIVATE, 0,
			    &ts, NULL, FUTEX_BITSET_MATCH_ANY);
		break;
	case FOREVER_DEADLINE:
		ts = (struct timespec){ .tv_sec = INT_MAX };
		r = syscall(SYS_futex, &s->word, FUTEX_WAIT_BITSET_PRIVATE, 0,
			    &ts, NULL, FUTEX_BITSET_MATCH_ANY);
		break;
	}
	s->err = r ? errno : 0;
	s->ret = r;
	__atomic_store_n(&s->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

/* Start a sleeper and signal it once it sleeps in the futex wait. */
static void start_and_signal(struct sleeper *s, enum wait_kind kind,
			     int flags)
{
	int before = __atomic_load_n(&handled, __ATOMIC_SEQ_CST);

	test_handle_signal(SIGUSR1, handler, flags);
	*s = (struct sleeper){ .kind = kind };
	CHECK(pthread_create(&s->thread, NULL, sleeper_thread, s) == 0);
	WAIT_UNTIL(__atomic_load_n(&s->tid, __ATOMIC_ACQUIRE), 5000);
	WAIT_UNTIL(test_thread_state(s->tid) == 'S', 5000);
	CHECK(pthread_kill(s->thread, SIGUSR1) == 0);
	WAIT_UNTIL(__atomic_load_n(&handled, __ATOMIC_SEQ_CST) != before,
		   5000);
}

/* No timeout + SA_RESTART: the handler runs and the wait goes on. */
static void check_restarted(void)
{
	struct sleeper s;

	start_and_signal(&s, NO_TIMEOUT, SA_RESTART);
	test_sleep_ms(200);
	CHECK(!__atomic_load_n(&s.done, __ATOMIC_ACQUIRE));
	CHECK_EQ(test_thread_state(s.tid), 'S');

	/* Wake it for real; it may see the wake or the changed word. */
	__atomic_store_n(&s.word, 1, __ATOMIC_SEQ_CST);
	syscall(SYS_futex, &s.word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
	WAIT_UNTIL(__atomic_load_n(&s.done, __ATOMIC_ACQUIRE), 5000);
	CHECK(pthread_join(s.thread, NULL) == 0);
	CHECK(s.ret == 0 || s.err == EAGAIN);
	printf("FUTEX_WAIT, no timeout, SA_RESTART: restarted\n");
}

/* With a timeout: EINTR at once, SA_RESTART or not. */
static void check_interrupted(enum wait_kind kind, int flags)
{
	static const char *const name[] = {
		[NO_TIMEOUT] = "FUTEX_WAIT, no timeout",
		[RELATIVE_TIMEOUT] = "FUTEX_WAIT, relative timeout",
		[ABSOLUTE_DEADLINE] = "FUTEX_WAIT_BITSET, deadline in 1 h",
		[FOREVER_DEADLINE] = "FUTEX_WAIT_BITSET, deadline INT_MAX s",
	};
	struct sleeper s;
	uint64_t end;

	start_and_signal(&s, kind, flags);
	end = test_now_ns() + 5000000000ull;
	/*
	 * Again every 10 ms until the wait ends: state 'S' can also be a
	 * wait on the emulator's own lock (qemu-user, Valgrind) just before
	 * the futex(2) call, and a signal that lands there only runs the
	 * handler.  A kernel that restarts the wait still fails.
	 */
	while (!POLL_UNTIL(__atomic_load_n(&s.done, __ATOMIC_ACQUIRE), 10) &&
	       test_now_ns() < end)
		CHECK(pthread_kill(s.thread, SIGUSR1) == 0);
	if (!__atomic_load_n(&s.done, __ATOMIC_ACQUIRE)) {
		fprintf(stderr, "FAIL: %s, %s: the signal did not end the "
			"wait\n", name[kind],
			flags ? "SA_RESTART" : "no flags");
		exit(1);
	}
	CHECK(pthread_join(s.thread, NULL) == 0);
	CHECK_EQ(s.ret, -1);
	CHECK_EQ(s.err, EINTR);
	printf("%s, %s: EINTR\n", name[kind],
	       flags ? "SA_RESTART" : "no flags");
}

int main(void)
{
	test_watchdog(60);
	check_restarted();
	check_interrupted(ABSOLUTE_DEADLINE, SA_RESTART);
	check_interrupted(ABSOLUTE_DEADLINE, 0);
	check_interrupted(FOREVER_DEADLINE, SA_RESTART);
	check_interrupted(RELATIVE_TIMEOUT, SA_RESTART);
	check_interrupted(NO_TIMEOUT, 0);
	return 0;
}
