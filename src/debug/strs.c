// SPDX-License-Identifier: MIT
/*
 * strs.c - the checker's own copies of the strings that name its records.
 *
 * A lock's name, its init site and the call that took it are string
 * literals in the object that made the lock: the program, or a plugin
 * that dlclose() may unmap while the checker runs on.  Classes,
 * dependencies and a ww_class's context map (ww.c) are kept for ever and
 * printed long after (lock statistics at exit, a cycle that a later lock
 * call closes), so they keep copies:
 * printing a plugin's strings after its unload was a SIGSEGV (found with
 * KMUTEX_STAT, tests/debug_dlclose_names.sh).  Records that live only
 * while their lock is held or waited for (held locks, hung waits) point
 * into the object, which cannot be unloaded then without the program's
 * own bug.
 */
#include "../api.h"

#include <stdlib.h>
#include <string.h>

#include "debug.h"

#define STRS_MAX	4

/**
 * calloc_strs - a zeroed record with copies of its strings after it
 * @size: the record's size
 * @strs: @n strings (NULL ones stay NULL), replaced by their copies
 * @n: how many, at most STRS_MAX
 *
 * One allocation, so that the record is freed with one free().  Each
 * string is measured once: a name from lockdep_init_map() may be the
 * program's buffer, and one that grew between two strlen() would
 * overflow the copy.
 *
 * Return: the record, or NULL when out of memory (@strs unchanged).
 */
void *calloc_strs(size_t size, const char **strs, unsigned int n)
{
	size_t len[STRS_MAX], total = size;
	unsigned int i;
	char *rec, *p;

	if (n > STRS_MAX)
		return NULL;
	for (i = 0; i < n; i++) {
		len[i] = strs[i] ? strlen(strs[i]) : 0;
		total += strs[i] ? len[i] + 1 : 0;
	}
	rec = calloc(1, total);
	if (!rec)
		return NULL;
	p = rec + size;
	for (i = 0; i < n; i++) {
		if (!strs[i])
			continue;
		memcpy(p, strs[i], len[i]);	/* calloc() wrote the NUL */
		strs[i] = p;
		p += len[i] + 1;
	}
	return rec;
}
