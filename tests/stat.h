/* SPDX-License-Identifier: MIT */
/*
 * stat.h - for the lock statistics tests (tests/stat_*.c): statistics
 * are switched on by the environment at start-up, so a test runs itself
 * again (test_exec_self(): as "stat-child MODE") with KMUTEX_STAT and
 * KMUTEX_STAT_FORMAT set, its standard error in a file, and reads what
 * it printed.
 */
#ifndef _KMUTEX_TESTS_STAT_H
#define _KMUTEX_TESTS_STAT_H

#include <fcntl.h>
#include <sys/wait.h>

#include <kmutex/stat.h>

#include "harness.h"

/* A file name for this test's output @what, in TMPDIR. */
static inline void stat_tmp(char *buf, size_t len, const char *what)
{
	const char *dir = getenv("TMPDIR");

	snprintf(buf, len, "%s/kmutex-stat-%d-%s", dir && *dir ? dir : "/tmp",
		 (int)getpid(), what);
	unlink(buf);
}

/*
 * If set, stat_child() executes this path rather than test_exec_self():
 * "/proc/self/exe" checks that the names are found when the program was
 * started through /proc (musl then names it argv[0], not a file).
 */
static const char *stat_exec_path;

/*
 * Run this program again as "MODE" with KMUTEX_STAT=@stat (NULL: unset)
 * and KMUTEX_STAT_FORMAT=@fmt (NULL: unset), its standard error into
 * @err.  Return: its exit status (CHECK()s failing in it: 1).
 */
static inline int stat_child(const char *mode, const char *stat,
			     const char *fmt, const char *err)
{
	pid_t pid = fork();
	int st;

	CHECK(pid >= 0);
	if (pid == 0) {
		int fd = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0600);

		if (fd < 0 || dup2(fd, 2) < 0)
			_exit(99);
		if (stat)
			setenv("KMUTEX_STAT", stat, 1);
		else
			unsetenv("KMUTEX_STAT");
		if (fmt)
			setenv("KMUTEX_STAT_FORMAT", fmt, 1);
		else
			unsetenv("KMUTEX_STAT_FORMAT");
		if (stat_exec_path)
			execl(stat_exec_path, "stat-child", mode, (char *)NULL);
		else
			test_exec_self("stat-child", mode);
		_exit(98);
	}
	CHECK(waitpid(pid, &st, 0) == pid);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* The whole of @path (malloc'd, NUL-terminated); "" if it is absent. */
static inline char *stat_slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long n;

	if (!f)
		return strdup("");
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = calloc(1, (size_t)n + 1);
	CHECK(buf && fread(buf, 1, (size_t)n, f) == (size_t)n);
	fclose(f);
	return buf;
}

/* Busy for about @ns, holding a lock: others find it taken. */
static inline void stat_hold(uint64_t ns)
{
	uint64_t end = test_now_ns() + ns;

	while (test_now_ns() < end)
		;
}

/*
 * The CSV row of lock @name of type @type in @csv (a copy, in @row),
 * its numeric fields in @v (contended, spun, slept, slow_acquired,
 * handoffs, wait_min, avg, max, total).  False if there is none.
 */
static inline bool stat_csv_row(const char *csv, const char *name,
				const char *type, char *row, size_t len,
				unsigned long long v[9])
{
	char want[256];
	const char *p;

	snprintf(want, sizeof(want), "\n\"%s\",%s,", name, type);
	p = strstr(csv, want);
	if (!p)
		return false;
	p++;
	snprintf(row, len, "%.*s", (int)strcspn(p, "\n"), p);
	p = strchr(p + strlen(want) - 1, ',');	/* past the address */
	return p && sscanf(p, ",%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu",
			   &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6],
			   &v[7], &v[8]) == 9;
}

/* The checks every contended row passes. */
static inline void stat_check_sane(const char *row,
				   const unsigned long long v[9])
{
	if (!(v[0] > 0 && v[1] + v[2] == v[0] && v[3] <= v[0] &&
	      v[5] > 0 && v[5] <= v[6] && v[6] <= v[7] && v[7] <= v[8])) {
		fprintf(stderr, "FAIL: row not sane: %s\n", row);
		exit(1);
	}
}

/* The debugging build's table of lock classes: debug_stat_*.c. */

/*
 * The class row of @name and @type in the CSV's second table (a copy in
 * @row), its numbers in @v: acquisitions, contended, contended wait,
 * hold min, avg, max, total; @site1: its top acquisition site.
 */
static inline bool stat_class_row(const char *csv, const char *name,
				  const char *type, char *row, size_t len,
				  unsigned long long v[7], char *site1,
				  size_t slen)
{
	const char *p = strstr(csv, "\nclass,init,type,");
	char want[128];
	int n = 0;

	CHECK(p);
	snprintf(want, sizeof(want), "\n\"%s\",\"", name);
	for (p = strstr(p, want); p; p = strstr(p + 1, want)) {
		const char *q = strchr(p + strlen(want), '"');

		if (q && !strncmp(q + 1, ",", 1) &&
		    !strncmp(q + 2, type, strlen(type)) &&
		    q[2 + strlen(type)] == ',')
			break;
	}
	if (!p)
		return false;
	p++;
	snprintf(row, len, "%.*s", (int)strcspn(p, "\n"), p);
	p = strchr(row + strlen(want), '"') + 2 + strlen(type);
	if (sscanf(p, ",%llu,%llu,%llu,%llu,%llu,%llu,%llu,\"%n", &v[0], &v[1],
		   &v[2], &v[3], &v[4], &v[5], &v[6], &n) != 7 || !n)
		return false;
	snprintf(site1, slen, "%.*s", (int)strcspn(p + n, "\""), p + n);
	return true;
}

/* The checks every class row passes. */
static inline void stat_class_sane(const char *row,
				   const unsigned long long v[7])
{
	if (!(v[0] > 0 && v[3] > 0 && v[3] <= v[4] && v[4] <= v[5] &&
	      v[5] <= v[6])) {
		fprintf(stderr, "FAIL: class row not sane: %s\n", row);
		exit(1);
	}
}

#endif /* _KMUTEX_TESTS_STAT_H */
