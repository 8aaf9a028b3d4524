/*
 * valgrind_annotations - Helgrind and DRD understand kmutex's locks
 * (issue 6, include/kmutex/valgrind.h, src/valgrind.c).
 *
 * Each case of annotated.h runs as this program again under valgrind,
 * with the case's name, and is judged from outside: valgrind's exit code
 * (66 when it reported an error) and its report on stderr.  clean: no
 * report from either tool; race: each tool reports it; abba and
 * abba_percpu: Helgrind reports the lock-order inversions (DRD has no
 * lock-order detector, so it is not asked).
 *
 * Skipped when valgrind is not installed.
 */
#include <sys/wait.h>

#define ANN_ITER	400
#define ANN_YIELD_EVERY	16
#include "annotated.h"

#define VG_EXITCODE	66

/*
 * The program valgrind runs: this one without its debugging sections,
 * since Valgrind 3.19 cannot read the DWARF 5 that clang writes (and
 * the reports need only the function names).  This one as it is if
 * objcopy fails.
 */
static char vg_prog[4096];

static void vg_prepare(void)
{
	static char dir[] = "/tmp/kmutex-vg-XXXXXX";
	char self[4096], cmd[8400];
	ssize_t len = readlink("/proc/self/exe", self, sizeof(self) - 1);

	CHECK(len > 0);
	self[len] = '\0';
	snprintf(vg_prog, sizeof(vg_prog), "%s", self);
	if (!mkdtemp(dir))
		return;
	snprintf(cmd, sizeof(cmd), "objcopy --strip-debug '%s' %s/prog "
		 "2>/dev/null", self, dir);
	if (system(cmd) == 0)
		snprintf(vg_prog, sizeof(vg_prog), "%s/prog", dir);
}

static void vg_cleanup(void)
{
	char *slash = strrchr(vg_prog, '/');

	if (strncmp(vg_prog, "/tmp/kmutex-vg-", 15))
		return;
	unlink(vg_prog);
	*slash = '\0';
	rmdir(vg_prog);
}

/* Run this program's case @name under valgrind's @tool; its stderr. */
static int vg_child(const char *tool, const char *name, char *buf,
		    size_t size)
{
	char tool_opt[64], drain[4096];
	size_t len = 0;
	ssize_t n;
	int fd[2], status;
	pid_t pid;

	snprintf(tool_opt, sizeof(tool_opt), "--tool=%s", tool);
	CHECK(pipe(fd) == 0);
	pid = fork();
	CHECK(pid >= 0);
	if (pid == 0) {
		dup2(fd[1], 2);
		close(fd[0]);
		close(fd[1]);
		execlp("valgrind", "valgrind", tool_opt, "--error-exitcode=66",
		       vg_prog, name, (char *)NULL);
		_exit(127);
	}
	close(fd[1]);
	while (len + 1 < size &&
	       (n = read(fd[0], buf + len, size - 1 - len)) > 0)
		len += (size_t)n;
	buf[len] = '\0';
	/* Drain the rest so the child never blocks on a full pipe. */
	while (read(fd[0], drain, sizeof(drain)) > 0)
		;
	close(fd[0]);
	CHECK(waitpid(pid, &status, 0) == pid);
	CHECK(WIFEXITED(status));
	return WEXITSTATUS(status);
}

static char out[1 << 18];

/*
 * Case @name under @tool: want exit code @rc (0: no error of any kind),
 * and @text in the report or not.
 */
static bool vg_expect(const char *tool, const char *name, int rc,
		      const char *text, bool present)
{
	int got = vg_child(tool, name, out, sizeof(out));

	if (got == rc && !!strstr(out, text) == present) {
		printf("%s %s: %s\n", tool, name,
		       present ? "reported" : "no report");
		return true;
	}
	fprintf(stderr, "%s %s: exit %d (want %d), \"%s\" %s\n%s\n", tool,
		name, got, rc, text, present ? "missing" : "reported", out);
	return false;
}

static bool have_valgrind(void)
{
	return system("valgrind --version >/dev/null 2>&1") == 0;
}

int main(int argc, char **argv)
{
	bool ok = true;

	if (argc > 1)
		return ann_run_case(argv[1]);
#if defined(KMUTEX_TSAN) || defined(__SANITIZE_ADDRESS__)
	SKIP("built with a sanitizer: its shadow memory keeps valgrind out");
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
	SKIP("built with a sanitizer: its shadow memory keeps valgrind out");
#endif
#endif
	if (!have_valgrind())
		SKIP("valgrind not installed (Debian package valgrind)");
	test_watchdog(240);
	vg_prepare();
	ok &= vg_expect("helgrind", "clean", 0, "Possible data race", false);
	ok &= vg_expect("helgrind", "race", VG_EXITCODE,
			"Possible data race", true);
	ok &= vg_expect("helgrind", "abba", VG_EXITCODE, "lock order", true);
	ok &= vg_expect("helgrind", "abba_percpu", VG_EXITCODE, "lock order",
			true);
	ok &= vg_expect("drd", "clean", 0, "Conflicting", false);
	ok &= vg_expect("drd", "race", VG_EXITCODE, "Conflicting", true);
	printf("drd abba: not run, DRD has no lock-order detector\n");
	vg_cleanup();
	return ok ? 0 : 1;
}
