// SPDX-License-Identifier: MIT
/*
 * debug_lockdep_map_stat.c - a program's own lock type that calls
 * lock_contended() and lock_acquired() gets its contention counted in
 * the debugging build's lock statistics, per class (KMUTEX_STAT), as
 * the kernel's lock_stat counts a lock that calls them.
 *
 * The child takes:
 *   own          its own spin lock (lockdep_map_lock.h), twice: once
 *                free, once by a thread that finds it held for certain
 *                and says so (lock_contended(), lock_acquired());
 *   read_map     a fake lock taken for reading, told contended;
 *   quiet_map    told contended while not held (ignored), then taken
 *                and told acquired without a contention before: none.
 * Before lock_contended() counted, own and read_map had 0 contentions.
 */
#include "stat.h"
#include "lockdep_map_lock.h"

static struct my_spinlock own;
static struct lock_class_key read_key, quiet_key;
static struct lockdep_map read_map =
	STATIC_LOCKDEP_MAP_INIT("read_map", &read_key);
static struct lockdep_map quiet_map =
	STATIC_LOCKDEP_MAP_INIT("quiet_map", &quiet_key);
static int contending;		/* the contender waits */

/* my_spin_lock(), telling the statistics when it finds the lock held. */
static __attribute__((noinline)) void my_spin_lock_counted(
	struct my_spinlock *l)
{
	lock_acquire(&l->dep_map, 0, 0, 0, 1, NULL, TEST_RET_IP);
	if (__atomic_exchange_n(&l->locked, 1, __ATOMIC_ACQUIRE)) {
		lock_contended(&l->dep_map, TEST_RET_IP);
		__atomic_store_n(&contending, 1, __ATOMIC_RELEASE);
		while (__atomic_exchange_n(&l->locked, 1, __ATOMIC_ACQUIRE))
			sched_yield();
	}
	lock_acquired(&l->dep_map, TEST_RET_IP);
}

static void *contender(void *arg)
{
	(void)arg;
	my_spin_lock_counted(&own);
	my_spin_unlock(&own);
	return NULL;
}

/* A wait for certain: the contender finds the lock held. */
static void sure_wait(void)
{
	pthread_t t;

	my_spin_lock(&own);
	CHECK(pthread_create(&t, NULL, contender, NULL) == 0);
	WAIT_UNTIL(__atomic_load_n(&contending, __ATOMIC_ACQUIRE), 10000);
	my_spin_unlock(&own);
	pthread_join(t, NULL);
}

static void child(void)
{
	my_spin_lock_init(&own);
	sure_wait();

	lock_map_acquire_read(&read_map);
	lock_contended(&read_map, TEST_RET_IP);
	lock_acquired(&read_map, TEST_RET_IP);
	lock_map_release(&read_map);

	lock_contended(&quiet_map, TEST_RET_IP);	/* not held */
	lock_map_acquire(&quiet_map);
	lock_acquired(&quiet_map, TEST_RET_IP);
	lock_map_release(&quiet_map);
}

static void check_csv(const char *csv)
{
	unsigned long long v[7];
	char row[1024], site[256];

	CHECK(stat_class_row(csv, "&own", "lockdep_map", row, sizeof(row), v,
			     site, sizeof(site)));
	stat_class_sane(row, v);
	CHECK_EQ(v[0], 2);
	CHECK_EQ(v[1], 1);			/* the sure wait */
	CHECK(v[2] > 0);			/* its wait time */

	CHECK(stat_class_row(csv, "read_map", "lockdep_map-read", row,
			     sizeof(row), v, site, sizeof(site)));
	stat_class_sane(row, v);
	CHECK_EQ(v[0], 1);
	CHECK_EQ(v[1], 1);
	CHECK(v[2] > 0);
	CHECK(!stat_class_row(csv, "read_map", "lockdep_map", row,
			      sizeof(row), v, site, sizeof(site)));

	CHECK(stat_class_row(csv, "quiet_map", "lockdep_map", row,
			     sizeof(row), v, site, sizeof(site)));
	stat_class_sane(row, v);
	CHECK_EQ(v[0], 1);
	CHECK_EQ(v[1], 0);			/* no wait told */
	CHECK_EQ(v[2], 0);
}

int main(int argc, char **argv)
{
	char err[256], out[256], *s;

	if (argc > 1 && !strcmp(argv[1], "own")) {
		child();
		return 0;
	}
	test_watchdog(120);
	stat_tmp(err, sizeof(err), "err");
	stat_tmp(out, sizeof(out), "out");
	CHECK_EQ(stat_child("own", out, "csv", err), 0);
	s = stat_slurp(err);
	CHECK_EQ(strlen(s), 0);		/* and no report */
	free(s);
	s = stat_slurp(out);
	fputs(s, stdout);
	check_csv(s);
	free(s);
	unlink(out);
	unlink(err);
	printf("PASS\n");
	return 0;
}
