/* SPDX-License-Identifier: MIT */
/*
 * <kmutex/stat.h> - lock statistics: which lock a program waits on.
 *
 * With KMUTEX_STAT=1 in the environment the library counts, in its slow
 * paths, every wait on a mutex, rw_semaphore (read and write sides),
 * ww_mutex, semaphore or completion, and prints a table of the contended
 * locks at exit (KMUTEX_STAT=path: into that file; KMUTEX_STAT_FORMAT=
 * csv or json: machine-readable).  Unset, nothing is counted and the
 * fast paths are unchanged.  See kmutex_stat(3) and docs/lock_stat.md.
 */
#ifndef _KMUTEX_STAT_H
#define _KMUTEX_STAT_H

#include <stdio.h>

#include <kmutex/compiler.h>

__KMUTEX_BEGIN_DECLS

/* Print the table now (KMUTEX_STAT_FORMAT's form); locks printed. */
int kmutex_stat_print(FILE *f);
/* Zero every counter. */
void kmutex_stat_reset(void);

__KMUTEX_END_DECLS

#endif /* _KMUTEX_STAT_H */
