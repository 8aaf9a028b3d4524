/* SPDX-License-Identifier: MIT */
/*
 * stat_format.h - the lock statistics' tables as field lists, and one
 * writer per format (text, csv, json) that walks them: the production
 * table (src/stat.c) and the debugging build's per-class table
 * (src/debug/stat_class.c) each say once what a row holds, in which
 * order, under which names, and the writers print every table alike.
 *
 * A table is an array of rows (one struct a table, copied out of the
 * counters before printing) and STAT_TOP call sites per row, printed
 * after it: csv columns siteN..., a json array, indented text lines.
 */
#ifndef _KMUTEX_SRC_STAT_FORMAT_H
#define _KMUTEX_SRC_STAT_FORMAT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define STAT_TOP	4		/* call sites printed per row */
#define STAT_NAME_LEN	160

/* What a field's offset points at, and so how each format prints it. */
enum stat_val {
	SV_CHARS,	/* char[]: csv quoted, json escaped */
	SV_STR,		/* const char *: the same */
	SV_WORD,	/* const char *, a plain word: csv bare, json quoted */
	SV_PTR,		/* const void *: %p; json quoted */
	SV_U64,		/* uint64_t */
	SV_NS,		/* uint64_t nanoseconds: text in us, %.2f */
};

/*
 * One field.  csv and json print the fields that have a @key, in the
 * list's order; text the ones that have a @sep, also in the list's
 * order: a field that text wants elsewhere is listed twice, once with
 * each.
 */
struct stat_field {
	const char *key;	/* csv column, json member; NULL: text only */
	const char *sep;	/* text: printed before it; NULL: not in text */
	const char *head;	/* text: its column header */
	int width;		/* text: printf width, < 0 left-justified */
	enum stat_val val;
	size_t off;		/* in the row (the site) */
};

/* A call site of a row, named; count 0: none (the rest neither). */
struct stat_out_site {
	uintptr_t ip;
	char name[STAT_NAME_LEN];
	uint64_t count;
	uint64_t wait;		/* ns; the production table only */
};

struct stat_table {
	const struct stat_field *fields;
	unsigned int nfields;
	const struct stat_field *site_fields;	/* first: the csv siteN */
	unsigned int nsite_fields;
	size_t row_size;
	size_t sites_off;	/* struct stat_out_site [STAT_TOP] in a row */
	const char *json_rows;	/* the member holding the rows */
	const char *json_sites;	/* a row's member holding its sites */
	const char *csv_site;	/* csv column prefix of the sites */
};

#define STAT_FIELD(k, s, h, w, v, type, member)				\
	{ .key = (k), .sep = (s), .head = (h), .width = (w), .val = (v), \
	  .off = offsetof(type, member) }

/* A field of struct stat_out_site. */
#define STAT_SITE(k, s, w, v, member)					\
	STAT_FIELD(k, s, NULL, w, v, struct stat_out_site, member)

#define STAT_TABLE(f, sf, type, sites, rows_key, sites_key, prefix)	\
	{ .fields = (f), .nfields = sizeof(f) / sizeof((f)[0]),		\
	  .site_fields = (sf), .nsite_fields = sizeof(sf) / sizeof((sf)[0]), \
	  .row_size = sizeof(type), .sites_off = offsetof(type, sites),	\
	  .json_rows = (rows_key), .json_sites = (sites_key),		\
	  .csv_site = (prefix) }

void stat_print_text(FILE *f, const struct stat_table *t, const void *rows,
		     size_t n);
void stat_print_csv(FILE *f, const struct stat_table *t, const void *rows,
		    size_t n);
void stat_print_json(FILE *f, const struct stat_table *t, const void *rows,
		     size_t n);

struct stat_syms;
void stat_name_sites(struct stat_syms *syms, struct stat_out_site *top);

/* Counters read apart from each other: keep min <= max <= total. */
static inline void stat_clamp(uint64_t *min, uint64_t *max, uint64_t total)
{
	if (*max > total)
		*max = total;
	if (*min > *max)
		*min = *max;
}

#endif /* _KMUTEX_SRC_STAT_FORMAT_H */
