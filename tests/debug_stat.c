// SPDX-License-Identifier: MIT
/*
 * debug_stat.c - the lock statistics in the debugging build: a contended
 * DEFINE_MUTEX and DECLARE_RWSEM are counted under their names, and the
 * call sites are the program's (hammer+0x...), not the checker's entry
 * points inside the library, which call the slow paths there.
 */
#include <linux/mutex.h>
#include <linux/rwsem.h>

#include "stat.h"

#define THREADS		4

static DEFINE_MUTEX(stat_debug_lock);
static DECLARE_RWSEM(stat_debug_rw);

static void *hammer(void *arg)
{
	int i;

	(void)arg;
	for (i = 0; i < 300; i++) {
		mutex_lock(&stat_debug_lock);
		stat_hold(2000);
		if (i % 16 == 0)
			sched_yield();
		mutex_unlock(&stat_debug_lock);
		down_write(&stat_debug_rw);
		stat_hold(1000);
		up_write(&stat_debug_rw);
	}
	return NULL;
}

static void *one_writer(void *arg)
{
	(void)arg;
	down_write(&stat_debug_rw);
	up_write(&stat_debug_rw);
	return NULL;
}

static void *one_locker(void *arg)
{
	(void)arg;
	mutex_lock(&stat_debug_lock);
	mutex_unlock(&stat_debug_lock);
	return NULL;
}

/*
 * A mutex wait for certain, as below: on a loaded machine the hammer's
 * threads may each have run alone (seen once in make test-debug).
 */
static void sure_mutex_wait(void)
{
	pthread_t t;

	mutex_lock(&stat_debug_lock);
	CHECK(pthread_create(&t, NULL, one_locker, NULL) == 0);
	WAIT_UNTIL(test_waiters(&stat_debug_lock.wait_list) == 1, 10000);
	mutex_unlock(&stat_debug_lock);
	pthread_join(t, NULL);
}

/* A write wait for certain: the writer finds the rwsem held. */
static void sure_write_wait(void)
{
	pthread_t t;

	down_write(&stat_debug_rw);
	CHECK(pthread_create(&t, NULL, one_writer, NULL) == 0);
	WAIT_UNTIL(test_waiters(&stat_debug_rw.wait_list) == 1, 10000);
	up_write(&stat_debug_rw);
	pthread_join(t, NULL);
}

int main(int argc, char **argv)
{
	char err[256], out[256], row[1024], *csv;
	unsigned long long v[9];
	char dummy[THREADS];

	if (argc > 1 && !strcmp(argv[1], "hammer")) {
		test_run_threads(THREADS, hammer, dummy, 1);
		sure_mutex_wait();
		sure_write_wait();
		return 0;
	}
	test_watchdog(120);
	stat_tmp(err, sizeof(err), "err");
	stat_tmp(out, sizeof(out), "out");
	CHECK_EQ(stat_child("hammer", out, "csv", err), 0);
	csv = stat_slurp(out);
	fputs(csv, stdout);
	CHECK(stat_csv_row(csv, "stat_debug_lock", "mutex", row, sizeof(row),
			   v));
	stat_check_sane(row, v);
	CHECK(strstr(row, "\"hammer+0x") || strstr(row, "\"one_locker+0x"));
	CHECK(stat_csv_row(csv, "stat_debug_rw", "rwsem-write", row,
			   sizeof(row), v));
	stat_check_sane(row, v);
	CHECK(strstr(row, "\"hammer+0x") || strstr(row, "\"one_writer+0x"));
	free(csv);
	csv = stat_slurp(err);
	CHECK_EQ(strlen(csv), 0);	/* and no report */
	free(csv);
	unlink(out);
	unlink(err);
	printf("PASS\n");
	return 0;
}
