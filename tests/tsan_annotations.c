/*
 * tsan_annotations - ThreadSanitizer understands kmutex's locks
 * (issue 6, include/kmutex/tsan.h).
 *
 * Each case of annotated.h runs as a child (this program again, with
 * the case's name), because a TSan report is judged from outside: its
 * text on stderr and TSan's exit code (66).  clean: no report; race: a
 * "data race" report; abba and abba_percpu: TSan's lock-order-inversion
 * report (the second only through the percpu rwsem's hooks).
 *
 * Without TSan there is nothing to see: skipped.
 */
#include <sys/wait.h>

#define ANN_ITER	20000
#define ANN_YIELD_EVERY	0
#include "annotated.h"

#define TSAN_EXITCODE	66

/* Run this program as @name, collecting stderr into @buf; its status. */
static int run_child(const char *self, const char *name, char *buf,
		     size_t size)
{
	int fd[2], status;
	size_t len = 0;
	ssize_t n;
	pid_t pid;

	CHECK(pipe(fd) == 0);
	pid = fork();
	CHECK(pid >= 0);
	if (pid == 0) {
		dup2(fd[1], 2);
		close(fd[0]);
		close(fd[1]);
		/* Every report, not only the first; TSan's usual exit code. */
		setenv("TSAN_OPTIONS", "halt_on_error=0 exitcode=66 "
		       "detect_deadlocks=1 report_signal_unsafe=0", 1);
		execl(self, self, name, (char *)NULL);
		_exit(127);
	}
	close(fd[1]);
	while (len + 1 < size && (n = read(fd[0], buf + len,
					   size - 1 - len)) > 0)
		len += (size_t)n;
	buf[len] = '\0';
	/* Drain the rest so the child never blocks on a full pipe. */
	while (read(fd[0], &status, sizeof(status)) > 0)
		;
	close(fd[0]);
	CHECK(waitpid(pid, &status, 0) == pid);
	CHECK(WIFEXITED(status));
	return WEXITSTATUS(status);
}

static char out[1 << 16];

int main(int argc, char **argv)
{
	int rc;

	if (argc > 1)
		return ann_run_case(argv[1]) ? 2 : 0;
#ifndef KMUTEX_TSAN
	SKIP("not built with -fsanitize=thread (make test-tsan runs it)");
#endif
	rc = run_child("/proc/self/exe", "clean", out, sizeof(out));
	if (rc != 0 || strstr(out, "ThreadSanitizer")) {
		fprintf(stderr, "clean: exit %d\n%s", rc, out);
		return 1;
	}
	rc = run_child("/proc/self/exe", "race", out, sizeof(out));
	if (rc != TSAN_EXITCODE || !strstr(out, "data race")) {
		fprintf(stderr, "race: exit %d, no data race report\n%s",
			rc, out);
		return 1;
	}
	rc = run_child("/proc/self/exe", "abba", out, sizeof(out));
	if (rc != TSAN_EXITCODE || !strstr(out, "lock-order-inversion")) {
		fprintf(stderr, "abba: exit %d, no lock-order-inversion\n%s",
			rc, out);
		return 1;
	}
	rc = run_child("/proc/self/exe", "abba_percpu", out, sizeof(out));
	if (rc != TSAN_EXITCODE || !strstr(out, "lock-order-inversion")) {
		fprintf(stderr, "abba_percpu: exit %d, "
			"no lock-order-inversion\n%s", rc, out);
		return 1;
	}
	printf("clean: no report; race: reported; abba, abba_percpu: "
	       "reported\n");
	return 0;
}
