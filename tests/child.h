/* SPDX-License-Identifier: MIT */
/*
 * child.h - run a function in a fork()ed child with its stderr captured,
 * and check that it died of SIGABRT saying what it should: for the
 * tests of misuse that aborts (mutex_misuse, family_misuse).
 *
 * Call test_watchdog() first: it returns once its thread runs, so no
 * child is forked while a thread is starting (see harness.h).
 */
#ifndef _KMUTEX_TESTS_CHILD_H
#define _KMUTEX_TESTS_CHILD_H

#include <sys/wait.h>

#include "harness.h"

struct outcome {
	int status;		/* from waitpid */
	char err[4096];		/* the child's stderr */
};

/* Run @fn in a child with stderr captured; a child that returns exits 0. */
static inline void run_child(void (*fn)(void), struct outcome *o)
{
	struct rlimit no_core = { 0, 0 };
	size_t len = 0;
	ssize_t n;
	int fd[2];
	pid_t pid;

	CHECK(pipe(fd) == 0);
	fflush(NULL);
	pid = fork();
	CHECK(pid >= 0);
	if (pid == 0) {
		setrlimit(RLIMIT_CORE, &no_core);	/* no core files */
		dup2(fd[1], STDERR_FILENO);
		close(fd[0]);
		close(fd[1]);
		fn();
		fflush(NULL);
		_exit(0);
	}
	close(fd[1]);
	while (len + 1 < sizeof(o->err) &&
	       (n = read(fd[0], o->err + len, sizeof(o->err) - 1 - len)) > 0)
		len += (size_t)n;
	o->err[len] = 0;
	/* Drain the rest, so a chatty child never blocks on a full pipe. */
	while (read(fd[0], &n, sizeof(n)) > 0)
		;
	close(fd[0]);
	CHECK(waitpid(pid, &o->status, 0) == pid);
}

/* The child died of SIGABRT, and said @needle1 and (if set) @needle2. */
static inline void expect_abort(const char *what, struct outcome *o,
				const char *needle1, const char *needle2)
{
	printf("%s: %s", what, o->err[0] ? o->err : "(nothing on stderr)\n");
	if (!WIFSIGNALED(o->status) || WTERMSIG(o->status) != SIGABRT) {
		fprintf(stderr, "FAIL: %s: child did not abort (status %#x)\n",
			what, o->status);
		exit(1);
	}
	if (!strstr(o->err, needle1)) {
		fprintf(stderr, "FAIL: %s: message lacks \"%s\"\n", what,
			needle1);
		exit(1);
	}
	if (needle2 && !strstr(o->err, needle2)) {
		fprintf(stderr, "FAIL: %s: message lacks \"%s\"\n", what,
			needle2);
		exit(1);
	}
}

#endif /* _KMUTEX_TESTS_CHILD_H */
