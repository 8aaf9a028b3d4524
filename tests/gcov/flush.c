// SPDX-License-Identifier: MIT
/*
 * flush.c - for make coverage: a process that ends in abort() or
 * _exit() skips the exit-time write of its gcov counts, so the lines
 * that ran in the suite's forked children would not count: the aborts
 * on misuse (mutex_misuse), the debugging build's reports under
 * KMUTEX_DEBUG=abort.  The coverage build links its test programs with
 * this object and -Wl,--wrap=abort -Wl,--wrap=_exit, so both write the
 * counts first (__gcov_dump(), from gcc's libgcov).
 *
 * And gcc turns fork() in an instrumented program into __gcov_fork(),
 * which zeroes the child's counts after the fork, after the
 * pthread_atfork() handlers ran: the debugging build's fork handler
 * would never count.  -Wl,--wrap=__gcov_fork makes it a plain fork().
 * The child's counts then include the parent's up to the fork, counted
 * again: only whether a line ran is used, not how often.
 */
#include <stdlib.h>
#include <unistd.h>

void __gcov_dump(void);
pid_t __wrap___gcov_fork(void);
void __real_abort(void) __attribute__((noreturn));
void __real__exit(int status) __attribute__((noreturn));
void __wrap_abort(void) __attribute__((noreturn));
void __wrap__exit(int status) __attribute__((noreturn));

void __wrap_abort(void)
{
	__gcov_dump();
	__real_abort();
}

void __wrap__exit(int status)
{
	__gcov_dump();
	__real__exit(status);
}

pid_t __wrap___gcov_fork(void)
{
	return fork();
}
