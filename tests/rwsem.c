// SPDX-License-Identifier: MIT
/*
 * rwsem.c - struct rw_semaphore: many readers or one writer.
 *
 * Initialisation, the trylocks and rwsem_is_locked in each state,
 * readers sharing (two inside at once), writers alone (8 readers and 4
 * writers for a few seconds on 2 CPUs: no reader beside a writer, no
 * writer beside anyone, and a counter that only writers update, without
 * atomics, comes out exact), downgrade_write, up_write letting the
 * readers queued behind it in together, the fairness bounds (a stream
 * of readers does not starve a writer, a stream of writers does not
 * starve a reader), the interruptible and killable forms (-EINTR with
 * and without SA_RESTART, and a waiter that gives up leaves nobody
 * stuck behind it), and the guards.  Under TSan the cases that signal
 * sleeping waiters are left out, saying so (fam_signals_reach_sleepers).
 */
#include <linux/rwsem.h>

#include "family.h"

static DECLARE_RWSEM(static_sem);

/*
 * Not checked by clang -Wthread-safety: locks in one function, unlocks in
 * another.
 */
static __no_context_analysis long call_down_read(struct fam_call *c)
{
	down_read(c->obj);
	return 0;
}

/*
 * Not checked by clang -Wthread-safety: locks in one function, unlocks in
 * another.
 */
static __no_context_analysis long call_down_write(struct fam_call *c)
{
	down_write(c->obj);
	return 0;
}

static long call_down_read_interruptible(struct fam_call *c)
{
	return down_read_interruptible(c->obj);
}

static long call_down_read_killable(struct fam_call *c)
{
	return down_read_killable(c->obj);
}

static long call_down_write_killable(struct fam_call *c)
{
	return down_write_killable(c->obj);
}

/*
 * Not checked by clang -Wthread-safety: locks in one function, unlocks in
 * another.
 */
static __no_context_analysis long call_up_read(struct fam_call *c)
{
	up_read(c->obj);
	return 0;
}

/*
 * A writer that, once in, holds the rwsem until the main thread lets it
 * go (let_writer_go) and then releases it itself: TSan's mutex model
 * reports a write lock released by another thread.  One at a time.
 */
static int writer_in, writer_go;

/*
 * Not checked by clang -Wthread-safety: lock results checked by CHECK_EQ,
 * which the analysis cannot read.
 */
static __no_context_analysis long call_write_until_let_go(struct fam_call *c)
{
	down_write(c->obj);
	__atomic_store_n(&writer_in, 1, __ATOMIC_SEQ_CST);
	WAIT_UNTIL(__atomic_load_n(&writer_go, __ATOMIC_SEQ_CST), PROMPT_MS);
	up_write(c->obj);
	return 0;
}

static void start_held_writer(struct fam_call *c, struct rw_semaphore *sem)
{
	writer_in = 0;
	writer_go = 0;
	fam_start(c, call_write_until_let_go, sem, 0);
}

static bool writer_holds(void)
{
	return __atomic_load_n(&writer_in, __ATOMIC_SEQ_CST);
}

static void let_writer_go(void)
{
	__atomic_store_n(&writer_go, 1, __ATOMIC_SEQ_CST);
}

/* Unlocked, nobody waiting. */
static void check_idle(struct rw_semaphore *sem)
{
	CHECK_EQ(sem->count, 0);
	CHECK_EQ(fam_queued(FAM_LIST(sem)), 0);
	CHECK(!rwsem_is_locked(sem));
}

/*
 * The trylocks and rwsem_is_locked in every state, without waiters:
 * unlocked, read-held once and twice, write-held.
 */
/*
 * Not checked by clang -Wthread-safety: lock results checked by CHECK_EQ,
 * which the analysis cannot read.
 */
static __no_context_analysis void test_states(struct rw_semaphore *sem)
{
	check_idle(sem);
	CHECK_EQ(down_read_trylock(sem), 1);
	CHECK(rwsem_is_locked(sem));
	CHECK_EQ(down_write_trylock(sem), 0);
	CHECK_EQ(down_read_trylock(sem), 1);	/* readers share */
	CHECK(rwsem_is_locked(sem));
	CHECK_EQ(down_write_trylock(sem), 0);
	up_read(sem);
	CHECK(rwsem_is_locked(sem));		/* one reader left */
	CHECK_EQ(down_write_trylock(sem), 0);
	up_read(sem);
	check_idle(sem);

	CHECK_EQ(down_write_trylock(sem), 1);
	CHECK(rwsem_is_locked(sem));
	CHECK_EQ(down_write_trylock(sem), 0);
	CHECK_EQ(down_read_trylock(sem), 0);
	CHECK(rwsem_is_locked(sem));		/* failures changed nothing */
	up_write(sem);
	check_idle(sem);

	down_read(sem);
	CHECK(rwsem_is_locked(sem));
	CHECK_EQ(down_write_trylock(sem), 0);
	CHECK_EQ(down_read_interruptible(sem), 0);
	CHECK_EQ(down_read_killable(sem), 0);
	up_read(sem);
	up_read(sem);
	up_read(sem);
	check_idle(sem);

	down_write(sem);
	CHECK(rwsem_is_locked(sem));
	CHECK_EQ(down_read_trylock(sem), 0);
	up_write(sem);
	CHECK_EQ(down_write_killable(sem), 0);
	CHECK_EQ(down_write_trylock(sem), 0);
	up_write(sem);
	check_idle(sem);

	/* The trylocks never sleep. */
	long sleeps = test_thread_sleeps();
	int i, fails = 0;

	down_write(sem);
	for (i = 0; i < 100000; i++)
		fails += !down_read_trylock(sem) + !down_write_trylock(sem);
	up_write(sem);
	down_read(sem);
	for (i = 0; i < 100000; i++)
		fails += !down_write_trylock(sem);
	up_read(sem);
	CHECK_EQ(fails, 300000);
	CHECK(test_thread_sleeps() - sleeps <= 5);
	check_idle(sem);
}

static void test_init(void)
{
	struct rw_semaphore s;
	DECLARE_RWSEM(local);

	test_states(&static_sem);
	test_states(&local);
	memset(&s, 0xa5, sizeof(s));
	init_rwsem(&s);
	test_states(&s);
}

/*
 * Readers share: each of two threads takes it for reading and waits,
 * holding it, until the other is inside too (a rwsem that let only one
 * reader in at a time would deadlock here, caught by the bound).
 */
static int readers_in;

static long call_read_until_all_in(struct fam_call *c)
{
	down_read(c->obj);
	__atomic_fetch_add(&readers_in, 1, __ATOMIC_SEQ_CST);
	WAIT_UNTIL(__atomic_load_n(&readers_in, __ATOMIC_SEQ_CST) >= c->arg,
		   PROMPT_MS);
	CHECK(rwsem_is_locked(c->obj));
	/* Inside together: no writer may come in now. */
	CHECK_EQ(down_write_trylock(c->obj), 0);
	up_read(c->obj);
	return 0;
}

static void test_readers_share(void)
{
	struct rw_semaphore s;
	struct fam_call c[2];

	init_rwsem(&s);
	readers_in = 0;
	fam_start(&c[0], call_read_until_all_in, &s, 2);
	fam_start(&c[1], call_read_until_all_in, &s, 2);
	CHECK_EQ(fam_join(&c[0]), 0);
	CHECK_EQ(fam_join(&c[1]), 0);
	check_idle(&s);
}

/*
 * up_write lets the readers queued behind it in together: with the
 * write lock held, n threads queue for reading; after up_write each of
 * them holds the read lock until all of them do (4, and more than the
 * library wakes in one batch).  Then a writer queued behind a batch of
 * readers gets in once they are done, and the readers queued behind
 * that writer wait for it.
 */
#define READERS	20

/*
 * Not checked by clang -Wthread-safety: lock results checked by CHECK_EQ,
 * which the analysis cannot read.
 */
static __no_context_analysis void test_up_write_wakes_readers(void)
{
	struct fam_call c[READERS], w, late;
	struct rw_semaphore s;
	int i, n;

	init_rwsem(&s);
	for (n = 4; n <= READERS; n += READERS - 4) {
		readers_in = 0;
		down_write(&s);
		for (i = 0; i < n; i++) {
			fam_start(&c[i], call_read_until_all_in, &s, n);
			fam_wait_queued(&c[i], FAM_LIST(&s), i + 1);
		}
		test_sleep_ms(20);
		CHECK_EQ(__atomic_load_n(&readers_in, __ATOMIC_SEQ_CST), 0);
		up_write(&s);
		for (i = 0; i < n; i++)
			CHECK_EQ(fam_join(&c[i]), 0);
		check_idle(&s);
	}

	/* Readers, then a writer, then a reader, behind a writer. */
	readers_in = 0;
	down_write(&s);
	for (i = 0; i < 2; i++) {
		fam_start(&c[i], call_read_until_all_in, &s, 2);
		fam_wait_queued(&c[i], FAM_LIST(&s), i + 1);
	}
	start_held_writer(&w, &s);
	fam_wait_queued(&w, FAM_LIST(&s), 3);
	fam_start(&late, call_down_read, &s, 0);
	fam_wait_queued(&late, FAM_LIST(&s), 4);
	up_write(&s);
	/* The two readers go in together and out; then the writer. */
	CHECK_EQ(fam_join(&c[0]), 0);
	CHECK_EQ(fam_join(&c[1]), 0);
	WAIT_UNTIL(writer_holds(), PROMPT_MS);
	/* The late reader queued behind the writer, which holds it now. */
	test_sleep_ms(20);
	CHECK(!fam_done(&late));
	CHECK(rwsem_is_locked(&s));
	CHECK_EQ(s.count & RWSEM_WRITER_LOCKED, RWSEM_WRITER_LOCKED);
	let_writer_go();
	CHECK_EQ(fam_join(&w), 0);
	CHECK_EQ(fam_join(&late), 0);
	up_read(&s);
	check_idle(&s);
}

/*
 * downgrade_write: the writer becomes a reader without letting go; a
 * reader queued at the head of the queue gets in beside it at once, a
 * writer queued after that reader does not.
 */
/*
 * Not checked by clang -Wthread-safety: lock results checked by CHECK_EQ,
 * which the analysis cannot read.
 */
static __no_context_analysis void test_downgrade(void)
{
	struct fam_call r, w;
	struct rw_semaphore s;

	init_rwsem(&s);
	/* Nobody waiting: it is simply read-held afterwards. */
	down_write(&s);
	downgrade_write(&s);
	CHECK(rwsem_is_locked(&s));
	CHECK_EQ(down_write_trylock(&s), 0);
	CHECK_EQ(down_read_trylock(&s), 1);
	up_read(&s);
	up_read(&s);
	check_idle(&s);

	down_write(&s);
	fam_start(&r, call_down_read, &s, 0);
	fam_wait_queued(&r, FAM_LIST(&s), 1);
	start_held_writer(&w, &s);
	fam_wait_queued(&w, FAM_LIST(&s), 2);
	downgrade_write(&s);
	/* The reader gets in while this thread still holds it for reading. */
	CHECK_EQ(fam_join(&r), 0);
	test_sleep_ms(20);
	CHECK(!writer_holds());
	CHECK_EQ(fam_queued(FAM_LIST(&s)), 1);
	CHECK_EQ(s.count & RWSEM_WRITER_LOCKED, 0);
	CHECK_EQ(down_write_trylock(&s), 0);
	up_read(&s);		/* ours */
	test_sleep_ms(20);
	CHECK(!writer_holds());	/* the other reader still holds it */
	fam_start(&r, call_up_read, &s, 0);	/* the reader's, any thread */
	fam_join(&r);
	WAIT_UNTIL(writer_holds(), PROMPT_MS);
	CHECK_EQ(s.count & RWSEM_WRITER_LOCKED, RWSEM_WRITER_LOCKED);
	let_writer_go();
	CHECK_EQ(fam_join(&w), 0);
	check_idle(&s);
}

/*
 * 8 readers and 4 writers on 2 CPUs for a few seconds, with every form
 * of down.  Readers check that no writer is inside and that the
 * writers' counter does not move under them; writers check they are
 * alone and update the counter non-atomically, with a yield in the
 * middle now and then, so a second writer would lose updates.
 */
#define STRESS_READERS	8
#define STRESS_WRITERS	4

static DECLARE_RWSEM(stress_sem);
static int stress_readers, stress_writers, stress_max_readers;
static volatile long stress_counter;
static uint64_t stress_end;

struct stress_worker {
	int writer;
	unsigned int rnd;
	long ops, bad, tries_failed;
};

static void stress_read(struct stress_worker *w)
{
	int in = __atomic_add_fetch(&stress_readers, 1, __ATOMIC_SEQ_CST);
	int m = __atomic_load_n(&stress_max_readers, __ATOMIC_RELAXED);
	long before = stress_counter;

	while (in > m && !__atomic_compare_exchange_n(&stress_max_readers,
			&m, in, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		;
	if (__atomic_load_n(&stress_writers, __ATOMIC_SEQ_CST))
		w->bad++;
	if ((fam_rand(&w->rnd) & 7) == 0)
		sched_yield();
	if (stress_counter != before)
		w->bad++;
	__atomic_sub_fetch(&stress_readers, 1, __ATOMIC_SEQ_CST);
}

static void stress_write(struct stress_worker *w)
{
	if (__atomic_add_fetch(&stress_writers, 1, __ATOMIC_SEQ_CST) != 1)
		w->bad++;
	if (__atomic_load_n(&stress_readers, __ATOMIC_SEQ_CST))
		w->bad++;
	long c = stress_counter;

	if ((fam_rand(&w->rnd) & 15) == 0)
		sched_yield();
	stress_counter = c + 1;
	__atomic_sub_fetch(&stress_writers, 1, __ATOMIC_SEQ_CST);
}

/*
 * Not checked by clang -Wthread-safety: lock results kept in a variable,
 * which the analysis cannot read.
 */
static __no_context_analysis void *stress_thread(void *arg)
{
	struct stress_worker *w = arg;

	/*
	 * One operation at least, whatever the clock says: the window
	 * opens before the threads are created, and on one loaded CPU a
	 * thread can first run (or fail its first trylocks) after it closed.
	 */
	while (test_now_ns() < stress_end || !w->ops) {
		unsigned int r = fam_rand(&w->rnd) % 4;

		if (w->writer) {
			if (r == 0) {
				if (!down_write_trylock(&stress_sem)) {
					w->tries_failed++;
					sched_yield();
					continue;
				}
			} else if (r == 1) {
				CHECK_EQ(down_write_killable(&stress_sem), 0);
			} else {
				down_write(&stress_sem);
			}
			stress_write(w);
			if (r == 3) {
				/* Stay on as a reader, writers kept out. */
				downgrade_write(&stress_sem);
				stress_read(w);
				up_read(&stress_sem);
			} else {
				up_write(&stress_sem);
			}
		} else {
			if (r == 0) {
				if (!down_read_trylock(&stress_sem)) {
					w->tries_failed++;
					sched_yield();
					continue;
				}
			} else if (r == 1) {
				CHECK_EQ(down_read_interruptible(&stress_sem),
					 0);
			} else if (r == 2) {
				CHECK_EQ(down_read_killable(&stress_sem), 0);
			} else {
				down_read(&stress_sem);
			}
			stress_read(w);
			up_read(&stress_sem);
		}
		w->ops++;
	}
	return NULL;
}

static void test_stress(void)
{
	struct stress_worker w[STRESS_READERS + STRESS_WRITERS] = { 0 };
	long reads = 0, writes = 0, bad = 0, tries = 0;
	int i;

	for (i = 0; i < STRESS_READERS + STRESS_WRITERS; i++) {
		w[i].writer = i >= STRESS_READERS;
		w[i].rnd = 1000 + i;
	}
	stress_end = test_now_ns() + test_duration_ns(2.5);
	test_run_threads(STRESS_READERS + STRESS_WRITERS, stress_thread, w,
			 sizeof(w[0]));
	for (i = 0; i < STRESS_READERS + STRESS_WRITERS; i++) {
		if (w[i].writer)
			writes += w[i].ops;
		else
			reads += w[i].ops;
		bad += w[i].bad;
		tries += w[i].tries_failed;
		CHECK(w[i].ops > 0);
	}
	printf("stress: %ld reads by %d readers, %ld writes by %d writers, "
	       "up to %d readers at once, %ld failed trylocks, %ld "
	       "violations\n", reads, STRESS_READERS, writes, STRESS_WRITERS,
	       stress_max_readers, tries, bad);
	CHECK_EQ(bad, 0);
	CHECK_EQ(stress_counter, writes);
	CHECK(stress_max_readers >= 2);
	check_idle(&stress_sem);
}

/*
 * Fairness.  Overlapping readers keep the rwsem read-held without a
 * break, and a writer arrives: it must get in within STARVE_MS, since
 * new readers queue behind it.  Then the other way round: writers keep
 * it write-held back to back, and a reader must get in.
 */
#define STARVE_MS	5000	/* generous: a loaded CPU can stall a thread */
#define STREAM		8

static struct rw_semaphore fair_sem;
static int fair_stop;
static long fair_ops[STREAM];

static void *stream_reader(void *arg)
{
	long *ops = arg;

	while (!__atomic_load_n(&fair_stop, __ATOMIC_ACQUIRE)) {
		down_read(&fair_sem);
		fam_spin_ns(20000);	/* long enough to overlap the next */
		up_read(&fair_sem);
		(*ops)++;
	}
	return NULL;
}

static void *stream_writer(void *arg)
{
	long *ops = arg;

	while (!__atomic_load_n(&fair_stop, __ATOMIC_ACQUIRE)) {
		down_write(&fair_sem);
		fam_spin_ns(20000);
		up_write(&fair_sem);
		(*ops)++;
	}
	return NULL;
}

/* Take it once, the way the stream does not, and let go. */
static long call_write_once(struct fam_call *c)
{
	down_write(c->obj);
	fam_spin_ns(1000);
	up_write(c->obj);
	return 0;
}

static long call_read_once(struct fam_call *c)
{
	down_read(c->obj);
	fam_spin_ns(1000);
	up_read(c->obj);
	return 0;
}

static void fairness(void *(*stream)(void *), int nstream, bool writer)
{
	pthread_t t[STREAM];
	struct fam_call c;
	uint64_t worst = 0;
	long total = 0;
	int i, round;

	init_rwsem(&fair_sem);
	fair_stop = 0;
	memset(fair_ops, 0, sizeof(fair_ops));
	for (i = 0; i < nstream; i++)
		CHECK(pthread_create(&t[i], NULL, stream, &fair_ops[i]) == 0);
	for (round = 0; round < 5; round++) {
		uint64_t dt;

		test_sleep_ms(50);
		/* The stream runs: the lock is busy as we arrive. */
		WAIT_UNTIL(rwsem_is_locked(&fair_sem), PROMPT_MS);
		fam_start(&c, writer ? call_write_once : call_read_once,
			  &fair_sem, 0);
		if (!POLL_UNTIL(fam_done(&c), STARVE_MS)) {
			fprintf(stderr, "FAIL: a %s still waits after %d ms "
				"against a stream of %d %s: starved\n",
				writer ? "writer" : "reader", STARVE_MS,
				nstream, writer ? "readers" : "writers");
			exit(1);
		}
		fam_join(&c);
		dt = c.t1 - c.t0;
		if (dt > worst)
			worst = dt;
	}
	__atomic_store_n(&fair_stop, 1, __ATOMIC_RELEASE);
	for (i = 0; i < nstream; i++) {
		CHECK(pthread_join(t[i], NULL) == 0);
		total += fair_ops[i];
	}
	printf("a %s against a stream of %d %s (%ld ops): worst wait "
	       "%.2f ms\n", writer ? "writer" : "reader", nstream,
	       writer ? "readers" : "writers", total, worst / 1e6);
	check_idle(&fair_sem);
}

/* Queue a killable writer @c, then three readers @d that wait for each other. */
static void queue_writer_readers(struct rw_semaphore *s, struct fam_call *c,
				 struct fam_call d[3])
{
	int k;

	readers_in = 0;
	fam_start(c, call_down_write_killable, s, 0);
	fam_wait_queued(c, FAM_LIST(s), 1);
	for (k = 0; k < 3; k++) {
		fam_start(&d[k], call_read_until_all_in, s, 3);
		fam_wait_queued(&d[k], FAM_LIST(s), k + 2);
	}
}

/*
 * The interruptible and killable forms: -EINTR when a handler runs in
 * the blocked thread, with and without SA_RESTART; the lock not taken;
 * the rwsem consistent afterwards.  down_read and down_write are not
 * ended by signals.
 */
/*
 * Not checked by clang -Wthread-safety: lock results kept in variables,
 * and locks released by other threads.
 */
static __no_context_analysis void test_signals(int flags)
{
	long (*const readers[])(struct fam_call *) = {
		call_down_read_interruptible, call_down_read_killable,
	};
	struct fam_call c, d[3];
	struct rw_semaphore s;
	unsigned int i;
	int before, k;

	fam_handle_sigusr1(flags);
	init_rwsem(&s);

	for (i = 0; i < 2; i++) {
		/* A reader behind a writer, interrupted. */
		down_write(&s);
		before = fam_signal_count();
		fam_start(&c, readers[i], &s, 0);
		fam_wait_queued(&c, FAM_LIST(&s), 1);
		fam_interrupt(&c);
		CHECK_EQ(fam_join(&c), -EINTR);
		CHECK(c.signals > before);
		CHECK_EQ(s.count, RWSEM_WRITER_LOCKED);
		CHECK_EQ(fam_queued(FAM_LIST(&s)), 0);
		up_write(&s);
		check_idle(&s);

		/* Interrupted at the head, a writer behind it gets in. */
		down_write(&s);
		fam_start(&c, readers[i], &s, 0);
		fam_wait_queued(&c, FAM_LIST(&s), 1);
		fam_start(&d[0], call_down_write, &s, 0);
		fam_wait_queued(&d[0], FAM_LIST(&s), 2);
		fam_interrupt(&c);
		CHECK_EQ(fam_join(&c), -EINTR);
		CHECK_EQ(fam_queued(FAM_LIST(&s)), 1);
		up_write(&s);
		CHECK_EQ(fam_join(&d[0]), 0);
		up_write(&s);
		check_idle(&s);

		/* Not interrupted: 0, holding it for reading. */
		down_write(&s);
		fam_start(&c, readers[i], &s, 0);
		fam_wait_queued(&c, FAM_LIST(&s), 1);
		up_write(&s);
		CHECK_EQ(fam_join(&c), 0);
		CHECK(rwsem_is_locked(&s));
		CHECK_EQ(down_write_trylock(&s), 0);
		up_read(&s);
		check_idle(&s);
	}

	/* A writer behind a reader, interrupted. */
	down_read(&s);
	before = fam_signal_count();
	fam_start(&c, call_down_write_killable, &s, 0);
	fam_wait_queued(&c, FAM_LIST(&s), 1);
	fam_interrupt(&c);
	CHECK_EQ(fam_join(&c), -EINTR);
	CHECK(c.signals > before);
	CHECK_EQ(s.count, RWSEM_READER_BIAS);
	CHECK_EQ(fam_queued(FAM_LIST(&s)), 0);
	/* New readers are not held back by a writer that has gone. */
	CHECK_EQ(down_read_trylock(&s), 1);
	up_read(&s);
	up_read(&s);
	check_idle(&s);

	/*
	 * The interrupted writer was at the head of the queue, keeping the
	 * readers queued behind it out while another reader holds it: once
	 * it is gone they must get in, with the reader still inside.
	 */
	down_read(&s);
	queue_writer_readers(&s, &c, d);
	test_sleep_ms(20);
	CHECK_EQ(__atomic_load_n(&readers_in, __ATOMIC_SEQ_CST), 0);
	fam_interrupt(&c);
	CHECK_EQ(fam_join(&c), -EINTR);
	for (k = 0; k < 3; k++)
		CHECK_EQ(fam_join(&d[k]), 0);
	up_read(&s);
	check_idle(&s);

	/* Same with the writer locked out by a writer, not a reader. */
	down_write(&s);
	queue_writer_readers(&s, &c, d);
	fam_interrupt(&c);
	CHECK_EQ(fam_join(&c), -EINTR);
	CHECK_EQ(fam_queued(FAM_LIST(&s)), 3);
	up_write(&s);
	for (k = 0; k < 3; k++)
		CHECK_EQ(fam_join(&d[k]), 0);
	check_idle(&s);

	/* Not interrupted: 0, holding it for writing. */
	down_read(&s);
	fam_start(&c, call_down_write_killable, &s, 0);
	fam_wait_queued(&c, FAM_LIST(&s), 1);
	up_read(&s);
	CHECK_EQ(fam_join(&c), 0);
	CHECK_EQ(s.count, RWSEM_WRITER_LOCKED);
	up_write(&s);
	check_idle(&s);

	/* down_read and down_write go on waiting through signals. */
	down_write(&s);
	fam_start(&c, call_down_read, &s, 0);
	fam_wait_queued(&c, FAM_LIST(&s), 1);
	fam_signal_harmlessly(&c, 5);
	up_write(&s);
	CHECK_EQ(fam_join(&c), 0);
	fam_start(&d[0], call_down_write, &s, 0);
	fam_wait_queued(&d[0], FAM_LIST(&s), 1);
	fam_signal_harmlessly(&d[0], 5);
	up_read(&s);
	CHECK_EQ(fam_join(&d[0]), 0);
	up_write(&s);
	check_idle(&s);
}

/*
 * A grant at the very moment the waiter is interrupted: the release runs
 * while the waiter's signal handler runs, after the kernel took it off
 * its futex and before it re-checks the wait list (fam_interrupt_during).
 * The waiter may return 0 holding the lock, or -EINTR without it; either
 * way the rwsem must add up, and whoever waits behind must get in.
 */
/*
 * Not checked by clang -Wthread-safety: locks in one function, unlocks in
 * another.
 */
static __no_context_analysis void do_up_write(void *sem)
{
	up_write(sem);
}

/*
 * Not checked by clang -Wthread-safety: locks in one function, unlocks in
 * another.
 */
static __no_context_analysis void do_up_read(void *sem)
{
	up_read(sem);
}

/* Not checked by clang -Wthread-safety: locks released by other threads. */
static __no_context_analysis void test_grant_vs_signal(int flags)
{
	long (*const readers[])(struct fam_call *) = {
		call_down_read_interruptible, call_down_read_killable,
	};
	struct rw_semaphore s;
	struct fam_call c, d;
	int round, kept = 0;
	long ret;

	fam_handle_sigusr1(flags);
	init_rwsem(&s);
	for (round = 0; round < 6; round++) {
		/* A reader granted by up_write as it is interrupted. */
		down_write(&s);
		fam_start(&c, readers[round & 1], &s, 0);
		fam_wait_queued(&c, FAM_LIST(&s), 1);
		fam_interrupt_during(&c, do_up_write, &s);
		ret = fam_join(&c);
		CHECK(ret == 0 || ret == -EINTR);
		if (ret == 0) {
			CHECK_EQ(s.count, RWSEM_READER_BIAS);
			up_read(&s);	/* the reader's */
		}
		check_idle(&s);
		kept += ret == 0;

		/* A writer granted by up_read as it is interrupted. */
		down_read(&s);
		fam_start(&c, call_down_write_killable, &s, 0);
		fam_wait_queued(&c, FAM_LIST(&s), 1);
		fam_interrupt_during(&c, do_up_read, &s);
		ret = fam_join(&c);
		CHECK(ret == 0 || ret == -EINTR);
		if (ret == 0) {
			CHECK_EQ(s.count, RWSEM_WRITER_LOCKED);
			up_write(&s);
		}
		check_idle(&s);
		kept += ret == 0;

		/* A writer granted by up_write, a reader queued behind it. */
		down_write(&s);
		fam_start(&c, call_down_write_killable, &s, 0);
		fam_wait_queued(&c, FAM_LIST(&s), 1);
		fam_start(&d, call_down_read, &s, 0);
		fam_wait_queued(&d, FAM_LIST(&s), 2);
		fam_interrupt_during(&c, do_up_write, &s);
		ret = fam_join(&c);
		CHECK(ret == 0 || ret == -EINTR);
		if (ret == 0) {
			test_sleep_ms(5);
			CHECK(!fam_done(&d));
			up_write(&s);
		}
		CHECK_EQ(fam_join(&d), 0);	/* not left asleep */
		CHECK_EQ(s.count, RWSEM_READER_BIAS);
		up_read(&s);
		check_idle(&s);
		kept += ret == 0;
	}
	printf("grant crossing a signal: kept %d of 18\n", kept);
}

/* The guards. */
static int read_guarded(struct rw_semaphore *s)
{
	guard(rwsem_read)(s);
	return s->count;
}

static int write_guarded(struct rw_semaphore *s)
{
	guard(rwsem_write)(s);
	return s->count;
}

static long call_read_intr_guard(struct fam_call *c)
{
	scoped_cond_guard(rwsem_read_intr, return -EINTR, c->obj)
		return 0;
	return 1;
}

static long call_write_kill_guard(struct fam_call *c)
{
	scoped_cond_guard(rwsem_write_kill, return -EINTR, c->obj)
		return 0;
	return 1;
}

static void test_guards(void)
{
	struct rw_semaphore s;
	int ran;

	init_rwsem(&s);
	CHECK_EQ(read_guarded(&s), RWSEM_READER_BIAS);
	check_idle(&s);
	CHECK_EQ(write_guarded(&s), RWSEM_WRITER_LOCKED);
	check_idle(&s);

	scoped_guard(rwsem_read, &s) {
		CHECK_EQ(s.count, RWSEM_READER_BIAS);
		scoped_guard(rwsem_read, &s)	/* readers nest */
			CHECK_EQ(s.count, 2 * RWSEM_READER_BIAS);
		ran = 0;
		scoped_guard(rwsem_write_try, &s)
			ran = 1;
		CHECK_EQ(ran, 0);
		ran = 0;
		scoped_guard(rwsem_read_try, &s)
			ran = 1;
		CHECK_EQ(ran, 1);
		CHECK_EQ(s.count, RWSEM_READER_BIAS);
	}
	check_idle(&s);

	scoped_guard(rwsem_write, &s) {
		CHECK_EQ(s.count, RWSEM_WRITER_LOCKED);
		ran = 0;
		scoped_guard(rwsem_read_try, &s)
			ran = 1;
		CHECK_EQ(ran, 0);
		scoped_guard(rwsem_write_try, &s)
			ran = 1;
		CHECK_EQ(ran, 0);
	}
	check_idle(&s);

	ran = 0;
	scoped_guard(rwsem_write_try, &s) {
		CHECK_EQ(s.count, RWSEM_WRITER_LOCKED);
		ran = 1;
	}
	CHECK_EQ(ran, 1);
	check_idle(&s);

	ran = 0;
	scoped_cond_guard(rwsem_read_intr, CHECK(0), &s) {
		CHECK_EQ(s.count, RWSEM_READER_BIAS);
		ran = 1;
	}
	CHECK_EQ(ran, 1);
	check_idle(&s);
	ran = 0;
	scoped_cond_guard(rwsem_write_kill, CHECK(0), &s) {
		CHECK_EQ(s.count, RWSEM_WRITER_LOCKED);
		ran = 1;
	}
	CHECK_EQ(ran, 1);
	check_idle(&s);
}

/*
 * The conditional guards interrupted: the fail statement runs, nothing
 * is released; not interrupted: the body runs and the guard releases.
 */
static void test_guards_interrupted(void)
{
	struct rw_semaphore s;
	struct fam_call c;

	init_rwsem(&s);
	fam_handle_sigusr1(0);
	down_write(&s);
	fam_start(&c, call_read_intr_guard, &s, 0);
	fam_wait_queued(&c, FAM_LIST(&s), 1);
	fam_interrupt(&c);
	CHECK_EQ(fam_join(&c), -EINTR);
	CHECK_EQ(s.count, RWSEM_WRITER_LOCKED);
	fam_start(&c, call_write_kill_guard, &s, 0);
	fam_wait_queued(&c, FAM_LIST(&s), 1);
	fam_interrupt(&c);
	CHECK_EQ(fam_join(&c), -EINTR);
	CHECK_EQ(s.count, RWSEM_WRITER_LOCKED);
	/* Not interrupted: the body runs and the guard releases. */
	fam_start(&c, call_write_kill_guard, &s, 0);
	fam_wait_queued(&c, FAM_LIST(&s), 1);
	up_write(&s);
	CHECK_EQ(fam_join(&c), 0);
	check_idle(&s);
}

int main(void)
{
	uint64_t t0 = test_now_ns();

	test_watchdog(60);
	test_init();
	test_readers_share();
	test_up_write_wakes_readers();
	test_downgrade();
	if (fam_signals_reach_sleepers("signals (-EINTR, SA_RESTART, waits "
				       "that go on through them)")) {
		test_signals(0);
		test_signals(SA_RESTART);
	}
	if (fam_signals_reach_sleepers("a grant crossing a signal")) {
		test_grant_vs_signal(0);
		test_grant_vs_signal(SA_RESTART);
	}
	test_guards();
	if (fam_signals_reach_sleepers("the guards interrupted"))
		test_guards_interrupted();
	test_stress();
	fairness(stream_reader, STREAM, true);
	fairness(stream_writer, 4, false);
	printf("rwsem: all passed in %.1f s\n", (test_now_ns() - t0) / 1e9);
	return 0;
}
