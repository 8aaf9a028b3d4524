// SPDX-License-Identifier: MIT
/*
 * stat_rwsem.c - lock statistics of a rw_semaphore: waits for the read
 * side and the write side are counted apart, as rows rwsem-read and
 * rwsem-write of the one DECLARE_RWSEM, each with sane wait times.
 */
#include <linux/rwsem.h>

#include "stat.h"

#define THREADS		6

static DECLARE_RWSEM(stat_test_rw);
static char ids[THREADS];	/* thread i gets &ids[i] */

static void *mixed(void *arg)
{
	uint64_t end = test_now_ns() + test_duration_ns(0.3);
	long id = (char *)arg - ids;
	int i = 0;

	while (test_now_ns() < end || i < 100) {
		if ((i + id) % 3 == 0) {
			down_write(&stat_test_rw);
			stat_hold(3000);
			if (i % 8 == 0)
				sched_yield();
			up_write(&stat_test_rw);
		} else {
			down_read(&stat_test_rw);
			stat_hold(2000);
			up_read(&stat_test_rw);
		}
		i++;
	}
	return NULL;
}

static void *one_reader(void *arg)
{
	(void)arg;
	down_read(&stat_test_rw);
	up_read(&stat_test_rw);
	return NULL;
}

static void *one_writer(void *arg)
{
	(void)arg;
	down_write(&stat_test_rw);
	up_write(&stat_test_rw);
	return NULL;
}

/* A wait of each side for certain: the rwsem is held for writing. */
static void sure_waits(void)
{
	pthread_t r, w;

	down_write(&stat_test_rw);
	CHECK(pthread_create(&r, NULL, one_reader, NULL) == 0);
	CHECK(pthread_create(&w, NULL, one_writer, NULL) == 0);
	WAIT_UNTIL(test_waiters(&stat_test_rw.wait_list) == 2, 10000);
	up_write(&stat_test_rw);
	pthread_join(r, NULL);
	pthread_join(w, NULL);
}

int main(int argc, char **argv)
{
	char err[256], out[256], row[1024], *csv;
	unsigned long long v[9];

	if (argc > 1 && !strcmp(argv[1], "mixed")) {
		test_run_threads(THREADS, mixed, ids, 1);
		sure_waits();
		return 0;
	}
	test_watchdog(120);
	stat_tmp(err, sizeof(err), "err");
	stat_tmp(out, sizeof(out), "out");
	CHECK_EQ(stat_child("mixed", out, "csv", err), 0);
	csv = stat_slurp(out);
	fputs(csv, stdout);
	CHECK(stat_csv_row(csv, "stat_test_rw", "rwsem-read", row,
			   sizeof(row), v));
	stat_check_sane(row, v);
	CHECK(stat_csv_row(csv, "stat_test_rw", "rwsem-write", row,
			   sizeof(row), v));
	stat_check_sane(row, v);
	CHECK(strstr(row, "\"mixed+0x") || strstr(row, "\"one_writer+0x"));
	free(csv);
	unlink(out);
	unlink(err);
	printf("PASS\n");
	return 0;
}
