/* SPDX-License-Identifier: MIT */
/*
 * symbolize.h - static function names and file:line for report
 * backtraces (symbolize.c), for stack.c.
 */
#ifndef _KMUTEX_SRC_DEBUG_SYMBOLIZE_H
#define _KMUTEX_SRC_DEBUG_SYMBOLIZE_H

#include <dlfcn.h>
#include <stdbool.h>

struct sym_info {
	const char *name;		/* the function, or NULL */
	unsigned long offset, size;	/* of the address in it; its size */
	const char *file;		/* source file, or NULL */
	int line;
};

bool symbolize(const void *ip, const Dl_info *info, struct sym_info *out);

#endif /* _KMUTEX_SRC_DEBUG_SYMBOLIZE_H */
