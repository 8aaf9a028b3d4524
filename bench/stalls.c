// SPDX-License-Identifier: MIT
/*
 * stalls.c - how long this machine stops a running thread by itself.
 *
 * One thread per CPU (the first STALL_MAX_THREADS of this process's
 * mask), pinned, reads the clock in a loop; a gap between two reads
 * longer than STALL_GAP_NS is time the thread did not run although
 * nothing else of this process wanted its CPU: an interrupt, the
 * kernel's own work, another process, or in a VM the host running
 * something else on that vCPU.  A lock holder stalled so keeps its
 * waiters waiting as long, whatever the lock: the longest waits the
 * benchmark reports (fairness, the rwsem's writers) cannot be shorter
 * than the stalls of the machine they ran on.  Found on a 2-vCPU VM
 * (2026-12-07): 2 threads that only computed saw gaps of 0.3-2.9 ms
 * several times a second, some every 512 ms, and an rwsem writer at 2
 * threads waited up to 5 ms for a reader stalled in a 100 ns read
 * section.
 */
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "clock.h"

#define STALL_MAX_THREADS	64

/* Each on its own line: the loop reads until, and writes its gaps. */
struct stall_thread {
	pthread_t tid;
	int cpu;
	uint64_t until;
	uint64_t longest, total;
	unsigned long count;
	bool pinned;
} __attribute__((aligned(64)));

static void *stall_main(void *arg)
{
	struct stall_thread *t = arg;
	uint64_t last, now;

	t->pinned = bench_pin_self(t->cpu);
	last = now_ns();
	while (last < t->until) {
		now = now_ns();
		if (now - last > t->longest)
			t->longest = now - last;
		if (now - last > STALL_GAP_NS) {
			t->count++;
			t->total += now - last;
		}
		last = now;
	}
	return NULL;
}

/*
 * Start a thread on each CPU of this process's mask, at most @max.
 * Return: how many started; *@all: whether that is every one wanted.
 */
static unsigned int stall_start(struct stall_thread *t, unsigned int max,
				uint64_t until, bool *all)
{
	cpu_set_t set;
	unsigned int n = 0;
	int i;

	*all = false;
	if (sched_getaffinity(0, sizeof(set), &set))
		return 0;
	for (i = 0; i < CPU_SETSIZE && n < max; i++) {
		if (!CPU_ISSET(i, &set))
			continue;
		t[n].cpu = i;
		t[n].until = until;
		if (pthread_create(&t[n].tid, NULL, stall_main, &t[n]))
			return n;
		n++;
	}
	*all = true;
	return n;
}

void stalls_measure(struct stalls *s, double seconds)
{
	struct stall_thread *t = aligned_alloc(64, STALL_MAX_THREADS *
					       sizeof(*t));
	unsigned int i, n;
	bool all;

	memset(s, 0, sizeof(*s));
	s->seconds = seconds;
	if (!t) {
		s->why = "out of memory";
		return;
	}
	memset(t, 0, STALL_MAX_THREADS * sizeof(*t));
	n = stall_start(t, STALL_MAX_THREADS,
			now_ns() + (uint64_t)(seconds * 1e9), &all);
	if (!all)
		s->why = "cannot start a thread per CPU";
	for (i = 0; i < n; i++) {
		pthread_join(t[i].tid, NULL);
		if (!t[i].pinned)
			s->why = "cannot pin a thread to each CPU";
		s->count += t[i].count;
		s->total_ns += t[i].total;
		if (t[i].longest > s->longest_ns)
			s->longest_ns = t[i].longest;
	}
	s->threads = n;
	free(t);
}
