// SPDX-License-Identifier: MIT
/*
 * sizes.c - the size and alignment of every public struct, printed, and
 * the layout contract checked on every CPU the matrix builds for (make
 * test, make test-aarch64, make test-armhf; docs/portability.md lists
 * the numbers):
 *   - struct mutex at most 32 bytes on 64-bit CPUs (docs/API.md: the
 *     kernel's own is 32 on x86-64), at most 20 on 32-bit ones;
 *   - every atomic word (the ints the library sleeps on with futex(2),
 *     and those it changes atomically) is 4 bytes at a 4-byte aligned
 *     offset: the kernel refuses (EINVAL) a
 *     futex address that is not 4-byte aligned;
 *   - each struct is aligned at least as a pointer (its wait list).
 */
#include <linux/completion.h>
#include <linux/mutex.h>
#include <linux/rwsem.h>
#include <linux/semaphore.h>
#include <stddef.h>

#include "harness.h"

#define SHOW(T)								\
	printf("%-22s %3zu bytes, aligned %zu\n", #T, sizeof(T),	\
	       _Alignof(T))
#define WORD(T, f)							\
	do {								\
		_Static_assert(sizeof(((T *)0)->f) == 4, #f " is 4 bytes"); \
		CHECK(offsetof(T, f) % 4 == 0);				\
		printf("  futex word %-10s at offset %zu\n", #f,	\
		       offsetof(T, f));					\
	} while (0)

int main(void)
{
	const size_t ptr = sizeof(void *);

	printf("long %zu, pointer %zu, time_t %zu bytes\n", sizeof(long),
	       ptr, sizeof(time_t));
	SHOW(struct mutex);
	WORD(struct mutex, count);
	WORD(struct mutex, wait_lock);
	SHOW(struct rw_semaphore);
	WORD(struct rw_semaphore, count);
	WORD(struct rw_semaphore, wait_lock);
	SHOW(struct semaphore);
	WORD(struct semaphore, count);
	WORD(struct semaphore, wait_lock);
	SHOW(struct completion);
	WORD(struct completion, done);
	WORD(struct completion, wait_lock);
	SHOW(struct lock_class_key);

	CHECK(sizeof(struct mutex) <= (ptr == 8 ? 32u : 20u));
	CHECK(_Alignof(struct mutex) >= _Alignof(void *));
	CHECK(_Alignof(struct rw_semaphore) >= _Alignof(void *));
	CHECK(_Alignof(struct semaphore) >= _Alignof(void *));
	CHECK(_Alignof(struct completion) >= _Alignof(void *));
	return 0;
}
