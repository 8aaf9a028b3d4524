// SPDX-License-Identifier: MIT
/*
 * stat_format.c - the lock statistics' writers: text, csv and json, each
 * walking a table's field list (stat_format.h).  Only used when
 * printing, never in a lock's slow path.
 */
#include "api.h"

#include <stdbool.h>
#include <stdio.h>

#include "stat.h"
#include "stat_format.h"

static const void *field_at(const void *base, const struct stat_field *fl)
{
	return (const char *)base + fl->off;
}

static const char *field_str(const void *base, const struct stat_field *fl)
{
	if (fl->val == SV_CHARS)
		return field_at(base, fl);
	return *(const char *const *)field_at(base, fl);
}

static unsigned long long field_u64(const void *base,
				    const struct stat_field *fl)
{
	return *(const uint64_t *)field_at(base, fl);
}

static const void *field_ptr(const void *base, const struct stat_field *fl)
{
	return *(const void *const *)field_at(base, fl);
}

static const void *row_at(const struct stat_table *t, const void *rows,
			  size_t i)
{
	return (const char *)rows + i * t->row_size;
}

static const struct stat_out_site *row_sites(const struct stat_table *t,
					     const void *row)
{
	return (const void *)((const char *)row + t->sites_off);
}

/* Names are symbols and addresses; quote for CSV anyway. */
static void csv_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static void json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20 || c >= 0x7f)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

/* --- text --------------------------------------------------------------- */

static void text_value(FILE *f, const void *base, const struct stat_field *fl)
{
	switch (fl->val) {
	case SV_CHARS:
	case SV_STR:
	case SV_WORD:
		fprintf(f, "%*s", fl->width, field_str(base, fl));
		break;
	case SV_PTR:
		fprintf(f, "%*p", fl->width, field_ptr(base, fl));
		break;
	case SV_U64:
		fprintf(f, "%*llu", fl->width, field_u64(base, fl));
		break;
	case SV_NS:
		fprintf(f, "%*.2f", fl->width,
			(double)field_u64(base, fl) / 1000.0);
		break;
	}
}

/* The fields of @list that text shows, of @base, and a newline. */
static void text_line(FILE *f, const struct stat_field *list,
		      unsigned int n, const void *base)
{
	unsigned int k;

	for (k = 0; k < n; k++) {
		if (!list[k].sep)
			continue;
		fputs(list[k].sep, f);
		text_value(f, base, &list[k]);
	}
	fputc('\n', f);
}

/**
 * stat_print_text - a table as text: column headers, then each row and
 *	its call sites on indented lines
 * @f: where to
 * @t: the table's fields
 * @rows: @n rows of @t
 * @n: how many
 *
 * The title line above is the caller's.
 */
void stat_print_text(FILE *f, const struct stat_table *t, const void *rows,
		     size_t n)
{
	unsigned int k, j;
	size_t i;

	for (k = 0; k < t->nfields; k++)
		if (t->fields[k].sep)
			fprintf(f, "%s%*s", t->fields[k].sep,
				t->fields[k].width, t->fields[k].head);
	fputc('\n', f);
	for (i = 0; i < n; i++) {
		const void *row = row_at(t, rows, i);
		const struct stat_out_site *s = row_sites(t, row);

		text_line(f, t->fields, t->nfields, row);
		for (j = 0; j < STAT_TOP && s[j].count; j++)
			text_line(f, t->site_fields, t->nsite_fields, &s[j]);
	}
}

/* --- csv ---------------------------------------------------------------- */

/*
 * A field's value for csv (@json false) or json: the same numbers; names
 * quoted in both (escaped for json), a plain word bare in csv.
 */
static void data_value(FILE *f, const void *base,
		       const struct stat_field *fl, bool json)
{
	switch (fl->val) {
	case SV_WORD:
		if (!json) {
			fputs(field_str(base, fl), f);
			break;
		}
		/* fall through */
	case SV_CHARS:
	case SV_STR:
		(json ? json_str : csv_str)(f, field_str(base, fl));
		break;
	case SV_PTR:
		fprintf(f, json ? "\"%p\"" : "%p", field_ptr(base, fl));
		break;
	case SV_U64:
	case SV_NS:
		fprintf(f, "%llu", field_u64(base, fl));
		break;
	}
}

/* Header: the keys, then siteN, siteN_key... for N = 1..STAT_TOP. */
static void csv_header(FILE *f, const struct stat_table *t)
{
	const char *sep = "";
	unsigned int k, j;

	for (k = 0; k < t->nfields; k++) {
		if (!t->fields[k].key)
			continue;
		fprintf(f, "%s%s", sep, t->fields[k].key);
		sep = ",";
	}
	for (j = 1; j <= STAT_TOP; j++) {
		sep = "";
		for (k = 0; k < t->nsite_fields; k++) {
			if (!t->site_fields[k].key)
				continue;
			fprintf(f, ",%s%u%s%s", t->csv_site, j, sep,
				*sep ? t->site_fields[k].key : "");
			sep = "_";
		}
	}
	fputc('\n', f);
}

/**
 * stat_print_csv - a table as csv: a header line, a line a row, its call
 *	sites in STAT_TOP groups of columns (empty when fewer)
 * @f: where to
 * @t: the table's fields
 * @rows: @n rows of @t
 * @n: how many
 */
void stat_print_csv(FILE *f, const struct stat_table *t, const void *rows,
		    size_t n)
{
	unsigned int k, j;
	size_t i;

	csv_header(f, t);
	for (i = 0; i < n; i++) {
		const void *row = row_at(t, rows, i);
		const struct stat_out_site *s = row_sites(t, row);
		const char *sep = "";

		for (k = 0; k < t->nfields; k++) {
			if (!t->fields[k].key)
				continue;
			fputs(sep, f);
			data_value(f, row, &t->fields[k], false);
			sep = ",";
		}
		for (j = 0; j < STAT_TOP; j++)
			for (k = 0; k < t->nsite_fields; k++) {
				if (!t->site_fields[k].key)
					continue;
				fputc(',', f);
				if (s[j].count)
					data_value(f, &s[j], &t->site_fields[k],
						   false);
			}
		fputc('\n', f);
	}
}

/* --- json --------------------------------------------------------------- */

/* The members of @base that have a key, comma-separated. */
static void json_members(FILE *f, const struct stat_field *list,
			 unsigned int n, const void *base)
{
	const char *sep = "";
	unsigned int k;

	for (k = 0; k < n; k++) {
		if (!list[k].key)
			continue;
		fprintf(f, "%s\"%s\": ", sep, list[k].key);
		data_value(f, base, &list[k], true);
		sep = ", ";
	}
}

/**
 * stat_print_json - a table as the json member "json_rows": [rows], each
 *	row an object whose "json_sites" member is an array of its sites
 * @f: where to, inside an object the caller opened
 * @t: the table's fields
 * @rows: @n rows of @t
 * @n: how many
 */
void stat_print_json(FILE *f, const struct stat_table *t, const void *rows,
		     size_t n)
{
	unsigned int j;
	size_t i;

	fprintf(f, "\"%s\": [", t->json_rows);
	for (i = 0; i < n; i++) {
		const void *row = row_at(t, rows, i);
		const struct stat_out_site *s = row_sites(t, row);

		fputs(i ? ",\n {" : "\n {", f);
		json_members(f, t->fields, t->nfields, row);
		fprintf(f, ", \"%s\": [", t->json_sites);
		for (j = 0; j < STAT_TOP && s[j].count; j++) {
			fputs(j ? ", {" : "{", f);
			json_members(f, t->site_fields, t->nsite_fields,
				     &s[j]);
			fputc('}', f);
		}
		fputs("]}", f);
	}
	fputs("\n]", f);
}

/**
 * stat_name_sites - name a row's call sites: symbols, else addresses
 * @syms: stat_syms_open()'s
 * @top: the row's sites
 */
void stat_name_sites(struct stat_syms *syms, struct stat_out_site *top)
{
	unsigned int j;

	for (j = 0; j < STAT_TOP; j++)
		if (top[j].count &&
		    !stat_symbolize(syms, (const void *)top[j].ip,
				    top[j].name, sizeof(top[j].name)))
			snprintf(top[j].name, sizeof(top[j].name), "%p",
				 (void *)top[j].ip);
}
