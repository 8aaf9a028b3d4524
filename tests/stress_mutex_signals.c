// SPDX-License-Identifier: MIT
/*
 * stress_mutex_signals.c - the mutex under a SIGUSR1 storm, 8 and 64
 * threads on 2 CPUs, with handlers installed without and with
 * SA_RESTART: every form of lock (mutex_lock, _interruptible,
 * _killable, mutex_trylock) while another thread signals a random
 * worker every few tens of microseconds, so that interrupted waiters
 * leave the wait list all the time.
 *
 * Checked: mutual exclusion (one owner at a time, and a plain counter
 * incremented under the lock loses no update), every thread finishes
 * (a progress monitor fails a lost wake-up, the watchdog a hang), only
 * the interruptible forms return -EINTR, and the mutex is free with an
 * empty wait list at the end.
 *
 * Under ThreadSanitizer the handlers of signals that arrive during a
 * futex(2) sleep are deferred (see tests/run, signal_restart), so few
 * or no waits end in -EINTR there, and "handlers ran" is not checked;
 * the invariants are.
 */
#include <linux/mutex.h>

#include "family.h"

static DEFINE_MUTEX(lock);
static int inside;		/* owners inside: 0 or 1 */
static long counter;		/* plain, under the lock */

struct worker {
	unsigned int rnd;
	unsigned long ops;	/* watched by the monitor */
	long got, eintr, busy, over;
};

#define MAX_THREADS	64
static struct worker w[MAX_THREADS];
static int nthreads;

static void critical_section(struct worker *me)
{
	if (__atomic_add_fetch(&inside, 1, __ATOMIC_SEQ_CST) != 1)
		me->over++;
	counter++;
	if ((fam_rand(&me->rnd) & 7) == 0)
		sched_yield();
	__atomic_sub_fetch(&inside, 1, __ATOMIC_SEQ_CST);
	me->got++;
}

/*
 * Not checked by clang -Wthread-safety: lock results kept in a variable
 * set in a switch, which the analysis cannot read.
 */
static __no_context_analysis void *worker_thread(void *arg)
{
	struct worker *me = arg;

	/*
	 * Until it locked once at least: with 0.05 s windows on one loaded
	 * CPU under TSan, a thread may first run after the window, or spend
	 * it interrupted or refused by trylock.
	 */
	while (fam_running() || !me->got) {
		unsigned int r = fam_rand(&me->rnd) % 4;
		int ret = 0;

		switch (r) {
		case 0:
			mutex_lock(&lock);
			break;
		case 1:
			ret = mutex_lock_interruptible(&lock);
			break;
		case 2:
			ret = mutex_lock_killable(&lock);
			break;
		default:
			ret = mutex_trylock(&lock) ? 0 : -EBUSY;
			break;
		}
		if (ret == 0) {
			critical_section(me);
			mutex_unlock(&lock);
		} else if (ret == -EINTR) {
			CHECK(r == 1 || r == 2);
			me->eintr++;
		} else {
			CHECK(ret == -EBUSY && r == 3);
			me->busy++;
		}
		__atomic_store_n(&me->ops, me->ops + 1, __ATOMIC_RELAXED);
	}
	return NULL;
}

static unsigned long progress(void *arg)
{
	unsigned long sum = 0;
	int i;

	(void)arg;
	for (i = 0; i < nthreads; i++)
		sum += __atomic_load_n(&w[i].ops, __ATOMIC_RELAXED);
	return sum;
}

static void storm(int n, int flags, double seconds)
{
	long got = 0, eintr = 0, busy = 0, over = 0;
	int before = fam_signal_count(), i;
	pthread_t t[MAX_THREADS];
	struct fam_monitor m;
	struct fam_storm s;
	char what[64];

	snprintf(what, sizeof(what), "mutex storm, %d threads%s", n,
		 flags ? ", SA_RESTART" : "");
	fam_handle_sigusr1(flags);
	nthreads = n;
	counter = 0;
	memset(w, 0, sizeof(w));
	for (i = 0; i < n; i++)
		w[i].rnd = 1000 + 17 * i + n;
	fam_hold_clock(seconds);
	fam_monitor_start(&m, what, progress, NULL);
	for (i = 0; i < n; i++)
		CHECK(pthread_create(&t[i], NULL, worker_thread, &w[i]) == 0);
	fam_storm_start(&s, t, n);
	fam_start_clock();
	while (fam_running())
		test_sleep_ms(10);
	fam_storm_stop(&s);	/* before a worker can be reaped under it */
	for (i = 0; i < n; i++)
		CHECK(pthread_join(t[i], NULL) == 0);
	fam_monitor_stop(&m);
	for (i = 0; i < n; i++) {
		got += w[i].got;
		eintr += w[i].eintr;
		busy += w[i].busy;
		over += w[i].over;
	}
	printf("%s: %ld signals sent, %d handled, %ld locked, %ld "
	       "interrupted, %ld trylocks failed, %ld times not alone\n",
	       what, s.sent, fam_signal_count() - before, got, eintr, busy,
	       over);
	CHECK_EQ(over, 0);
	CHECK_EQ(counter, got);
	CHECK(got > 0);
#ifndef KMUTEX_TSAN
	/*
	 * The storm reached the workers (TSan may defer every handler).
	 * Not checked with 64 threads under qemu-user (make test-aarch64,
	 * make test-armhf): there, runs where none of the ~80 signals sent
	 * was handled are common, a matter of qemu's signal delivery, not
	 * of the lock; the 8-thread storms still check it.
	 */
	if (s.sent > 10 && !(n > 8 && getenv("KMUTEX_ARCH")))
		CHECK(fam_signal_count() > before);
#endif
	CHECK(!mutex_is_locked(&lock));
	CHECK_EQ(lock.count, 1);
	CHECK_EQ(fam_queued(FAM_LIST(&lock)), 0);
}

int main(void)
{
	uint64_t t0 = test_now_ns();

	test_watchdog(120);
	storm(8, 0, 0.4);
	storm(8, SA_RESTART, 0.4);
	storm(64, 0, 0.4);
	storm(64, SA_RESTART, 0.4);
	printf("stress_mutex_signals: all passed in %.1f s\n",
	       (test_now_ns() - t0) / 1e9);
	return 0;
}
