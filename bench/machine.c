// SPDX-License-Identifier: MIT
/* machine.c - what the results were measured on. */
#include <gnu/libc-version.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "bench.h"

static void read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");

	snprintf(buf, len, "unknown");
	if (!f)
		return;
	if (fgets(buf, (int)len, f))
		buf[strcspn(buf, "\n")] = 0;
	fclose(f);
}

static void read_cpu_model(char *buf, size_t len)
{
	char line[256];
	FILE *f = fopen("/proc/cpuinfo", "r");

	snprintf(buf, len, "unknown");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		if (strncmp(line, "model name", 10) || !colon)
			continue;
		colon += 1 + strspn(colon + 1, " \t");
		colon[strcspn(colon, "\n")] = 0;
		snprintf(buf, len, "%s", colon);
		break;
	}
	fclose(f);
}

void machine_load(double load[3])
{
	if (getloadavg(load, 3) != 3)
		load[0] = load[1] = load[2] = -1;
}

void machine_read(struct machine *m)
{
	struct utsname u;

	read_cpu_model(m->cpu, sizeof(m->cpu));
	m->cpus_online = sysconf(_SC_NPROCESSORS_ONLN);
	m->cpus_conf = sysconf(_SC_NPROCESSORS_CONF);
	if (!uname(&u))
		snprintf(m->kernel, sizeof(m->kernel), "%s %s %s", u.sysname,
			 u.release, u.machine);
	else
		snprintf(m->kernel, sizeof(m->kernel), "unknown");
	m->libc = gnu_get_libc_version();
	read_line("/sys/devices/system/clocksource/clocksource0/current_clocksource",
		  m->clocksource, sizeof(m->clocksource));
	machine_load(m->load_before);
}
