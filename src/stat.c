// SPDX-License-Identifier: MIT
/*
 * stat.c - lock statistics: which lock a program waits on (issue 11).
 *
 * The idea is the kernel's lock_stat (/proc/lock_stat): per lock,
 * contentions, wait times and the places that waited.  Unlike lock_stat
 * nothing is added to the lock structs or the inline fast paths: the
 * slow paths (HOOK_WAIT() in src/hooks.h) record into a side table keyed
 * by the lock's address and kind, allocated with mmap() the first time
 * it is needed.
 *
 * The table is written from the slow paths, maybe from a signal handler
 * that interrupted one: so it takes no lock at all.  Records are claimed
 * by a compare-and-swap of their key (open addressing, linear probing,
 * never removed); counters are atomic adds, min and max CAS loops, and a
 * record's call sites are claimed like the records.  A full table counts
 * what it drops.  A lock freed and another one created at its address
 * share a record (as lock_stat's classes share one).
 *
 * The slow paths count in their thread's own records (stat_thread.c),
 * which the shared table's record of the lock only names; printing adds
 * them up, a thread's exit adds them into the shared record.
 *
 * Printing (at exit, or kmutex_stat_print()) reads the counters while
 * the program may still be running: each value is consistent, a row
 * maybe not quite (avg is total/count of one moment).
 */
#include "api.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <kmutex/stat.h>

#include "cpu.h"
#include "stat.h"
#include "stat_format.h"
#include "stat_rec.h"
#include "ticks.h"

#define STAT_BITS	12			/* 4096 locks */
#define STAT_SLOTS	(1u << STAT_BITS)
#define STAT_MERGED	32	/* call sites per row when printing */

int stat_on;
__thread KMUTEX_TLS unsigned int stat_sleeps;
__thread KMUTEX_TLS uint64_t stat_took_ticks;
__thread KMUTEX_TLS
	struct stat_caller stat_caller;

static struct stat_rec *stat_table;
static uint64_t stat_dropped;		/* records the full table refused */

static const char *const stat_kind_name[STAT_KINDS] = {
	[STAT_MUTEX] = "mutex",
	[STAT_RWSEM_READ] = "rwsem-read",
	[STAT_RWSEM_WRITE] = "rwsem-write",
	[STAT_WW_MUTEX] = "ww_mutex",
	[STAT_SEMAPHORE] = "semaphore",
	[STAT_COMPLETION] = "completion",
};

#define LOAD(p)		STAT_LOAD(p)
#define STORE(p, v)	STAT_STORE(p, v)
#define ADD(p, v)	STAT_ADD(p, v)

/* The table, mapped on first use: mmap() is async-signal-safe. */
static struct stat_rec *stat_table_get(void)
{
	struct stat_rec *t = __atomic_load_n(&stat_table, __ATOMIC_ACQUIRE);
	struct stat_rec *none = NULL;
	size_t size = STAT_SLOTS * sizeof(*t);

	if (t)
		return t;
	t = mmap(NULL, size, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (t == MAP_FAILED)
		return NULL;
	if (__atomic_compare_exchange_n(&stat_table, &none, t, false,
					__ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
		return t;
	munmap(t, size);	/* another thread mapped it first */
	return none;
}

/* The shared record of @key (stat_key()), claimed if new; NULL: full. */
struct stat_rec *stat_shared(uint64_t key)
{
	uint64_t h = stat_hash(key);
	struct stat_rec *t = stat_table_get();
	unsigned int i, n;

	if (!t)
		return NULL;
	for (n = 0, i = h >> (64 - STAT_BITS); n < STAT_SLOTS;
	     n++, i = (i + 1) & (STAT_SLOTS - 1)) {
		uint64_t k = LOAD(&t[i].key);

		if (k == key)
			return &t[i];
		if (k == 0 &&
		    (__atomic_compare_exchange_n(&t[i].key, &k, key, false,
				__ATOMIC_RELAXED, __ATOMIC_RELAXED) || k == key))
			return &t[i];
	}
	ADD(&stat_dropped, 1);
	return NULL;
}

/* @count waits at @ip, @wait ns in all, into @r's sites (stat_inc()). */
void stat_rec_site(struct stat_rec *r, uintptr_t ip, uint64_t count,
		   uint64_t wait, bool own)
{
	unsigned int i;

	for (i = 0; i < STAT_SITES; i++) {
		struct stat_site *s = &r->sites[i];
		uintptr_t cur = LOAD(&s->ip);

		if (cur == 0) {
			/* Free: claim it (by CAS if others write @r). */
			if (own)
				STORE(&s->ip, ip);
			else if (!__atomic_compare_exchange_n(&s->ip, &cur, ip,
					false, __ATOMIC_RELAXED,
					__ATOMIC_RELAXED) && cur != ip)
				continue;
		} else if (cur != ip) {
			continue;
		}
		stat_inc(&s->count, count, own);
		stat_inc(&s->wait, wait, own);
		return;
	}
	stat_inc(&r->other_count, count, own);
	stat_inc(&r->other_wait, wait, own);
}

/* @src's counts added into @dst (an exiting thread's into the shared). */
void stat_rec_merge(struct stat_rec *dst, struct stat_rec *src)
{
	uint64_t min = LOAD(&src->wait_min);
	unsigned int i;

	ADD(&dst->contended, LOAD(&src->contended));
	ADD(&dst->spun, LOAD(&src->spun));
	ADD(&dst->slept, LOAD(&src->slept));
	ADD(&dst->acquired, LOAD(&src->acquired));
	ADD(&dst->handoffs, LOAD(&src->handoffs));
	ADD(&dst->wait_total, LOAD(&src->wait_total));
	if (min)
		stat_min(&dst->wait_min, min);
	stat_max(&dst->wait_max, LOAD(&src->wait_max));
	for (i = 0; i < STAT_SITES; i++) {
		uintptr_t ip = LOAD(&src->sites[i].ip);
		uint64_t count = LOAD(&src->sites[i].count);

		if (ip && count)
			stat_rec_site(dst, ip, count,
				      LOAD(&src->sites[i].wait), false);
	}
	ADD(&dst->other_count, LOAD(&src->other_count));
	ADD(&dst->other_wait, LOAD(&src->other_wait));
}

/* Every counter of @r to zero; it keeps its key and call sites. */
void stat_rec_clear(struct stat_rec *r)
{
	unsigned int j;

	STORE(&r->contended, 0);
	STORE(&r->spun, 0);
	STORE(&r->slept, 0);
	STORE(&r->acquired, 0);
	STORE(&r->handoffs, 0);
	STORE(&r->wait_min, 0);
	STORE(&r->wait_max, 0);
	STORE(&r->wait_total, 0);
	STORE(&r->other_count, 0);
	STORE(&r->other_wait, 0);
	for (j = 0; j < STAT_SITES; j++) {
		STORE(&r->sites[j].count, 0);
		STORE(&r->sites[j].wait, 0);
	}
}

/**
 * stat_begin - a slow path starts, with statistics on (HOOK_WAIT())
 * @sw: the wait's state, on the caller's stack
 * @lock: the lock waited on
 * @ip: the public call's return address
 */
void stat_begin(struct stat_wait *sw, const void *lock, const void *ip)
{
	/* Named by a debugging-build entry point for this lock, or @ip. */
	if (stat_caller.lock == lock) {
		sw->ip = stat_caller.ip;
		sw->cls = stat_caller.cls;
	} else {
		sw->ip = ip;
		sw->cls = NULL;
	}
	stat_caller.lock = NULL;
	sw->sleeps = stat_sleeps;
	/* Waiting anyway: the reads, and the ticks' rate, cost nothing. */
	ticks_calibrate(true);
	sw->t0_ticks = policy_ticks();
	sw->t0 = now_ns() | 1;	/* never 0: 0 means off */
}

/* Whether @ret of a slow path of @kind means it acquired. */
static bool stat_acquired(enum stat_kind kind, long ret)
{
	return kind == STAT_COMPLETION ? ret > 0 : ret == 0;
}

/**
 * stat_end - a slow path that started with stat_begin() returns
 * @sw: the wait's state
 * @lock: the lock waited on
 * @kind: what it is
 * @ret: the slow path's return value
 *
 * A semaphore or completion that did not sleep was not contended (its
 * slow path is also the way in when a unit is there): not counted.
 */
void stat_end(struct stat_wait *sw, const void *lock, enum stat_kind kind,
	      long ret)
{
	uint64_t t1 = stat_took_ticks;
	bool slept = stat_sleeps != sw->sleeps;
	struct stat_rec *r;
	uint64_t wait;
	bool own;

	/*
	 * The slow path's own read at the acquisition, if it has one (not:
	 * none, or an interrupted wait's, in a signal handler), in ticks
	 * from the start of the wait, if their rate is known yet.
	 */
	stat_took_ticks = 0;
	if (t1 <= sw->t0_ticks || !ticks_to_ns(t1 - sw->t0_ticks, &wait))
		wait = now_ns() - (sw->t0 & ~1ull);
	if (!slept && kind >= STAT_SPINNING_KINDS)
		return;
	if (!wait)
		wait = 1;	/* min 0 means "none yet" */
#ifdef KMUTEX_DEBUG
	if (sw->cls)
		class_stat_contended(sw->cls, kind, wait);
#endif
	r = stat_local(stat_key(lock, kind), (uintptr_t)sw->ip, &own);
	if (!r)
		return;
	if (!LOAD(&r->first_ip))	/* a shared record's own, if shared */
		STORE(&r->first_ip, (uintptr_t)sw->ip);
	stat_inc(&r->contended, 1, own);
	stat_inc(slept ? &r->slept : &r->spun, 1, own);
	if (stat_acquired(kind, ret))
		stat_inc(&r->acquired, 1, own);
	stat_inc(&r->wait_total, wait, own);
	stat_min(&r->wait_min, wait);
	stat_max(&r->wait_max, wait);
	stat_rec_site(r, (uintptr_t)sw->ip, 1, wait, own);
}

/**
 * stat_handoff - the releaser of @lock handed it to a waiter
 * @lock: the lock
 * @kind: what it is
 */
void stat_handoff(const void *lock, enum stat_kind kind)
{
	bool own;
	struct stat_rec *r = stat_local(stat_key(lock, kind), 0, &own);

	if (r)
		stat_inc(&r->handoffs, 1, own);
}

/**
 * kmutex_stat_reset - clear the lock statistics
 *
 * Every counter goes back to zero; locks keep their records (and so
 * their place in the table).  Waits in progress are counted into the
 * new period when they end.  Nothing happens with statistics off.
 */
KMUTEX_API void kmutex_stat_reset(void)
{
	struct stat_rec *t = __atomic_load_n(&stat_table, __ATOMIC_ACQUIRE);
	unsigned int i;

	if (!t)
		return;
	stat_threads_lock();
	for (i = 0; i < STAT_SLOTS; i++)
		if (LOAD(&t[i].key))
			stat_rec_clear(&t[i]);
	stat_threads_reset();
	stat_threads_unlock();
	STORE(&stat_dropped, 0);
#ifdef KMUTEX_DEBUG
	class_stat_reset();
#endif
}

/* --- output ------------------------------------------------------------- */

/* A record copied out of the table: what one row prints. */
struct stat_row {
	const void *lock;
	const char *type;
	uintptr_t first_ip;
	uint64_t contended, spun, slept, acquired, handoffs;
	uint64_t wait_min, wait_avg, wait_max, wait_total;
	char name[STAT_NAME_LEN];
	struct stat_out_site top[STAT_TOP];	/* by wait */
};

#define ROW(key, sep, head, width, val, member)				\
	STAT_FIELD(key, sep, head, width, val, struct stat_row, member)

/* The row's columns (docs/lock_stat.md); text in us, csv/json in ns. */
static const struct stat_field row_fields[] = {
	ROW("name",		"",  "lock",	   -32, SV_CHARS, name),
	ROW("type",		" ", "type",	   -11, SV_WORD,  type),
	ROW("address",		NULL, NULL,	     0, SV_PTR,   lock),
	ROW("contended",	" ", "contended",   10, SV_U64,   contended),
	ROW("spun",		" ", "spun",	    10, SV_U64,   spun),
	ROW("slept",		" ", "slept",	    10, SV_U64,   slept),
	ROW("slow_acquired",	" ", "slow-acq",    10, SV_U64,   acquired),
	ROW("handoffs",		" ", "handoffs",     8, SV_U64,   handoffs),
	ROW("wait_min_ns",	" ", "wait-min",    12, SV_NS,    wait_min),
	ROW("wait_avg_ns",	" ", "wait-avg",    12, SV_NS,    wait_avg),
	ROW("wait_max_ns",	" ", "wait-max",    12, SV_NS,    wait_max),
	ROW("wait_total_ns",	" ", "wait-total",  12, SV_NS,    wait_total),
};

/* A contention point: "    <count> waits <wait> us  <site>" in text. */
static const struct stat_field site_fields[] = {
	STAT_SITE("site",	NULL,		 0, SV_CHARS, name),
	STAT_SITE("count",	"    ",		10, SV_U64,   count),
	STAT_SITE("wait_ns",	" waits ",	14, SV_NS,    wait),
	STAT_SITE(NULL,		" us  ",	 0, SV_CHARS, name),
};

static const struct stat_table stat_locks =
	STAT_TABLE(row_fields, site_fields, struct stat_row, top,
		   "locks", "sites", "site");

static int site_cmp(const void *a, const void *b)
{
	const struct stat_site *x = a, *y = b;

	if (x->wait != y->wait)
		return x->wait < y->wait ? 1 : -1;
	return x->count < y->count ? 1 : x->count > y->count ? -1 : 0;
}

static int row_cmp(const void *a, const void *b)
{
	const struct stat_row *x = a, *y = b;

	if (x->wait_total != y->wait_total)
		return x->wait_total < y->wait_total ? 1 : -1;
	return x->contended < y->contended ? 1 :
	       x->contended > y->contended ? -1 : 0;
}

/* A row being added up from a lock's records: its call sites merged. */
struct row_sum {
	struct stat_row *w;
	unsigned int nsites;
	struct stat_site sites[STAT_MERGED];	/* the rest not printed */
};

static void row_site(struct row_sum *sum, uintptr_t ip, uint64_t count,
		     uint64_t wait)
{
	unsigned int j;

	for (j = 0; j < sum->nsites && sum->sites[j].ip != ip; j++)
		;
	if (j == STAT_MERGED)
		return;
	if (j == sum->nsites) {
		sum->sites[j].ip = ip;
		sum->nsites++;
	}
	sum->sites[j].count += count;
	sum->sites[j].wait += wait;
}

/* A record of the row's lock (shared, or a thread's) into the row. */
static void row_add(struct stat_rec *r, void *arg)
{
	struct row_sum *sum = arg;
	struct stat_row *w = sum->w;
	uint64_t min = LOAD(&r->wait_min), max = LOAD(&r->wait_max);
	unsigned int j;

	w->contended += LOAD(&r->contended);
	w->spun += LOAD(&r->spun);
	w->slept += LOAD(&r->slept);
	w->acquired += LOAD(&r->acquired);
	w->handoffs += LOAD(&r->handoffs);
	w->wait_total += LOAD(&r->wait_total);
	if (min && (!w->wait_min || min < w->wait_min))
		w->wait_min = min;
	if (max > w->wait_max)
		w->wait_max = max;
	for (j = 0; j < STAT_SITES; j++) {
		uintptr_t ip = LOAD(&r->sites[j].ip);
		uint64_t count = LOAD(&r->sites[j].count);

		if (ip && count)
			row_site(sum, ip, count, LOAD(&r->sites[j].wait));
	}
}

/* Under stat_threads_lock(): the shared record and every thread's. */
static void row_fill(struct stat_row *w, struct stat_rec *r, uint64_t key)
{
	struct row_sum sum = { .w = w };
	unsigned int j;

	w->lock = (const void *)(uintptr_t)(key >> 3);
	w->type = stat_kind_name[(key & 7) - 1];
	w->first_ip = LOAD(&r->first_ip);
	row_add(r, &sum);
	stat_threads_each(key, row_add, &sum);
	stat_clamp(&w->wait_min, &w->wait_max, w->wait_total);
	w->wait_avg = w->contended ? w->wait_total / w->contended : 0;
	qsort(sum.sites, sum.nsites, sizeof(sum.sites[0]), site_cmp);
	for (j = 0; j < STAT_TOP && j < sum.nsites; j++) {
		w->top[j].ip = sum.sites[j].ip;
		w->top[j].count = sum.sites[j].count;
		w->top[j].wait = sum.sites[j].wait;
	}
}

/* The name: the lock's symbol, else "<kind>@addr (first: site)". */
static void row_names(struct stat_row *w, struct stat_syms *syms)
{
	char site[128];

	if (!stat_symbolize(syms, w->lock, w->name, sizeof(w->name)))
		snprintf(w->name, sizeof(w->name), "%p@%s", w->lock,
			 stat_symbolize(syms, (const void *)w->first_ip,
					site, sizeof(site)) ?: "?");
	stat_name_sites(syms, w->top);
}

static void print_text(FILE *f, struct stat_row *rows, size_t n,
		       uint64_t dropped)
{
	fprintf(f, "kmutex lock statistics: %zu contended lock%s, by total "
		"wait (times in us)\n", n, n == 1 ? "" : "s");
	stat_print_text(f, &stat_locks, rows, n);
	if (dropped)
		fprintf(f, "(%llu waits not counted: more than %u locks)\n",
			(unsigned long long)dropped, STAT_SLOTS);
}

static void print_json(FILE *f, struct stat_row *rows, size_t n,
		       uint64_t dropped)
{
	fprintf(f, "{\"dropped\": %llu, ", (unsigned long long)dropped);
	stat_print_json(f, &stat_locks, rows, n);
#ifdef KMUTEX_DEBUG
	class_stat_print(f, STAT_JSON);	/* , "classes": [...] */
#endif
	fputs("}\n", f);
}

static enum stat_format stat_format(void)
{
	const char *s = getenv("KMUTEX_STAT_FORMAT");

	if (s && !strcmp(s, "csv"))
		return STAT_CSV;
	if (s && !strcmp(s, "json"))
		return STAT_JSON;
	return STAT_TEXT;
}

/* The contended records, copied out, named and sorted; NULL if none. */
static struct stat_row *stat_rows(size_t *np)
{
	struct stat_rec *t = __atomic_load_n(&stat_table, __ATOMIC_ACQUIRE);
	struct stat_row *rows;
	struct stat_syms *syms;
	size_t n = 0, max, i;

	*np = 0;
	if (!t)
		return NULL;
	/* Every lock counted has its key here; its counts may be elsewhere. */
	for (i = 0; i < STAT_SLOTS; i++)
		n += LOAD(&t[i].key) != 0;
	rows = calloc(n ? n : 1, sizeof(*rows));
	if (!rows)
		return NULL;
	max = n;
	n = 0;
	stat_threads_lock();
	for (i = 0; i < STAT_SLOTS && n < max; i++) {
		uint64_t key = LOAD(&t[i].key);

		if (!key)
			continue;
		memset(&rows[n], 0, sizeof(rows[n]));
		row_fill(&rows[n], &t[i], key);
		n += rows[n].contended != 0;
	}
	stat_threads_unlock();
	syms = stat_syms_open();
	for (i = 0; i < n; i++)
		row_names(&rows[i], syms);
	stat_syms_close(syms);
	qsort(rows, n, sizeof(*rows), row_cmp);
	*np = n;
	return rows;
}

/**
 * kmutex_stat_print - print the lock statistics
 * @f: where to
 *
 * Prints the table of contended locks, sorted by total wait, in the form
 * KMUTEX_STAT_FORMAT asks for (text, csv or json).  With statistics off
 * (KMUTEX_STAT unset) prints nothing.
 *
 * Return: the number of locks printed, 0 with statistics off, -1 if the
 * table could not be copied (out of memory).
 */
KMUTEX_API int kmutex_stat_print(FILE *f)
{
	uint64_t dropped = LOAD(&stat_dropped);
	enum stat_format fmt;
	struct stat_row *rows;
	size_t n;

	if (!LOAD(&stat_on))
		return 0;
	rows = stat_rows(&n);
	if (!rows && __atomic_load_n(&stat_table, __ATOMIC_ACQUIRE))
		return -1;
	fmt = stat_format();
	if (fmt == STAT_CSV)
		stat_print_csv(f, &stat_locks, rows, n);
	else if (fmt == STAT_JSON)
		print_json(f, rows, n, dropped);
	else
		print_text(f, rows, n, dropped);
#ifdef KMUTEX_DEBUG
	if (fmt != STAT_JSON)
		class_stat_print(f, fmt);	/* a second table */
#endif
	fflush(f);
	free(rows);
	return (int)n;
}

/* KMUTEX_STAT: unset, "" or "0" off; "1" standard error; else a file. */
static const char *stat_env(void)
{
	const char *s = getenv("KMUTEX_STAT");

	return s && *s && strcmp(s, "0") ? s : NULL;
}

static void stat_at_exit(void)
{
	const char *where = stat_env();
	FILE *f;

	if (!where) {
		return;		/* forced on (a benchmark variant): silent */
	} else if (!strcmp(where, "1")) {
		kmutex_stat_print(stderr);
		return;
	}
	f = fopen(where, "w");
	if (!f) {
		fprintf(stderr, "kmutex: KMUTEX_STAT: cannot write %s: %s\n",
			where, strerror(errno));
		return;
	}
	kmutex_stat_print(f);
	fclose(f);
}

/* KMUTEX_STAT_FORCE: on without the environment (bench's kmutex-stat). */
#ifndef KMUTEX_STAT_FORCE
#define KMUTEX_STAT_FORCE	0
#endif

static __attribute__((constructor)) void stat_init(void)
{
	bool env = stat_env() != NULL;

	if (!env && !KMUTEX_STAT_FORCE)
		return;
	if (!stat_table_get() || stat_threads_init())
		return;		/* no memory: stay off */
	if (env)
		atexit(stat_at_exit);
	__atomic_store_n(&stat_on, 1, __ATOMIC_RELAXED);
}
