// SPDX-License-Identifier: MIT
/* machine.c - what the results were measured on. */
#include <gnu/libc-version.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/utsname.h>
#include <time.h>
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

/* All CPUs' busy time and the time the host stole, in s (/proc/stat). */
static void machine_cpu(double *busy, double *steal)
{
	unsigned long long user, nice, sys, idle, iowait, irq, softirq, st;
	double hz = (double)sysconf(_SC_CLK_TCK);
	FILE *f = fopen("/proc/stat", "r");

	*busy = *steal = 0;
	if (!f)
		return;
	if (fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &user,
		   &nice, &sys, &idle, &iowait, &irq, &softirq, &st) == 8) {
		*busy = (double)(user + nice + sys + irq + softirq) / hz;
		*steal = (double)st / hz;
	}
	fclose(f);
}

static double self_cpu(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
	       (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

static double wall(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void machine_usage_end(struct machine *m)
{
	double busy, steal, cpus = (double)m->cpus_online;
	double all = (wall() - m->wall0) * (cpus > 0 ? cpus : 1);
	double self = self_cpu() - m->self0;

	machine_cpu(&busy, &steal);
	m->share_self = self / all;
	m->share_others = (busy - m->busy0 - self) / all;
	if (m->share_others < 0)	/* tick-granular counters */
		m->share_others = 0;
	m->share_steal = (steal - m->steal0) / all;
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
	machine_cpu(&m->busy0, &m->steal0);
	m->self0 = self_cpu();
	m->wall0 = wall();
}
