// SPDX-License-Identifier: MIT
/*
 * stat_wait.c - lock statistics of semaphores and completions: a down()
 * that sleeps until up() and a wait_for_completion() that sleeps until
 * complete() are counted (slept, and handed over: "handoffs"); a down()
 * of a free unit and a wait on a done completion are not contentions.
 */
#include <linux/completion.h>
#include <linux/semaphore.h>

#include "family.h"	/* fam_queued(): a wait list's length */
#include "stat.h"

#define ROUNDS		20

static DEFINE_SEMAPHORE(stat_test_sem, 0);
static DECLARE_COMPLETION(stat_test_done);
static DEFINE_SEMAPHORE(stat_test_free_sem, ROUNDS);

static void *waiter(void *arg)
{
	int i;

	(void)arg;
	for (i = 0; i < ROUNDS; i++) {
		down(&stat_test_sem);
		wait_for_completion(&stat_test_done);
	}
	return NULL;
}

static void waits(void)
{
	pthread_t t;
	int i;

	CHECK(pthread_create(&t, NULL, waiter, NULL) == 0);
	/*
	 * Each up() and complete() once the waiter is queued, not after a
	 * nap: on a loaded machine it could be late every time, and then
	 * nothing slept.
	 */
	for (i = 0; i < ROUNDS; i++) {
		WAIT_UNTIL(fam_queued(FAM_LIST(&stat_test_sem)) == 1,
			   PROMPT_MS);
		up(&stat_test_sem);
		WAIT_UNTIL(fam_queued(FAM_LIST(&stat_test_done)) == 1,
			   PROMPT_MS);
		complete(&stat_test_done);
		down(&stat_test_free_sem);
	}
	pthread_join(t, NULL);
}

int main(int argc, char **argv)
{
	char err[256], out[256], row[1024], *csv;
	unsigned long long v[9];

	if (argc > 1 && !strcmp(argv[1], "waits")) {
		waits();
		return 0;
	}
	test_watchdog(120);
	stat_tmp(err, sizeof(err), "err");
	stat_tmp(out, sizeof(out), "out");
	CHECK_EQ(stat_child("waits", out, "csv", err), 0);
	csv = stat_slurp(out);
	fputs(csv, stdout);
	CHECK(stat_csv_row(csv, "stat_test_sem", "semaphore", row,
			   sizeof(row), v));
	stat_check_sane(row, v);
	CHECK(v[2] > 0 && v[3] == v[0] && v[4] > 0);
	CHECK(stat_csv_row(csv, "stat_test_done", "completion", row,
			   sizeof(row), v));
	stat_check_sane(row, v);
	CHECK(v[2] > 0 && v[3] == v[0]);
	CHECK(!strstr(csv, "stat_test_free_sem"));
	free(csv);
	unlink(out);
	unlink(err);
	printf("PASS\n");
	return 0;
}
