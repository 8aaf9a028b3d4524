// SPDX-License-Identifier: MIT
/*
 * guard_analysis.c - with the project's <linux/cleanup.h> first on the
 * include path, kmutex's guard classes pass clang -Wthread-safety: the
 * project's DEFINE_CLASS() defines the guard's destructor, unlock and
 * all, and kmutex must keep the analysis out of it (else: "releasing
 * mutex '_T' that was not held" in kmutex's headers), and data guarded
 * by the lock is read under guard() with no warning.  Compiled only
 * (tests/headers_shims.sh), in both builds.
 */
#include <linux/mutex.h>
#include <linux/percpu-rwsem.h>
#include <linux/rwsem.h>

static DEFINE_MUTEX(lock);
static DECLARE_RWSEM(sem);
DEFINE_STATIC_PERCPU_RWSEM(pcpu);
static int a __guarded_by(lock);
static int b __guarded_by(sem);
static int c __guarded_by(pcpu);

int read_a(void);
int read_b(void);
int read_c(void);
void write_b(int v);
void write_c(int v);

int read_a(void)
{
	guard(mutex)(&lock);
	return a;
}

int read_b(void)
{
	guard(rwsem_read)(&sem);
	return b;
}

void write_b(int v)
{
	guard(rwsem_write)(&sem);
	b = v;
}

int read_c(void)
{
	guard(percpu_read)(&pcpu);
	return c;
}

void write_c(int v)
{
	guard(percpu_write)(&pcpu);
	c = v;
}
