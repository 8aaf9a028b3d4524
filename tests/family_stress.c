// SPDX-License-Identifier: MIT
/*
 * family_stress.c - the semaphore, the rwsem and the completion under
 * oversubscribed stress, long enough to catch a lost wake-up.
 *
 *   handoffs   producer/consumer pairs over two semaphores, and
 *              ping-pong pairs over two completions: every step waits
 *              for the one wake-up the other side sends, hundreds of
 *              thousands of times; a progress monitor turns one lost
 *              wake-up (both sides asleep for ever) into a failure that
 *              says so, and the data passed must arrive in order.
 *   storms     many threads using every form of each primitive while
 *              another thread showers them with signals, so that
 *              interrupted and timed-out waiters leave the wait lists
 *              all the time: the invariants (at most n inside a
 *              semaphore, writers alone, no completion made up or lost)
 *              hold throughout, and everything is idle at the end.
 */
#include <linux/completion.h>
#include <linux/rwsem.h>
#include <linux/semaphore.h>

#include "family.h"

#define PAIRS	6	/* 12 threads on 2 CPUs */
#define SLOTS	2	/* producer/consumer buffer */


/* Producer/consumer over two semaphores: "empty" slots, "full" slots. */
struct pc_pair {
	struct semaphore empty, full;
	long buf[SLOTS];
	long produced;
	unsigned long consumed;		/* watched by the monitor */
	int stop;
	long bad;
};

static void *producer(void *arg)
{
	struct pc_pair *p = arg;
	long i;

	for (i = 0; !__atomic_load_n(&p->stop, __ATOMIC_ACQUIRE); i++) {
		down(&p->empty);
		p->buf[i % SLOTS] = i;
		up(&p->full);
		if (!fam_running())
			__atomic_store_n(&p->stop, 1, __ATOMIC_RELEASE);
	}
	/* The last item tells the consumer to stop. */
	down(&p->empty);
	p->buf[i % SLOTS] = -1;
	up(&p->full);
	p->produced = i;
	return NULL;
}

static void *consumer(void *arg)
{
	struct pc_pair *p = arg;
	long i, v;

	for (i = 0;; i++) {
		down(&p->full);
		v = p->buf[i % SLOTS];
		up(&p->empty);
		if (v < 0)
			break;
		if (v != i)
			p->bad++;
		__atomic_store_n(&p->consumed, i + 1, __ATOMIC_RELAXED);
	}
	return NULL;
}

static struct pc_pair pc[PAIRS];

static unsigned long pc_progress(void *arg)
{
	unsigned long sum = 0;
	int i;

	(void)arg;
	for (i = 0; i < PAIRS; i++)
		sum += __atomic_load_n(&pc[i].consumed, __ATOMIC_RELAXED);
	return sum;
}

static void test_producer_consumer(double seconds)
{
	pthread_t t[2 * PAIRS];
	struct fam_monitor m;
	long total = 0;
	int i;

	for (i = 0; i < PAIRS; i++) {
		memset(&pc[i], 0, sizeof(pc[i]));
		/* Pair 0 has one slot: a strict ping-pong. */
		sema_init(&pc[i].empty, i ? SLOTS : 1);
		sema_init(&pc[i].full, 0);
	}
	fam_hold_clock(seconds);
	fam_monitor_start(&m, "producer/consumer over semaphores",
			  pc_progress, NULL);
	for (i = 0; i < PAIRS; i++) {
		CHECK(pthread_create(&t[2 * i], NULL, producer, &pc[i]) == 0);
		CHECK(pthread_create(&t[2 * i + 1], NULL, consumer,
				     &pc[i]) == 0);
	}
	fam_start_clock();
	for (i = 0; i < 2 * PAIRS; i++)
		CHECK(pthread_join(t[i], NULL) == 0);
	fam_monitor_stop(&m);
	for (i = 0; i < PAIRS; i++) {
		CHECK_EQ(pc[i].bad, 0);
		CHECK_EQ((long)pc[i].consumed, pc[i].produced);
		CHECK(pc[i].produced > 0);
		total += pc[i].produced;
		CHECK_EQ(pc[i].empty.count, i ? SLOTS : 1);
		CHECK_EQ(pc[i].full.count, 0);
		CHECK_EQ(fam_queued(FAM_LIST(&pc[i].empty)), 0);
		CHECK_EQ(fam_queued(FAM_LIST(&pc[i].full)), 0);
	}
	printf("producer/consumer: %ld items through %d pairs of "
	       "semaphores\n", total, PAIRS);
}

/*
 * Ping-pong over two completions: the pinger completes "ping" and waits
 * for "pong", the ponger the other way round, with every form of wait.
 */
struct pp_pair {
	struct completion ping, pong;
	unsigned long pings, pongs;	/* the pongs are watched */
	int stop;
	long bad;
};

static struct pp_pair pp[PAIRS];

static bool pp_wait(struct completion *x, unsigned long i)
{
	switch (i % 4) {
	case 0:
		wait_for_completion(x);
		return true;
	case 1:
		return wait_for_completion_killable(x) == 0;
	case 2:
		return wait_for_completion_timeout(x, 60000) >= 1;
	default:
		return wait_for_completion_interruptible_timeout(x, 60000) >= 1;
	}
}

static void *pinger(void *arg)
{
	struct pp_pair *p = arg;
	unsigned long i;

	/* One round at least: a pinger may first run after the window. */
	for (i = 0; !i || fam_running(); i++) {
		complete(&p->ping);
		if (!pp_wait(&p->pong, i))
			p->bad++;
		p->pings++;
	}
	__atomic_store_n(&p->stop, 1, __ATOMIC_RELEASE);
	complete(&p->ping);
	return NULL;
}

static void *ponger(void *arg)
{
	struct pp_pair *p = arg;
	unsigned long i;

	for (i = 0;; i++) {
		if (!pp_wait(&p->ping, i + 1))
			p->bad++;
		if (__atomic_load_n(&p->stop, __ATOMIC_ACQUIRE))
			break;
		/* Both sides sleep in turn: nothing is ever pending here. */
		if (completion_done(&p->ping))
			p->bad++;
		complete(&p->pong);
		__atomic_store_n(&p->pongs, p->pongs + 1, __ATOMIC_RELAXED);
	}
	return NULL;
}

static unsigned long pp_progress(void *arg)
{
	unsigned long sum = 0;
	int i;

	(void)arg;
	for (i = 0; i < PAIRS; i++)
		sum += __atomic_load_n(&pp[i].pongs, __ATOMIC_RELAXED);
	return sum;
}

static void test_ping_pong(double seconds)
{
	pthread_t t[2 * PAIRS];
	struct fam_monitor m;
	unsigned long total = 0;
	int i;

	for (i = 0; i < PAIRS; i++) {
		memset(&pp[i], 0, sizeof(pp[i]));
		init_completion(&pp[i].ping);
		init_completion(&pp[i].pong);
	}
	fam_hold_clock(seconds);
	fam_monitor_start(&m, "ping-pong over completions", pp_progress,
			  NULL);
	for (i = 0; i < PAIRS; i++) {
		CHECK(pthread_create(&t[2 * i], NULL, pinger, &pp[i]) == 0);
		CHECK(pthread_create(&t[2 * i + 1], NULL, ponger,
				     &pp[i]) == 0);
	}
	fam_start_clock();
	for (i = 0; i < 2 * PAIRS; i++)
		CHECK(pthread_join(t[i], NULL) == 0);
	fam_monitor_stop(&m);
	for (i = 0; i < PAIRS; i++) {
		CHECK_EQ(pp[i].bad, 0);
		CHECK_EQ(pp[i].pings, pp[i].pongs);
		CHECK(pp[i].pings > 0);
		total += pp[i].pings;
		CHECK(!completion_done(&pp[i].ping));
		CHECK(!completion_done(&pp[i].pong));
		CHECK_EQ(fam_queued(FAM_LIST(&pp[i].ping)), 0);
		CHECK_EQ(fam_queued(FAM_LIST(&pp[i].pong)), 0);
	}
	printf("ping-pong: %lu round trips (%lu handoffs) through %d pairs "
	       "of completions\n", total, 2 * total, PAIRS);
}

/* Start @n workers running @fn(@arg + i * @size), and a storm on them. */
static void storm_run(int n, void *(*fn)(void *), void *arg, size_t size,
		      const char *what, unsigned long (*progress)(void *))
{
	pthread_t t[n];
	struct fam_storm s;
	struct fam_monitor m;
	int i;

	fam_handle_sigusr1(0);
	fam_monitor_start(&m, what, progress, NULL);
	for (i = 0; i < n; i++)
		CHECK(pthread_create(&t[i], NULL, fn,
				     (char *)arg + i * size) == 0);
	fam_start_clock();
	fam_storm_start(&s, t, n);
	while (fam_running())
		test_sleep_ms(10);
	/* Stop the storm before a worker can be reaped under it. */
	fam_storm_stop(&s);
	for (i = 0; i < n; i++)
		CHECK(pthread_join(t[i], NULL) == 0);
	fam_monitor_stop(&m);
	printf("%s: %ld signals sent\n", what, s.sent);
}

/* The semaphore: at most SEM_UNITS inside, every unit back at the end. */
#define STORM_THREADS	12
#define SEM_UNITS	2

static struct semaphore storm_sem;
static int sem_inside;

struct sem_worker {
	unsigned int rnd;
	unsigned long ops;
	long got, eintr, etime, busy, over;
};

static struct sem_worker sem_w[STORM_THREADS];

static void *sem_storm_thread(void *arg)
{
	struct sem_worker *w = arg;

	/*
	 * Until it got a unit once at least: on one loaded CPU a thread may
	 * first run after the window, or spend it interrupted, timed out
	 * and refused by trylock.  After the storm, down() gets one.
	 */
	while (fam_running() || !w->got) {
		unsigned int r = fam_rand(&w->rnd);
		int ret = 0;

		switch (r % 5) {
		case 0:
			down(&storm_sem);
			break;
		case 1:
			ret = down_interruptible(&storm_sem);
			break;
		case 2:
			ret = down_killable(&storm_sem);
			break;
		case 3:
			ret = down_timeout(&storm_sem, (r >> 8) % 3);
			break;
		default:
			ret = down_trylock(&storm_sem) ? -EBUSY : 0;
			break;
		}
		if (ret == -EINTR)
			w->eintr++;
		else if (ret == -ETIME)
			w->etime++;
		else if (ret == -EBUSY)
			w->busy++;
		if (ret == 0) {
			if (__atomic_add_fetch(&sem_inside, 1,
					       __ATOMIC_SEQ_CST) > SEM_UNITS)
				w->over++;
			if ((r >> 12) % 4 == 0)
				sched_yield();
			__atomic_sub_fetch(&sem_inside, 1, __ATOMIC_SEQ_CST);
			up(&storm_sem);
			w->got++;
		} else {
			CHECK(ret == -EINTR || ret == -ETIME || ret == -EBUSY);
		}
		__atomic_store_n(&w->ops, w->ops + 1, __ATOMIC_RELAXED);
	}
	return NULL;
}

static unsigned long sem_progress(void *arg)
{
	unsigned long sum = 0;
	int i;

	(void)arg;
	for (i = 0; i < STORM_THREADS; i++)
		sum += __atomic_load_n(&sem_w[i].ops, __ATOMIC_RELAXED);
	return sum;
}

static void test_semaphore_storm(double seconds)
{
	long got = 0, eintr = 0, etime = 0, busy = 0, over = 0;
	int i;

	sema_init(&storm_sem, SEM_UNITS);
	memset(sem_w, 0, sizeof(sem_w));
	for (i = 0; i < STORM_THREADS; i++)
		sem_w[i].rnd = 100 + i;
	fam_hold_clock(seconds);
	storm_run(STORM_THREADS, sem_storm_thread, sem_w, sizeof(sem_w[0]),
		  "semaphore storm", sem_progress);
	for (i = 0; i < STORM_THREADS; i++) {
		got += sem_w[i].got;
		eintr += sem_w[i].eintr;
		etime += sem_w[i].etime;
		busy += sem_w[i].busy;
		over += sem_w[i].over;
		CHECK(sem_w[i].got > 0);
	}
	printf("semaphore storm: %ld taken, %ld interrupted, %ld timed out, "
	       "%ld busy, %ld over %d inside\n", got, eintr, etime, busy,
	       over, SEM_UNITS);
	CHECK_EQ(over, 0);
	CHECK_EQ(storm_sem.count, SEM_UNITS);
	CHECK_EQ(fam_queued(FAM_LIST(&storm_sem)), 0);
}

/* The rwsem: readers never beside a writer, writers alone. */
#define RW_READERS	8

static DECLARE_RWSEM(storm_rw);
static int rw_readers, rw_writers;
static volatile long rw_counter;

struct rw_worker {
	int writer;
	unsigned int rnd;
	unsigned long ops;
	long writes, eintr, bad;
};

static struct rw_worker rw_w[STORM_THREADS];

static void rw_read_section(struct rw_worker *w)
{
	long before = rw_counter;

	__atomic_add_fetch(&rw_readers, 1, __ATOMIC_SEQ_CST);
	if (__atomic_load_n(&rw_writers, __ATOMIC_SEQ_CST))
		w->bad++;
	if ((fam_rand(&w->rnd) & 7) == 0)
		sched_yield();
	if (rw_counter != before)
		w->bad++;
	__atomic_sub_fetch(&rw_readers, 1, __ATOMIC_SEQ_CST);
}

static void rw_write_section(struct rw_worker *w)
{
	long c;

	if (__atomic_add_fetch(&rw_writers, 1, __ATOMIC_SEQ_CST) != 1)
		w->bad++;
	if (__atomic_load_n(&rw_readers, __ATOMIC_SEQ_CST))
		w->bad++;
	c = rw_counter;
	if ((fam_rand(&w->rnd) & 7) == 0)
		sched_yield();
	rw_counter = c + 1;
	w->writes++;
	__atomic_sub_fetch(&rw_writers, 1, __ATOMIC_SEQ_CST);
}

/*
 * Not checked by clang -Wthread-safety: lock results kept in a variable
 * and tested with ==, which the analysis cannot read.
 */
static __no_context_analysis void *rw_storm_thread(void *arg)
{
	struct rw_worker *w = arg;

	/* Once at least: a thread may first run after the window. */
	while (fam_running() || !w->ops) {
		unsigned int r = fam_rand(&w->rnd) % 4;
		int ret = 0;

		if (w->writer) {
			if (r == 0)
				ret = down_write_trylock(&storm_rw) ? 0 : -EBUSY;
			else if (r == 1)
				down_write(&storm_rw);
			else
				ret = down_write_killable(&storm_rw);
			if (ret == 0) {
				rw_write_section(w);
				if (r == 3) {
					downgrade_write(&storm_rw);
					rw_read_section(w);
					up_read(&storm_rw);
				} else {
					up_write(&storm_rw);
				}
			}
		} else {
			if (r == 0)
				ret = down_read_trylock(&storm_rw) ? 0 : -EBUSY;
			else if (r == 1)
				down_read(&storm_rw);
			else if (r == 2)
				ret = down_read_interruptible(&storm_rw);
			else
				ret = down_read_killable(&storm_rw);
			if (ret == 0) {
				rw_read_section(w);
				up_read(&storm_rw);
			}
		}
		if (ret == -EINTR)
			w->eintr++;
		else
			CHECK(ret == 0 || ret == -EBUSY);
		__atomic_store_n(&w->ops, w->ops + 1, __ATOMIC_RELAXED);
	}
	return NULL;
}

static unsigned long rw_progress(void *arg)
{
	unsigned long sum = 0;
	int i;

	(void)arg;
	for (i = 0; i < STORM_THREADS; i++)
		sum += __atomic_load_n(&rw_w[i].ops, __ATOMIC_RELAXED);
	return sum;
}

static void test_rwsem_storm(double seconds)
{
	long writes = 0, eintr = 0, bad = 0;
	unsigned long ops = 0;
	int i;

	init_rwsem(&storm_rw);
	memset(rw_w, 0, sizeof(rw_w));
	for (i = 0; i < STORM_THREADS; i++) {
		rw_w[i].writer = i >= RW_READERS;
		rw_w[i].rnd = 200 + i;
	}
	fam_hold_clock(seconds);
	storm_run(STORM_THREADS, rw_storm_thread, rw_w, sizeof(rw_w[0]),
		  "rwsem storm", rw_progress);
	for (i = 0; i < STORM_THREADS; i++) {
		writes += rw_w[i].writes;
		eintr += rw_w[i].eintr;
		bad += rw_w[i].bad;
		ops += rw_w[i].ops;
		CHECK(rw_w[i].ops > 0);
	}
	printf("rwsem storm: %lu operations, %ld writes, %ld interrupted, "
	       "%ld violations\n", ops, writes, eintr, bad);
	CHECK_EQ(bad, 0);
	CHECK_EQ(rw_counter, writes);
	CHECK_EQ(storm_rw.count, 0);
	CHECK_EQ(fam_queued(FAM_LIST(&storm_rw)), 0);
}

/*
 * The completion: waiters with every form of wait, two threads calling
 * complete(), signals: every complete() is consumed by exactly one
 * successful wait or still pending at the end.
 */
#define COMPLETERS	2

static struct completion storm_done;
static int cs_stop;

struct cs_worker {
	unsigned int rnd;
	unsigned long ops;
	long got, completes, eintr, etime;
	int exited;
};

static struct cs_worker cs_w[STORM_THREADS];

static void *cs_storm_thread(void *arg)
{
	struct cs_worker *w = arg;
	int id = (int)(w - cs_w);

	if (id < COMPLETERS) {
		while (fam_running()) {
			complete(&storm_done);
			w->completes++;
			__atomic_store_n(&w->ops, w->ops + 1, __ATOMIC_RELAXED);
			fam_spin_ns(fam_rand(&w->rnd) % 20000);
			if ((fam_rand(&w->rnd) & 3) == 0)
				sched_yield();
		}
		__atomic_store_n(&w->exited, 1, __ATOMIC_RELEASE);
		return NULL;
	}
	while (!__atomic_load_n(&cs_stop, __ATOMIC_ACQUIRE)) {
		unsigned int r = fam_rand(&w->rnd);
		long ret = 0;

		switch (r % 5) {
		case 0:
			wait_for_completion(&storm_done);
			break;
		case 1:
			ret = wait_for_completion_interruptible(&storm_done);
			break;
		case 2:
			ret = wait_for_completion_timeout(&storm_done,
							  (r >> 8) % 3) ?
			      0 : -ETIME;
			break;
		case 3:
			ret = wait_for_completion_interruptible_timeout(
					&storm_done, (r >> 8) % 3 + 1);
			ret = ret > 0 ? 0 : ret == 0 ? -ETIME : ret;
			break;
		default:
			ret = try_wait_for_completion(&storm_done) ? 0 :
			      -ETIME;
			break;
		}
		if (ret == 0)
			w->got++;
		else if (ret == -EINTR)
			w->eintr++;
		else if (ret == -ETIME)
			w->etime++;
		else
			CHECK(0);
		__atomic_store_n(&w->ops, w->ops + 1, __ATOMIC_RELAXED);
	}
	__atomic_store_n(&w->exited, 1, __ATOMIC_RELEASE);
	return NULL;
}

static unsigned long cs_progress(void *arg)
{
	unsigned long sum = 0;
	int i;

	(void)arg;
	for (i = 0; i < STORM_THREADS; i++)
		sum += __atomic_load_n(&cs_w[i].ops, __ATOMIC_RELAXED);
	return sum;
}

/* After the storm: complete until every waiter has seen cs_stop. */
static long cs_release_waiters(void)
{
	uint64_t end = test_now_ns() + PROMPT_MS * 1000000ull;
	long extra = 0;
	int i;

	__atomic_store_n(&cs_stop, 1, __ATOMIC_RELEASE);
	for (i = COMPLETERS; i < STORM_THREADS; i++) {
		while (!__atomic_load_n(&cs_w[i].exited, __ATOMIC_ACQUIRE)) {
			CHECK(test_now_ns() < end);
			complete(&storm_done);
			extra++;
			test_sleep_ms(1);
		}
	}
	return extra;
}

static void *cs_releaser(void *arg)
{
	long *extra = arg;

	while (fam_running())
		test_sleep_ms(10);
	/* Wait for the completers, so that all complete()s are counted. */
	WAIT_UNTIL(__atomic_load_n(&cs_w[0].exited, __ATOMIC_ACQUIRE) &&
		   __atomic_load_n(&cs_w[1].exited, __ATOMIC_ACQUIRE),
		   PROMPT_MS);
	*extra = cs_release_waiters();
	return NULL;
}

static void test_completion_storm(double seconds)
{
	long got = 0, completes = 0, eintr = 0, etime = 0, extra = 0;
	pthread_t releaser;
	int i, pending;

	init_completion(&storm_done);
	cs_stop = 0;
	memset(cs_w, 0, sizeof(cs_w));
	for (i = 0; i < STORM_THREADS; i++)
		cs_w[i].rnd = 300 + i;
	fam_hold_clock(seconds);
	/* Waiters in a plain wait leave only once completed. */
	CHECK(pthread_create(&releaser, NULL, cs_releaser, &extra) == 0);
	storm_run(STORM_THREADS, cs_storm_thread, cs_w, sizeof(cs_w[0]),
		  "completion storm", cs_progress);
	CHECK(pthread_join(releaser, NULL) == 0);
	for (i = 0; i < STORM_THREADS; i++) {
		got += cs_w[i].got;
		completes += cs_w[i].completes;
		eintr += cs_w[i].eintr;
		etime += cs_w[i].etime;
	}
	pending = 0;
	while (try_wait_for_completion(&storm_done))
		pending++;
	printf("completion storm: %ld complete() + %ld to finish, %ld "
	       "waits passed, %d pending, %ld interrupted, %ld timed out\n",
	       completes, extra, got, pending, eintr, etime);
	CHECK_EQ(got + pending, completes + extra);
	CHECK_EQ(fam_queued(FAM_LIST(&storm_done)), 0);
}

int main(void)
{
	uint64_t t0 = test_now_ns();

	test_watchdog(120);
	test_producer_consumer(1.5);
	test_ping_pong(1.5);
	test_semaphore_storm(1.2);
	test_rwsem_storm(1.2);
	test_completion_storm(1.2);
	printf("family_stress: all passed in %.1f s\n",
	       (test_now_ns() - t0) / 1e9);
	return 0;
}
