// SPDX-License-Identifier: MIT
/*
 * debug_stat_hold.c - the debugging build's lock statistics per class
 * (KMUTEX_STAT): every acquisition, hold times and acquisition sites.
 *
 * The child takes:
 *   hold_lock    HOLDS times, HOLD_MS each, by hold_it(), never
 *                contended: HOLDS acquisitions, 0 contentions, hold max
 *                >= HOLD_MS and total >= HOLDS * HOLD_MS;
 *   hold_rw      READS read locks by read_it();
 *   contend_lock one sure wait (another thread finds it held);
 *   bufs         WW_ROUNDS ww_mutex_lock()s by ww_it(), in a context
 *                (its map is a class too: "bufs_acquire", lockdep_map),
 *                and a sure wait without one;
 *   "&h->lock"   heap mutexes of one mutex_init() line, each locked
 *                then freed, and another created (maybe at the same
 *                address), in threads that exit: all their acquisitions
 *                counted in the one class.
 * It prints CSV; the text and JSON forms are checked for their parts.
 */
#include <linux/mutex.h>
#include <linux/rwsem.h>
#include <linux/ww_mutex.h>

#include "stat.h"

#define HOLDS		5
#define HOLD_MS		20
#define READS		3
#define HEAP_THREADS	3
#define HEAP_ROUNDS	4
#define WW_ROUNDS	3

static DEFINE_MUTEX(hold_lock);
static DECLARE_RWSEM(hold_rw);
static DEFINE_MUTEX(contend_lock);
static DEFINE_WW_CLASS(bufs);
static struct ww_mutex buf;

struct heap_obj {
	int pad;
	struct mutex lock;
};

static __attribute__((noinline)) void hold_it(void)
{
	mutex_lock(&hold_lock);
	usleep(HOLD_MS * 1000);
	mutex_unlock(&hold_lock);
}

static __attribute__((noinline)) void read_it(void)
{
	down_read(&hold_rw);
	up_read(&hold_rw);
}

static __attribute__((noinline)) void ww_it(void)
{
	struct ww_acquire_ctx ctx;

	ww_acquire_init(&ctx, &bufs);
	CHECK_EQ(ww_mutex_lock(&buf, &ctx), 0);
	ww_acquire_done(&ctx);
	ww_mutex_unlock(&buf);
	ww_acquire_fini(&ctx);
}

static void *contender(void *arg)
{
	(void)arg;
	mutex_lock(&contend_lock);
	mutex_unlock(&contend_lock);
	return NULL;
}

static void *ww_contender(void *arg)
{
	(void)arg;
	CHECK_EQ(ww_mutex_lock(&buf, NULL), 0);
	ww_mutex_unlock(&buf);
	return NULL;
}

/* The same for the ww_mutex, without a context. */
static void sure_ww_wait(void)
{
	pthread_t t;

	CHECK_EQ(ww_mutex_lock(&buf, NULL), 0);
	CHECK(pthread_create(&t, NULL, ww_contender, NULL) == 0);
	WAIT_UNTIL(test_waiters(&buf.base.wait_list) == 1, 10000);
	ww_mutex_unlock(&buf);
	pthread_join(t, NULL);
}

/* A wait for certain: the contender finds the mutex held. */
static void sure_wait(void)
{
	pthread_t t;

	mutex_lock(&contend_lock);
	CHECK(pthread_create(&t, NULL, contender, NULL) == 0);
	WAIT_UNTIL(test_waiters(&contend_lock.wait_list) == 1, 10000);
	mutex_unlock(&contend_lock);
	pthread_join(t, NULL);
}

/* One mutex_init() line: one class, however often it runs. */
static __attribute__((noinline)) void heap_init(struct heap_obj *h)
{
	mutex_init(&h->lock);
}

/* Locks created, taken and freed: the class keeps the counts. */
static void *heap_locker(void *arg)
{
	int i;

	(void)arg;
	for (i = 0; i < HEAP_ROUNDS; i++) {
		struct heap_obj *h = malloc(sizeof(*h));

		CHECK(h);
		heap_init(h);
		mutex_lock(&h->lock);
		mutex_unlock(&h->lock);
		heap_init(h);		/* re-initialised: same class */
		mutex_lock(&h->lock);
		mutex_unlock(&h->lock);
		mutex_destroy(&h->lock);
		free(h);
	}
	return NULL;
}

static void child(void)
{
	pthread_t t[HEAP_THREADS];
	int i;

	for (i = 0; i < HOLDS; i++)
		hold_it();
	for (i = 0; i < READS; i++)
		read_it();
	ww_mutex_init(&buf, &bufs);
	for (i = 0; i < WW_ROUNDS; i++)
		ww_it();
	sure_ww_wait();
	sure_wait();
	for (i = 0; i < HEAP_THREADS; i++)
		CHECK(pthread_create(&t[i], NULL, heap_locker, NULL) == 0);
	for (i = 0; i < HEAP_THREADS; i++)
		pthread_join(t[i], NULL);
}

static void check_csv(const char *csv)
{
	unsigned long long v[7], ms = 1000000ull;
	char row[1024], site[256];

	/* The production table comes first, as it is. */
	CHECK(!strncmp(csv, "name,type,address,contended,", 28));

	CHECK(stat_class_row(csv, "hold_lock", "mutex", row, sizeof(row), v,
			     site, sizeof(site)));
	stat_class_sane(row, v);
	CHECK_EQ(v[0], HOLDS);
	CHECK_EQ(v[1], 0);			/* never contended */
	CHECK(v[5] >= HOLD_MS * ms);		/* hold max */
	CHECK(v[6] >= HOLDS * HOLD_MS * ms);	/* hold total */
	CHECK(v[6] < 3600 * 1000 * ms);		/* sanity */
	CHECK(strstr(row, "debug_stat_hold.c:"));	/* init site */
	CHECK(!strncmp(site, "hold_it+0x", 10));

	CHECK(stat_class_row(csv, "hold_rw", "rwsem-read", row, sizeof(row), v,
			     site, sizeof(site)));
	stat_class_sane(row, v);
	CHECK_EQ(v[0], READS);
	CHECK_EQ(v[1], 0);
	CHECK(!strncmp(site, "read_it+0x", 10));
	CHECK(!stat_class_row(csv, "hold_rw", "rwsem-write", row, sizeof(row),
			      v, site, sizeof(site)));

	CHECK(stat_class_row(csv, "contend_lock", "mutex", row, sizeof(row), v,
			     site, sizeof(site)));
	stat_class_sane(row, v);
	CHECK_EQ(v[0], 2);
	CHECK(v[1] >= 1 && v[1] <= 2);		/* the sure wait */
	CHECK(v[2] > 0);			/* its wait time */

	CHECK(stat_class_row(csv, "bufs_mutex", "ww_mutex", row, sizeof(row), v,
			     site, sizeof(site)));
	stat_class_sane(row, v);
	CHECK_EQ(v[0], WW_ROUNDS + 2);
	CHECK(v[1] >= 1 && v[1] <= 2);		/* the sure wait */
	CHECK(!strncmp(site, "ww_it+0x", 8));
	CHECK(stat_class_row(csv, "bufs_acquire", "lockdep_map", row,
			     sizeof(row), v, site, sizeof(site)));
	stat_class_sane(row, v);
	CHECK_EQ(v[0], WW_ROUNDS);

	CHECK(stat_class_row(csv, "&h->lock", "mutex", row, sizeof(row), v,
			     site, sizeof(site)));
	stat_class_sane(row, v);
	CHECK_EQ(v[0], HEAP_THREADS * HEAP_ROUNDS * 2);
	CHECK(!strncmp(site, "heap_locker+0x", 14));
}

/* Run the child with @fmt; its output, checked for a clean stderr. */
static char *run(const char *fmt)
{
	char err[256], out[256], *s;

	stat_tmp(err, sizeof(err), "err");
	stat_tmp(out, sizeof(out), "out");
	CHECK_EQ(stat_child("hold", out, fmt, err), 0);
	s = stat_slurp(err);
	CHECK_EQ(strlen(s), 0);		/* and no report */
	free(s);
	s = stat_slurp(out);
	unlink(out);
	unlink(err);
	return s;
}

int main(int argc, char **argv)
{
	char *s;

	if (argc > 1 && !strcmp(argv[1], "hold")) {
		child();
		return 0;
	}
	test_watchdog(120);
	s = run("csv");
	fputs(s, stdout);
	check_csv(s);
	free(s);

	s = run(NULL);
	CHECK(strstr(s, "kmutex lock statistics: "));
	CHECK(strstr(s, "\nkmutex lock classes (debugging build): "));
	CHECK(strstr(s, "\nhold_lock "));
	CHECK(strstr(s, " acquired at  hold_it+0x"));
	free(s);

	s = run("json");
	CHECK(!strncmp(s, "{\"dropped\": ", 12));
	CHECK(strstr(s, "], \"classes\": [\n {\"class\": "));
	CHECK(strstr(s, "{\"class\": \"hold_lock\", \"init\": "));
	CHECK(strstr(s, "\"acquired_at\": [{\"site\": \"hold_it+0x"));
	CHECK(!strcmp(s + strlen(s) - 4, "\n]}\n"));
	free(s);
	printf("PASS\n");
	return 0;
}
