// SPDX-License-Identifier: MIT
/*
 * stat_class.c - the debugging build's lock statistics per lock class:
 * every acquisition (not only the contended ones), hold times and the
 * call sites that acquired, as the kernel's CONFIG_LOCK_STAT gives them
 * per lockdep class (acquisitions, holdtime-min/max/total, and its
 * "acquired at" points; kernel/locking/lockdep.c's lock_stats, for the
 * idea only).
 *
 * The production statistics (src/stat.c) see only the slow paths; here
 * the checked entry points run on every lock and unlock anyway, so
 * held_commit() counts the acquisition and stamps the held entry, and
 * held_release() adds the hold time.  Both behind stat_on: with
 * statistics off the cost is that one branch (and a test of the entry's
 * stamp at release).
 *
 * Counters live in the class (classes are never freed: a lock freed or
 * re-initialised leaves its counts where they are) and are atomic adds,
 * min/max CAS loops: threads that exit have counted already.  A class's
 * contentions come from the slow path's stat_end() (src/stat.c), told
 * the class by hook_caller() (src/hooks.h): the same waits the
 * production table counts, summed per class.
 */
#include "../api.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../cpu.h"
#include "../stat_format.h"
#include "debug.h"

#define LOAD(p)		__atomic_load_n((p), __ATOMIC_RELAXED)
#define STORE(p, v)	__atomic_store_n((p), (v), __ATOMIC_RELAXED)
#define ADD(p, v)	__atomic_add_fetch((p), (v), __ATOMIC_RELAXED)

/* Count an acquisition at @ip: its slot claimed by CAS, as stat.c's. */
static void cs_site_add(struct class_stat *s, uintptr_t ip)
{
	unsigned int i;

	for (i = 0; i < CLASS_STAT_SITES; i++) {
		struct class_stat_site *site = &s->sites[i];
		uintptr_t cur = LOAD(&site->ip);

		if (cur == 0 &&
		    !__atomic_compare_exchange_n(&site->ip, &cur, ip, false,
				__ATOMIC_RELAXED, __ATOMIC_RELAXED) &&
		    cur != ip)
			continue;
		if (cur != 0 && cur != ip)
			continue;
		ADD(&site->count, 1);
		return;
	}
	ADD(&s->other_sites, 1);
}

/**
 * class_stat_acquired - a lock of @h's class was acquired
 * @h: the thread's new held entry (before it is pushed)
 *
 * Counts the acquisition and its call site, and stamps @h: its release
 * adds the hold time.
 */
void class_stat_acquired(struct held_lock *h)
{
	struct kmutex_lock_class *c = h->class;
	struct class_stat *s = &c->stat[h->read];

	if (!LOAD(&c->stat_type))
		STORE(&c->stat_type, h->stat_type);
	ADD(&s->acquired, 1);
	cs_site_add(s, (uintptr_t)h->ip);
	h->stat_read = h->read;
	h->stat_t0 = now_ns() | 1;	/* never 0: 0 means not timed */
}

/**
 * class_stat_released - the lock of @h was released by its holder
 * @h: its held entry, stamped by class_stat_acquired()
 *
 * A write lock downgraded to a read lock counts as a write hold to its
 * up_read() (the side it was acquired as).
 */
void class_stat_released(const struct held_lock *h)
{
	struct class_stat *s = &h->class->stat[h->stat_read];
	uint64_t hold = now_ns() - (h->stat_t0 & ~1ull);

	if (!hold)
		hold = 1;	/* min 0 means "none yet" */
	ADD(&s->holds, 1);
	ADD(&s->hold_total, hold);
	stat_min(&s->hold_min, hold);
	stat_max(&s->hold_max, hold);
}

/**
 * class_stat_contended - a slow path of a lock of @cls waited
 * @cls: the struct kmutex_lock_class its entry point named
 * @kind: the wait's kind (the side: read or not)
 * @wait: how long, ns
 */
void class_stat_contended(void *cls, enum stat_kind kind, uint64_t wait)
{
	struct kmutex_lock_class *c = cls;
	struct class_stat *s = &c->stat[kind == STAT_RWSEM_READ];

	ADD(&s->contended, 1);
	ADD(&s->wait_total, wait);
}

/**
 * class_stat_waited - a program's own lock of @h waited, and is taken
 * @h: the thread's held entry, its wait stamped by lock_contended()
 *	(dep_hook_contended())
 *
 * lock_acquired(): one contention of the class, on the side @h holds;
 * the hold time, if timed, starts now, as the kernel's lock_stat has it.
 */
void class_stat_waited(struct held_lock *h)
{
	uint64_t t = now_ns();
	uint64_t wait = t - (h->stat_wait_t0 & ~1ull);

	h->stat_wait_t0 = 0;
	if (!wait)
		wait = 1;
	class_stat_contended(h->class, h->read ? STAT_RWSEM_READ : STAT_MUTEX,
			     wait);
	if (h->stat_t0)
		h->stat_t0 = t | 1;
}

/* kmutex_stat_reset(): every class's counters to zero. */
void class_stat_reset(void)
{
	struct kmutex_lock_class *c;
	unsigned int pos = 0, i, j;

	while ((c = class_next(&pos))) {
		for (i = 0; i < 2; i++) {
			struct class_stat *s = &c->stat[i];

			STORE(&s->acquired, 0);
			STORE(&s->contended, 0);
			STORE(&s->wait_total, 0);
			STORE(&s->holds, 0);
			STORE(&s->hold_min, 0);
			STORE(&s->hold_max, 0);
			STORE(&s->hold_total, 0);
			STORE(&s->other_sites, 0);
			for (j = 0; j < CLASS_STAT_SITES; j++)
				STORE(&s->sites[j].count, 0);
		}
	}
}

/* --- output ------------------------------------------------------------- */

/* One side of a class, copied out: what one row prints. */
struct cs_row {
	const struct kmutex_lock_class *class;
	const char *type;
	const char *init;		/* where its first lock was set up */
	uint64_t acquired, contended, wait_total;
	uint64_t holds, hold_min, hold_avg, hold_max, hold_total;
	char name[STAT_NAME_LEN];
	struct stat_out_site top[STAT_TOP];	/* by count */
};

#define CS(key, sep, head, width, val, member)				\
	STAT_FIELD(key, sep, head, width, val, struct cs_row, member)

/* The row's columns (docs/lock_stat.md); text in us, csv/json in ns. */
static const struct stat_field cs_fields[] = {
	CS("class",		"",  "class",	      -32, SV_CHARS, name),
	CS("init",		NULL, NULL,		0, SV_STR,   init),
	CS("type",		" ", "type",	      -11, SV_WORD,  type),
	CS("acquisitions",	" ", "acquisitions",   12, SV_U64,   acquired),
	CS("contended",		" ", "contended",      10, SV_U64,   contended),
	CS("contended_wait_ns",	NULL, NULL,		0, SV_U64,   wait_total),
	CS("hold_min_ns",	" ", "hold-min",       12, SV_NS,    hold_min),
	CS("hold_avg_ns",	" ", "hold-avg",       12, SV_NS,    hold_avg),
	CS("hold_max_ns",	" ", "hold-max",       12, SV_NS,    hold_max),
	CS("hold_total_ns",	" ", "hold-total",     12, SV_NS,  hold_total),
	CS(NULL,		"  ", "init",		0, SV_STR,   init),
};

/* An acquisition point: "    <count> acquired at  <site>" in text. */
static const struct stat_field cs_site_fields[] = {
	STAT_SITE("site",	NULL,		   0, SV_CHARS, name),
	STAT_SITE("count",	"    ",		  10, SV_U64,   count),
	STAT_SITE(NULL,		" acquired at  ",  0, SV_CHARS, name),
};

static const struct stat_table cs_table =
	STAT_TABLE(cs_fields, cs_site_fields, struct cs_row, top,
		   "classes", "acquired_at", "acq_site");

static const char *cs_type(unsigned int type, bool read)
{
	switch (type) {
	case CS_MUTEX:
		return "mutex";
	case CS_RWSEM:
		return read ? "rwsem-read" : "rwsem-write";
	case CS_WW:
		return "ww_mutex";
	default:
		return read ? "lockdep_map-read" : "lockdep_map";
	}
}

static int cs_site_cmp(const void *a, const void *b)
{
	const struct class_stat_site *x = a, *y = b;

	return x->count < y->count ? 1 : x->count > y->count ? -1 : 0;
}

static int cs_row_cmp(const void *a, const void *b)
{
	const struct cs_row *x = a, *y = b;

	if (x->hold_total != y->hold_total)
		return x->hold_total < y->hold_total ? 1 : -1;
	return x->acquired < y->acquired ? 1 :
	       x->acquired > y->acquired ? -1 : 0;
}

/* Copy one side; false if it has nothing to show. */
static bool cs_fill(struct cs_row *w, const struct kmutex_lock_class *c,
		    bool read)
{
	const struct class_stat *s = &c->stat[read];
	struct class_stat_site sites[CLASS_STAT_SITES];
	unsigned int j;

	w->acquired = LOAD(&s->acquired);
	w->contended = LOAD(&s->contended);
	if (!w->acquired && !w->contended)
		return false;
	w->class = c;
	w->type = cs_type(LOAD(&c->stat_type), read);
	w->init = c->site ? c->site : "?";
	w->wait_total = LOAD(&s->wait_total);
	w->holds = LOAD(&s->holds);
	w->hold_min = LOAD(&s->hold_min);
	w->hold_max = LOAD(&s->hold_max);
	w->hold_total = LOAD(&s->hold_total);
	stat_clamp(&w->hold_min, &w->hold_max, w->hold_total);
	w->hold_avg = w->holds ? w->hold_total / w->holds : 0;
	for (j = 0; j < CLASS_STAT_SITES; j++) {
		sites[j].ip = LOAD(&s->sites[j].ip);
		sites[j].count = LOAD(&s->sites[j].count);
	}
	qsort(sites, CLASS_STAT_SITES, sizeof(sites[0]), cs_site_cmp);
	for (j = 0; j < STAT_TOP; j++) {
		w->top[j].ip = sites[j].ip;
		w->top[j].count = sites[j].count;
	}
	return true;
}

static void cs_names(struct cs_row *w, struct stat_syms *syms)
{
	class_str(w->class, w->name, sizeof(w->name));
	stat_name_sites(syms, w->top);
}

/* Every class side with an acquisition or a contention, sorted. */
static struct cs_row *cs_rows(size_t *np)
{
	struct kmutex_lock_class *c;
	struct stat_syms *syms;
	struct cs_row *rows;
	unsigned int pos = 0;
	size_t n = 0, max = 0;

	while ((c = class_next(&pos)))
		max += 2;
	rows = calloc(max ? max : 1, sizeof(*rows));
	if (!rows)
		return NULL;
	syms = stat_syms_open();
	for (pos = 0; n < max && (c = class_next(&pos));) {
		if (n < max && cs_fill(&rows[n], c, false))
			cs_names(&rows[n++], syms);
		if (n < max && cs_fill(&rows[n], c, true))
			cs_names(&rows[n++], syms);
	}
	stat_syms_close(syms);
	qsort(rows, n, sizeof(*rows), cs_row_cmp);
	*np = n;
	return rows;
}

/**
 * class_stat_print - the per-class table, after the production one
 * @f: where to
 * @fmt: its form: text and csv a second table after an empty line,
 *	json the "classes" member of the object
 */
void class_stat_print(FILE *f, enum stat_format fmt)
{
	struct cs_row *rows;
	size_t n = 0;

	rows = cs_rows(&n);
	if (fmt == STAT_CSV) {
		fputc('\n', f);
		stat_print_csv(f, &cs_table, rows, n);
	} else if (fmt == STAT_JSON) {
		fputs(", ", f);
		stat_print_json(f, &cs_table, rows, n);
	} else {
		fprintf(f, "\nkmutex lock classes (debugging build): %zu "
			"class%s, by total hold time (times in us)\n", n,
			n == 1 ? "" : "es");
		stat_print_text(f, &cs_table, rows, n);
	}
	free(rows);
}
