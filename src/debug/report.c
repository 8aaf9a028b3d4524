// SPDX-License-Identifier: MIT
/*
 * report.c - printing reports, once per problem.
 *
 * A report is built in a buffer and written to stderr with one write(),
 * so that reports from two threads never interleave and nothing is
 * allocated (a report may come from a signal handler).  A problem is
 * identified by its kind and the classes involved: the same one is not
 * reported again.  With KMUTEX_DEBUG=abort in the environment the
 * program aborts right after the first report.
 *
 * All of this runs under lockdep_lock.
 */
#include "../api.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "debug.h"

static char buf[32768];
static size_t len;

#define SEEN_MAX	4096		/* problems remembered; pow2 */
static uint64_t seen[SEEN_MAX];
static unsigned int nr_seen;

uint64_t report_hash(uint64_t h, uint64_t v)
{
	return chain_key_next(h ^ (v << 1), (unsigned int)(v >> 32) + 7);
}

static bool seen_add(uint64_t key)
{
	unsigned int i = (unsigned int)key & (SEEN_MAX - 1);

	for (; seen[i]; i = (i + 1) & (SEEN_MAX - 1))
		if (seen[i] == key)
			return false;
	if (nr_seen >= SEEN_MAX - 1)
		return true;	/* full: report again rather than never */
	seen[i] = key;
	nr_seen++;
	return true;
}

void rprintf(const char *fmt, ...)
{
	va_list ap;
	int n;

	if (len >= sizeof(buf) - 1)
		return;
	va_start(ap, fmt);
	n = vsnprintf(buf + len, sizeof(buf) - len, fmt, ap);
	va_end(ap);
	if (n > 0)
		len += (size_t)n < sizeof(buf) - len ? (size_t)n
						      : sizeof(buf) - 1 - len;
}

static void rule(char c, size_t n)
{
	while (n-- && len < sizeof(buf) - 1)
		buf[len++] = c;
	rprintf("\n");
}

/**
 * report_begin - start a report, unless this problem was reported
 * @kind: which check
 * @what: what identifies the problem within the kind (its classes)
 * @title: the title line, the kernel's
 *
 * Return: false if already reported (print nothing then).
 */
bool report_begin(enum report_kind kind, uint64_t what, const char *title)
{
	if (!seen_add(report_hash(what, kind)))
		return false;
	len = 0;
	rule('=', strlen(title));
	rprintf("%s\n", title);
	rule('-', strlen(title));
	return true;
}

/* Print and, with KMUTEX_DEBUG=abort, abort. */
void report_end(void)
{
	const char *mode = getenv("KMUTEX_DEBUG");
	size_t off = 0;

	rprintf("\n");
	while (off < len) {
		ssize_t n = write(2, buf + off, len - off);

		if (n <= 0)
			break;
		off += (size_t)n;
	}
	len = 0;
	if (mode && !strcmp(mode, "abort")) {
		static const char msg[] =
			"kmutex-debug: KMUTEX_DEBUG=abort: aborting\n";

		ssize_t n = write(2, msg, sizeof(msg) - 1);

		(void)n;	/* on failure there is nothing better to do */
		abort();
	}
}

/* "name" or "name/1" for a subclass, in @buf. */
const char *class_str(const struct kmutex_lock_class *c, char *b,
		      size_t size)
{
	char v[16] = "", s[16] = "";

	if (c->name_version > 1)
		snprintf(v, sizeof(v), "#%u", c->name_version);
	if (c->subclass)
		snprintf(s, sizeof(s), "/%u", c->subclass);
	snprintf(b, size, "%s%s%s", c->name, v, s);
	return b;
}

/* "name" (init at f.c:12), with the class when it is not the name. */
void report_lock(const struct kmutex_dep_map *map,
		 const struct kmutex_lock_class *class)
{
	char b[160];

	rprintf("\"%s\"", map->name ? map->name : "?");
	if (class && (class->subclass || class->name_version > 1 ||
		      !map->name || strcmp(map->name, class->name)))
		rprintf(" (class %s)", class_str(class, b, sizeof(b)));
	rprintf(" (init at %s)", map->site ? map->site : "?");
}

/* ",\n  by mutex_lock(&m) at f.c:12,\n  in func+0x1c/0x40 (prog+0x1234)" */
void report_call(const char *call, const void *ip, const char *indent)
{
	rprintf(",\n%sby %s,\n%sin ", indent, call ? call : "?", indent);
	ip_print(ip);
}

void report_thread(int tid)
{
	char name[16];

	thread_name(tid, name, sizeof(name));
	rprintf("%s/%d", name[0] ? name : "?", tid);
}

/*
 * "thread/12 is trying to <verb> lock:\n  "name" (init at ...),\n  by
 * <call>,\n  in <ip>": the head every report about one lock starts with.
 */
void report_trying(int tid, const char *verb,
		   const struct kmutex_dep_map *map,
		   const struct kmutex_lock_class *class,
		   const char *call, const void *ip)
{
	report_thread(tid);
	rprintf(" is trying to %s lock:\n  ", verb);
	report_lock(map, class);
	report_call(call, ip, "  ");
}

void report_held_locks(struct kmutex_thread *t)
{
	int i, depth = __atomic_load_n(&t->depth, __ATOMIC_ACQUIRE);

	if (!depth) {
		rprintf("no locks held by ");
		report_thread(t->tid);
		rprintf(".\n\n");
		return;
	}
	rprintf("%d lock%s held by ", depth, depth > 1 ? "s" : "");
	report_thread(t->tid);
	rprintf(":\n");
	for (i = 0; i < depth && i < MAX_LOCK_DEPTH; i++) {
		struct held_lock *h = &t->held[i];

		rprintf(" #%d: ", i);
		report_lock(h->map, h->class);
		report_call(h->call, h->ip, "     ");
		rprintf("\n");
	}
	if (t->lost)
		rprintf(" (and %d more, past the depth kept)\n", t->lost);
	rprintf("\n");
}

/* The current stack, from the frame of @from_ip (NULL: all of it). */
void report_backtrace(const void *from_ip)
{
	struct kmutex_stack s;

	stack_save(&s, from_ip);
	rprintf("stack backtrace:\n");
	stack_print(&s, " ");
}

/**
 * report_finish - the common tail of a report: the thread's held locks,
 *	the backtrace of the call that was checked, and the closing rule
 * @t: the reporting thread
 * @ip: the checked call's return address
 */
void report_finish(struct kmutex_thread *t, const void *ip)
{
	report_held_locks(t);
	report_backtrace(ip);
	report_end();
}
