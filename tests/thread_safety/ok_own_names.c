// SPDX-License-Identifier: MIT
/*
 * Correct: a port of kernel code that defines the annotation names
 * itself, as the kernel without context analysis does (empty): kmutex
 * keeps the program's definitions and its own headers still annotate.
 * KMUTEX_NO_CONTEXT_NAMES lets another name be defined afterwards.
 */
#define __acquires(x)
#define __releases(x)
#define __must_hold(x)
#define KMUTEX_NO_CONTEXT_NAMES
#include <linux/mutex.h>

#define __guarded_by(x)

static DEFINE_MUTEX(lock);
static long counter __guarded_by(lock);

static void bump(void) __must_hold(&lock);
static void bump(void)
{
	counter++;
}

void count(void)
{
	mutex_lock(&lock);
	bump();
	mutex_unlock(&lock);
}
