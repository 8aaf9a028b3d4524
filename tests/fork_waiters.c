// SPDX-License-Identifier: MIT
/*
 * fork_waiters.c - a child forked while threads of its parent wait on a
 * lock can use that lock (issue 15, edge 4).
 *
 * The child's copy of the wait list holds the nodes of the parent's
 * waiting threads, which the child does not have.  Before the fix the
 * first unlock in the child "woke" such a node and, with it marked
 * woken, no later unlock woke anyone: the child hung as soon as two of
 * its threads contended.  For each primitive: the parent's main thread
 * holds it, a second thread waits on it, and the parent forks; the
 * child releases it and then has three threads contend on it for a
 * while.  A child that hangs is killed by alarm() and fails the test.
 *
 * And the rw_semaphore's reader woken to try but not yet run at the
 * fork (found in review): the rwsem is free, yet its count of woken
 * readers says one is still to come, which the child does not have.
 * Before the fix the child waited for it: a reader of the child queued
 * behind a writer was left asleep by the writer's up_write().
 *
 * And the percpu rw_semaphore whose writer drains the readers, the
 * forking thread one of them (found in review): that writer holds the
 * inner rwsem and has raised the block.  Before the fix every reader
 * and writer of the child waited on them for ever.
 *
 * And a child that starts threads before it touches such a lock (found
 * by CI at -O0): glibc gives them the stacks of the parent's threads,
 * where the parent's wait-list nodes are, and they write over them.
 * Before the fix the child's first use of the lock read those nodes
 * through that garbage (SIGSEGV).  Here the child's first threads fill
 * their stacks with a pattern that is no valid pointer.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <unistd.h>
#include <sys/time.h>
#include <sys/wait.h>

#include <linux/completion.h>
#include <linux/mutex.h>
#include <linux/percpu-rwsem.h>
#include <linux/rwsem.h>
#include <linux/semaphore.h>
#include <linux/ww_mutex.h>

#include "harness.h"

static DEFINE_MUTEX(m);
static DECLARE_RWSEM(rw);
static DEFINE_SEMAPHORE(sem, 0);
static DECLARE_COMPLETION(done);
static DEFINE_WW_CLASS(fork_class);
static struct ww_mutex wwm;
static __thread struct ww_acquire_ctx ctx;
static long shared;

enum prim { MUTEX, RWSEM, SEM, COMPLETION, WW };
static enum prim prim;

static __no_context_analysis void take(void)
{
	switch (prim) {
	case MUTEX:
		mutex_lock(&m);
		break;
	case RWSEM:
		down_write(&rw);
		break;
	case SEM:
		down(&sem);
		break;
	case COMPLETION:
		wait_for_completion(&done);
		break;
	case WW:
		ww_acquire_init(&ctx, &fork_class);
		CHECK_EQ(ww_mutex_lock(&wwm, &ctx), 0);
		break;
	}
}

static __no_context_analysis void give(void)
{
	switch (prim) {
	case MUTEX:
		mutex_unlock(&m);
		break;
	case RWSEM:
		up_write(&rw);
		break;
	case SEM:
		up(&sem);
		break;
	case COMPLETION:
		complete(&done);
		break;
	case WW:
		ww_mutex_unlock(&wwm);
		ww_acquire_fini(&ctx);
		break;
	}
}

static struct kmutex_list *wait_list(void)
{
	switch (prim) {
	case MUTEX:
		return &m.wait_list;
	case RWSEM:
		return &rw.wait_list;
	case SEM:
		return &sem.wait_list;
	case WW:
		return &wwm.base.wait_list;
	default:
		return &done.wait_list;
	}
}

/* Fork; the child runs @fn (which _exit()s).  Returns its wait status. */
static int run_child(void (*fn)(void))
{
	pid_t pid = fork();
	int status;

	CHECK(pid >= 0);
	if (pid == 0)
		fn();
	CHECK(waitpid(pid, &status, 0) == pid);
	return status;
}

/* The parent's waiter: takes it once (after the fork, in the parent). */
static __no_context_analysis void *parent_waiter(void *arg)
{
	(void)arg;
	take();
	give();
	return NULL;
}

/* In the child: take and give back, many times, with the others. */
static __no_context_analysis void *contender(void *arg)
{
	int i;

	(void)arg;
	for (i = 0; i < 20000; i++) {
		take();
		shared++;
		give();
	}
	return NULL;
}

static int scribble_first;

/* Write a pattern over the top of this thread's stack, where a parent's
 * thread had its wait-list node. */
static void *scribbler(void *arg)
{
	volatile unsigned char pad[64 * 1024];
	size_t i;

	for (i = 0; i < sizeof(pad); i++)
		pad[i] = 0x5a;
	return arg;
}

static void scribble(void)
{
	pthread_t t[4];
	int i;

	for (i = 0; i < 4; i++)
		CHECK(pthread_create(&t[i], NULL, scribbler, NULL) == 0);
	for (i = 0; i < 4; i++)
		CHECK(pthread_join(t[i], NULL) == 0);
}

static __no_context_analysis void child(void)
{
	pthread_t t[2];
	int i;

	alarm(20);	/* a hang kills the child: the parent sees it */
	if (scribble_first)
		scribble();
	give();		/* the lock the forking thread held */
	for (i = 0; i < 2; i++)
		CHECK(pthread_create(&t[i], NULL, contender, NULL) == 0);
	contender(NULL);
	for (i = 0; i < 2; i++)
		CHECK(pthread_join(t[i], NULL) == 0);
	/* Exclusion held too (the semaphore and completion pass 1 unit). */
	CHECK_EQ(shared, 60000);
	_exit(0);
}

static __no_context_analysis void run(enum prim p, const char *name,
				      int scribbled)
{
	pthread_t w;
	int status;

	prim = p;
	scribble_first = scribbled;
	shared = 0;
	if (p == MUTEX)
		mutex_lock(&m);
	if (p == RWSEM)
		down_write(&rw);
	if (p == WW)
		take();
	/* The semaphore (count 0) and completion are "held" already. */
	CHECK(pthread_create(&w, NULL, parent_waiter, NULL) == 0);
	WAIT_UNTIL(test_waiters(wait_list()) >= 1, 5000);
	status = run_child(child);
	printf("%s%s: child status %#x\n", name,
	       scribbled ? ", threads first" : "", status);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	give();		/* and the parent's waiter goes on */
	CHECK(pthread_join(w, NULL) == 0);
	if (p == SEM || p == COMPLETION)
		take();	/* the unit its give() left: "held" again */
}

static int hold_pipe[2];
static int in_handler;

/* Keeps the parent's reader from running until the pipe is written. */
static void hold(int sig)
{
	char c;
	int e = errno;

	(void)sig;
	__atomic_store_n(&in_handler, 1, __ATOMIC_RELEASE);
	while (read(hold_pipe[0], &c, 1) < 0 && errno == EINTR)
		;
	errno = e;
}

static __no_context_analysis void *reader(void *arg)
{
	(void)arg;
	down_read(&rw);
	up_read(&rw);
	return NULL;
}

/* Readers woken to try that have not run (src/rwsem.c: low 16 bits). */
static int woken_readers(void)
{
	return __atomic_load_n(&rw.woken, __ATOMIC_RELAXED) & 0xffff;
}

/* In the child: a reader queued behind a writer, many times over. */
static __no_context_analysis void child_woken(void)
{
	pthread_t t;
	int i;

	alarm(20);	/* a reader left asleep hangs the join */
	for (i = 0; i < 100; i++) {
		down_write(&rw);
		CHECK(pthread_create(&t, NULL, reader, NULL) == 0);
		WAIT_UNTIL(test_waiters(&rw.wait_list) >= 1, 5000);
		up_write(&rw);
		CHECK(pthread_join(t, NULL) == 0);
	}
	_exit(0);
}

/*
 * The parent's reader queues behind the main thread's write lock and is
 * caught in a signal handler; up_write() then wakes it to try (handed
 * the lock instead, if it queued 1 ms before: then again), and the
 * parent forks while it has not run.
 */
static __no_context_analysis void run_rwsem_woken(void)
{
	struct sigaction sa = { .sa_handler = hold };
	pthread_t r;
	int status, tries = 0;

	CHECK(pipe(hold_pipe) == 0);
	sigemptyset(&sa.sa_mask);
	CHECK(sigaction(SIGUSR1, &sa, NULL) == 0);
	for (;;) {
		__atomic_store_n(&in_handler, 0, __ATOMIC_RELAXED);
		down_write(&rw);
		CHECK(pthread_create(&r, NULL, reader, NULL) == 0);
		/*
		 * Queued, and out of wait_lock (which it holds while it
		 * queues): a handler run inside it would block our
		 * up_write() on wait_lock for ever.
		 */
		WAIT_UNTIL(test_waiters(&rw.wait_list) >= 1 &&
			   !__atomic_load_n(&rw.wait_lock, __ATOMIC_ACQUIRE),
			   5000);
		CHECK(pthread_kill(r, SIGUSR1) == 0);
		WAIT_UNTIL(__atomic_load_n(&in_handler, __ATOMIC_ACQUIRE), 5000);
		up_write(&rw);
		if (woken_readers() == 1)
			break;
		CHECK(write(hold_pipe[1], "x", 1) == 1);
		CHECK(pthread_join(r, NULL) == 0);
		if (++tries == 50) {
			printf("SKIP: rwsem woken reader: handed the lock in "
			       "50 tries (a slow machine)\n");
			return;
		}
	}
	status = run_child(child_woken);
	printf("rwsem, woken reader: child status %#x (%d tries)\n", status,
	       tries + 1);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	CHECK(write(hold_pipe[1], "x", 1) == 1);
	CHECK(pthread_join(r, NULL) == 0);
	CHECK_EQ(woken_readers(), 0);
}

/*
 * The mutex handed by an unlock to a starving waiter of the parent that
 * had not run yet (found in review): the lock then belongs to a thread
 * the child does not have.  Before the fix the child's first
 * mutex_lock() slept for ever.
 */
static int handed_done;

static __no_context_analysis void *handed_waiter(void *arg)
{
	(void)arg;
	mutex_lock(&m);
	mutex_unlock(&m);
	__atomic_store_n(&handed_done, 1, __ATOMIC_RELEASE);
	return NULL;
}

static __no_context_analysis void child_handed(void)
{
	pthread_t t[2];
	int i;

	alarm(20);	/* a hang kills the child: the parent sees it */
	prim = MUTEX;
	shared = 0;
	/*
	 * The lock first (before the fix, this slept for ever), then the
	 * threads: glibc gives a thread created in the child the stack of
	 * one of the parent's, and with it the memory of that thread's
	 * node, which the child reads once to drop it (docs/porting.md:
	 * fork from a quiet point).  Threads first crashed here at -O0.
	 */
	mutex_lock(&m);
	mutex_unlock(&m);
	for (i = 0; i < 2; i++)
		CHECK(pthread_create(&t[i], NULL, contender, NULL) == 0);
	contender(NULL);
	for (i = 0; i < 2; i++)
		CHECK(pthread_join(t[i], NULL) == 0);
	CHECK_EQ(shared, 60000);
	_exit(0);
}

/*
 * The waiter loses the lock to us once after a wake-up (it then asks for
 * a handoff, mutex.c's starvation rule), is caught in a signal handler,
 * and our unlock hands it the lock (count stays -1); we fork then.
 */
static __no_context_analysis void run_mutex_handed(void)
{
	const char *san = getenv("KMUTEX_SANITIZER");
	pthread_t t;
	int status, tries;

	if (san && !strcmp(san, "memcheck")) {
		/*
		 * memcheck takes the stack of a thread caught in a signal
		 * handler at the fork for uninitialised in the child, and
		 * the child reads the node there to drop it.
		 */
		printf("SKIP: mutex handoff: under memcheck\n");
		return;
	}
	for (tries = 1;; tries++) {
		__atomic_store_n(&in_handler, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&handed_done, 0, __ATOMIC_RELAXED);
		mutex_lock(&m);
		CHECK(pthread_create(&t, NULL, handed_waiter, NULL) == 0);
		WAIT_UNTIL(test_waiters(&m.wait_list) >= 1, 5000);
		test_sleep_ms(20);	/* asleep, queued 1 ms ago */
		mutex_unlock(&m);	/* wakes it ... */
		mutex_lock(&m);		/* ... and takes it first (mostly) */
		test_sleep_ms(20);	/* it asked for a handoff, sleeps */
		if (!__atomic_load_n(&handed_done, __ATOMIC_ACQUIRE) &&
		    !__atomic_load_n(&m.wait_lock, __ATOMIC_ACQUIRE)) {
			CHECK(pthread_kill(t, SIGUSR1) == 0);
			WAIT_UNTIL(__atomic_load_n(&in_handler,
						   __ATOMIC_ACQUIRE), 5000);
			mutex_unlock(&m);
			if (__atomic_load_n(&m.count, __ATOMIC_RELAXED) == -1)
				break;		/* handed over */
			CHECK(write(hold_pipe[1], "x", 1) == 1);
		} else {
			mutex_unlock(&m);
		}
		CHECK(pthread_join(t, NULL) == 0);
		if (tries == 50) {
			printf("SKIP: mutex handoff: not handed in 50 tries "
			       "(a slow machine)\n");
			return;
		}
	}
	status = run_child(child_handed);
	printf("mutex, handed over: child status %#x (%d tries)\n", status,
	       tries);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	CHECK(write(hold_pipe[1], "x", 1) == 1);
	CHECK(pthread_join(t, NULL) == 0);
	CHECK(__atomic_load_n(&handed_done, __ATOMIC_ACQUIRE));
}

/*
 * fork() in a signal handler that interrupted the thread's own down()
 * (found in review; fork() is async-signal-safe): the child's one thread
 * goes on waiting there.  Before the fix the child took its node for a
 * parent's, dropped it, and the up() that followed was lost.
 */
static DEFINE_SEMAPHORE(hsem, 0);
static pid_t hchild, hparent;

static void hup(int sig)
{
	(void)sig;
	up(&hsem);	/* allowed in a handler */
}

static void hfork(int sig)
{
	struct sigaction sa = { .sa_handler = hup };
	struct itimerval it = { .it_value = { .tv_usec = 50000 } };
	pid_t pid;

	(void)sig;
	pid = fork();
	if (pid != 0) {
		__atomic_store_n(&hchild, pid, __ATOMIC_RELEASE);
		return;
	}
	/* The child: a unit in 50 ms, for the down() we interrupted. */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGALRM, &sa, NULL);
	setitimer(ITIMER_REAL, &it, NULL);
}

static __no_context_analysis void *hwaiter(void *arg)
{
	(void)arg;
	down(&hsem);
	if (getpid() != hparent)
		_exit(0);	/* the child: the unit came */
	return NULL;
}

static void run_fork_in_handler(void)
{
	struct sigaction sa = { .sa_handler = hfork };
	pthread_t t;
	pid_t r = 0;
	int status = 0, i;

	hparent = getpid();
	sigemptyset(&sa.sa_mask);
	CHECK(sigaction(SIGUSR2, &sa, NULL) == 0);
	CHECK(pthread_create(&t, NULL, hwaiter, NULL) == 0);
	/* Queued, out of wait_lock, and asleep by now. */
	WAIT_UNTIL(test_waiters(&hsem.wait_list) >= 1 &&
		   !__atomic_load_n(&hsem.wait_lock, __ATOMIC_ACQUIRE), 5000);
	test_sleep_ms(20);
	CHECK(pthread_kill(t, SIGUSR2) == 0);
	WAIT_UNTIL(__atomic_load_n(&hchild, __ATOMIC_ACQUIRE), 5000);
	for (i = 0; i < 2000 && !r; i++) {	/* 20 s */
		r = waitpid(hchild, &status, WNOHANG);
		if (!r)
			test_sleep_ms(10);
	}
	if (!r) {
		kill(hchild, SIGKILL);
		waitpid(hchild, &status, 0);
	}
	printf("semaphore, fork in a handler: child %s, status %#x\n",
	       r ? "ended" : "hung (killed)", status);
	CHECK(r == hchild && WIFEXITED(status) && WEXITSTATUS(status) == 0);
	up(&hsem);
	CHECK(pthread_join(t, NULL) == 0);
}

DEFINE_STATIC_PERCPU_RWSEM(pcpu);
static long pcpu_shared;

/* The parent's writer: waits for the forking thread's read hold. */
static __no_context_analysis void *pcpu_writer(void *arg)
{
	(void)arg;
	percpu_down_write(&pcpu);
	percpu_up_write(&pcpu);
	return NULL;
}

/* In the child: readers and writers, all through the slow paths too. */
static __no_context_analysis void *pcpu_contender(void *arg)
{
	int i;

	(void)arg;
	for (i = 0; i < 20000; i++) {
		if (i % 4) {
			percpu_down_read(&pcpu);
			CHECK(__atomic_load_n(&pcpu_shared, __ATOMIC_RELAXED) >= 0);
			percpu_up_read(&pcpu);
			continue;
		}
		if (i % 8 == 0 && percpu_down_read_trylock(&pcpu))
			percpu_up_read(&pcpu);
		percpu_down_write(&pcpu);
		pcpu_shared++;
		percpu_up_write(&pcpu);
	}
	return NULL;
}

static __no_context_analysis void child_pcpu(void)
{
	pthread_t t[2];
	int i;

	alarm(20);	/* a hang kills the child: the parent sees it */
	percpu_up_read(&pcpu);	/* the forking thread's hold */
	for (i = 0; i < 2; i++)
		CHECK(pthread_create(&t[i], NULL, pcpu_contender, NULL) == 0);
	pcpu_contender(NULL);
	for (i = 0; i < 2; i++)
		CHECK(pthread_join(t[i], NULL) == 0);
	CHECK_EQ(pcpu_shared, 3 * 5000);
	_exit(0);
}

static __no_context_analysis void run_percpu_draining(void)
{
	pthread_t w;
	int status;

	percpu_down_read(&pcpu);
	CHECK(pthread_create(&w, NULL, pcpu_writer, NULL) == 0);
	/* The writer has raised the block: it drains (we are a reader). */
	WAIT_UNTIL(__atomic_load_n(&pcpu.block, __ATOMIC_RELAXED) != 0, 5000);
	status = run_child(child_pcpu);
	printf("percpu rwsem: child status %#x\n", status);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	percpu_up_read(&pcpu);	/* and the parent's writer goes on */
	CHECK(pthread_join(w, NULL) == 0);
}

int main(void)
{
	int scribbled;

	test_watchdog(120);
	ww_mutex_init(&wwm, &fork_class);
	for (scribbled = 0; scribbled <= 1; scribbled++) {
		run(MUTEX, "mutex", scribbled);
		run(RWSEM, "rwsem", scribbled);
		run(SEM, "semaphore", scribbled);
		run(COMPLETION, "completion", scribbled);
		run(WW, "ww_mutex", scribbled);
	}
	run_rwsem_woken();
	run_mutex_handed();
	run_fork_in_handler();
	run_percpu_draining();
	return 0;
}
