// SPDX-License-Identifier: MIT
/*
 * debug_symbolize - report backtraces name static functions, which the
 * dynamic symbol table (dladdr) does not have: "unlock_unheld+0x1c/0x40",
 * from libdw or the ELF .symtab (src/debug/symbolize.c); with libdw (the
 * library built with KMUTEX_HAVE_LIBDW) and -g, also file:line.  The
 * report is a bad unlock, with two static frames in its backtrace.  A
 * second report, from a signal handler (a down() there), names the
 * static handler: in a handler libdw, which allocates, is not used, and
 * the name comes from the ELF .symtab.
 */
#include <linux/mutex.h>
#include <linux/semaphore.h>
#include <signal.h>

#include "debug_harness.h"

static DEFINE_MUTEX(never_held);

/* Static, not inlined: frames that only .symtab or DWARF can name. */
static __attribute__((noinline)) __no_context_analysis void
unlock_unheld(void)
{
	mutex_unlock(&never_held);
}

static DEFINE_SEMAPHORE(in_handler);

static __attribute__((noinline)) void on_usr1(int sig)
{
	(void)sig;
	down(&in_handler);	/* reported: it may sleep */
	up(&in_handler);
}

static __attribute__((noinline)) void bug(void)
{
	unlock_unheld();
	unlock_unheld();	/* reported once */
	CHECK(signal(SIGUSR1, on_usr1) != SIG_ERR);
	raise(SIGUSR1);
}

int main(int argc, char **argv)
{
	static const char *const needles[] = {
		"\"never_held\"", "in unlock_unheld+0x", "\n unlock_unheld+0x",
		"\n bug+0x", "in signal handler", "\n on_usr1+0x",
#ifdef KMUTEX_HAVE_LIBDW
		") at tests/debug_symbolize.c:",
#endif
		NULL };

	if (argc > 1 && !strcmp(argv[1], "--child"))
		debug_child_run(argc, argv, bug);
#ifndef KMUTEX_HAVE_LIBDW
	printf("SKIP: file:line in backtraces not checked: the library was "
	       "built without libdw (Debian libdw-dev)\n");
#endif
	debug_expect_report("bad unlock balance detected", needles);
	return 0;
}
