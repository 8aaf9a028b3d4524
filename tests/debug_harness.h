/* SPDX-License-Identifier: MIT */
/*
 * debug_harness.h - for the tests of the debugging build (tests/debug_*.c,
 * compiled with -DKMUTEX_DEBUG and linked with libkmutex-debug).
 *
 * A test re-runs itself (test_exec_self(), which says how that works
 * under Valgrind and qemu-user) as a child with its stderr on a pipe, once as the program would run and
 * once with KMUTEX_DEBUG=abort, and checks what the child printed:
 *
 *   DEBUG_EXPECT_REPORT(fn, title, needles...)
 *	fn commits the bug (twice, where it can: the report must come
 *	once).  Without KMUTEX_DEBUG: exactly one report with @title, every
 *	needle (lock names, a function of the backtrace) in it, and the
 *	child went on to the end.  With KMUTEX_DEBUG=abort: the child died
 *	of SIGABRT right after the report.
 *   DEBUG_EXPECT_CLEAN(fn)
 *	fn is a correct program: it must print nothing at all.
 *   DEBUG_EXPECT_REPORTS(DEBUG_CASE(fn, title, needles...), ...)
 *	a table of bugs of one kind (the same misuse of a mutex, of a
 *	rwsem...): each case is checked as DEBUG_EXPECT_REPORT checks its
 *	one, in children of its own (KMUTEX_TEST_CASE names the case).
 *
 * Functions named in needles need not be exported: static ones are named
 * from the ELF .symtab or libdw (tests/debug_symbolize.c), but only on a
 * module that is not stripped; most tests use exported ones (the tests
 * link with -rdynamic), which dladdr() names everywhere.
 */
#ifndef _KMUTEX_TESTS_DEBUG_HARNESS_H
#define _KMUTEX_TESTS_DEBUG_HARNESS_H

#include "harness.h"

#include <fcntl.h>
#include <sys/wait.h>

#define DEBUG_WENT_ON	"debug-test: the program went on\n"

/*
 * For the functions a test expects in a backtrace: not inlined into
 * their callers, so the frame (and name) is there at -O2.
 */
#define DEBUG_FN	__attribute__((noinline))

/* The child's stderr, and how it ended. */
struct debug_run {
	char out[1 << 17];
	size_t len;
	int status;
};

static inline void debug_child_run(int argc, char **argv, void (*fn)(void))
{
	(void)argc;
	(void)argv;
	test_watchdog(60);
	fn();
	fputs(DEBUG_WENT_ON, stderr);
	fflush(stderr);
	exit(0);
}

/* qemu-user's own line on a child's abort is not the program's output. */
static inline void debug_drop_emulator_lines(struct debug_run *r)
{
	char *q = strstr(r->out, "qemu: uncaught target signal");

	if (getenv("KMUTEX_ARCH") && q && (q == r->out || q[-1] == '\n')) {
		*q = 0;
		r->len = (size_t)(q - r->out);
	}
}

static inline void debug_spawn(struct debug_run *r, const char *mode)
{
	int fd[2];
	pid_t pid;
	ssize_t n;

	CHECK(pipe(fd) == 0);
	pid = fork();
	CHECK(pid >= 0);
	if (pid == 0) {
		struct rlimit no_core = { 0, 0 };

		/* The aborts make no core files (Valgrind's: 17 MB each). */
		setrlimit(RLIMIT_CORE, &no_core);
		dup2(fd[1], 2);
		close(fd[0]);
		close(fd[1]);
		if (mode)
			setenv("KMUTEX_DEBUG", mode, 1);
		else
			unsetenv("KMUTEX_DEBUG");
		test_exec_self("debug-child", "--child");
		_exit(127);
	}
	close(fd[1]);
	r->len = 0;
	while ((n = read(fd[0], r->out + r->len,
			 sizeof(r->out) - 1 - r->len)) > 0)
		r->len += (size_t)n;
	r->out[r->len] = 0;
	close(fd[0]);
	debug_drop_emulator_lines(r);
	CHECK(waitpid(pid, &r->status, 0) == pid);
}

static inline int debug_count(const char *hay, const char *needle)
{
	int n = 0;

	while ((hay = strstr(hay, needle))) {
		n++;
		hay += strlen(needle);
	}
	return n;
}

static inline void debug_fail(const struct debug_run *r, const char *what)
{
	fprintf(stderr, "FAIL: %s; the child's stderr was:\n%s\n", what,
		r->out);
	exit(1);
}

static inline void debug_expect_report(const char *title,
				       const char *const *needles)
{
	static struct debug_run r;
	const char *const *n;
	const char *end;

	/* As the program runs by default: report once, then go on. */
	debug_spawn(&r, NULL);
	if (!WIFEXITED(r.status) || WEXITSTATUS(r.status) != 0)
		debug_fail(&r, "the child did not exit 0");
	if (debug_count(r.out, title) != 1)
		debug_fail(&r, "the title is not there exactly once");
	for (n = needles; *n; n++)
		if (!strstr(r.out, *n)) {
			fprintf(stderr, "missing: \"%s\"\n", *n);
			debug_fail(&r, "the report lacks a needle");
		}
	if (!strstr(strstr(r.out, title), DEBUG_WENT_ON))
		debug_fail(&r, "the child did not go on after the report");
	if (!strstr(r.out, "stack backtrace:"))
		debug_fail(&r, "no backtrace");

	/* KMUTEX_DEBUG=abort: SIGABRT right after the report. */
	debug_spawn(&r, "abort");
	if (!WIFSIGNALED(r.status) || WTERMSIG(r.status) != SIGABRT)
		debug_fail(&r, "KMUTEX_DEBUG=abort did not abort");
	if (debug_count(r.out, title) != 1 || strstr(r.out, DEBUG_WENT_ON))
		debug_fail(&r, "KMUTEX_DEBUG=abort: not right after it");
	end = "KMUTEX_DEBUG=abort: aborting\n";
	if (r.len < strlen(end) || strcmp(r.out + r.len - strlen(end), end))
		debug_fail(&r, "KMUTEX_DEBUG=abort: more after the report");
}

static inline void debug_expect_clean(void)
{
	static struct debug_run r;

	debug_spawn(&r, "abort");
	if (!WIFEXITED(r.status) || WEXITSTATUS(r.status) != 0)
		debug_fail(&r, "the correct program did not exit 0");
	if (strcmp(r.out, DEBUG_WENT_ON))
		debug_fail(&r, "the correct program printed something");
}

#define DEBUG_MAIN(fn, expect)						\
	int main(int argc, char **argv)					\
	{								\
		if (argc > 1 && !strcmp(argv[1], "--child"))		\
			debug_child_run(argc, argv, fn);		\
		expect;							\
		return 0;						\
	}

/* main() for a test whose @fn commits a bug reported with @title. */
#define DEBUG_EXPECT_REPORT(fn, title, ...)				\
	DEBUG_MAIN(fn, ({						\
		static const char *const __needles[] = {		\
			__VA_ARGS__, NULL };				\
		debug_expect_report(title, __needles);			\
	}))

/* main() for a correct program @fn: no output at all. */
#define DEBUG_EXPECT_CLEAN(fn)	DEBUG_MAIN(fn, debug_expect_clean())

/* One bug of a DEBUG_EXPECT_REPORTS table and what its report must say. */
struct debug_case {
	void (*fn)(void);
	const char *title;
	const char *const *needles;
};

#define DEBUG_CASE(fn, title, ...)					\
	{ fn, title, (const char *const[]){ __VA_ARGS__, NULL } }

/* In the child: the case the parent runs it for. */
static inline const struct debug_case *
debug_this_case(const struct debug_case *cases, size_t n)
{
	const char *env = getenv("KMUTEX_TEST_CASE");
	size_t i = env ? strtoul(env, NULL, 10) : n;

	CHECK(i < n);
	return &cases[i];
}

static inline void debug_expect_cases(const struct debug_case *cases,
				      size_t n)
{
	char num[24];
	size_t i;

	for (i = 0; i < n; i++) {
		snprintf(num, sizeof(num), "%zu", i);
		setenv("KMUTEX_TEST_CASE", num, 1);
		printf("case %zu: %s, in %s\n", i, cases[i].title,
		       cases[i].needles[0]);
		fflush(stdout);
		debug_expect_report(cases[i].title, cases[i].needles);
	}
}

/* main() for a table of bugs, each reported with its own title. */
#define DEBUG_EXPECT_REPORTS(...)					\
	static const struct debug_case __debug_cases[] = { __VA_ARGS__ };\
	static void __debug_case_fn(void)				\
	{								\
		debug_this_case(__debug_cases, sizeof(__debug_cases) /	\
				sizeof(__debug_cases[0]))->fn();	\
	}								\
	DEBUG_MAIN(__debug_case_fn,					\
		   debug_expect_cases(__debug_cases, sizeof(__debug_cases) /\
				      sizeof(__debug_cases[0])))

#endif /* _KMUTEX_TESTS_DEBUG_HARNESS_H */
