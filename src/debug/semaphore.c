// SPDX-License-Identifier: MIT
/*
 * semaphore.c - the checked struct semaphore calls of the debugging
 * build: the production fast paths of <linux/semaphore.h> and slow
 * paths of src/semaphore.c, after two checks.
 *
 *   magic     a semaphore never initialised is reported, then set up
 *             with the count it has (0 in zeroed memory);
 *   handler   down(), down_interruptible(), down_killable() and
 *             down_timeout() may sleep: in a signal handler they are
 *             reported.  down_trylock() and up() never sleep, and the
 *             kernel allows them in interrupt context: not reported.
 *
 * No order checks: any thread may up() a semaphore, so "held" means
 * nothing to lockdep, which does not track the kernel's semaphores.
 */
#include "../api.h"

#include <linux/semaphore.h>

#include "debug.h"
#include "../hooks.h"

static const char warn_magic[] =
	"WARNING: DEBUG_LOCKS_WARN_ON(sem->magic != sem)";

static void __attribute__((noinline))
check_magic(struct semaphore *sem, const char *call, const void *ip)
{
	struct kmutex_thread *t = lockdep_thread();

	lockdep_lock_acquire();
	if (sem->magic != sem) {
		if (!sem->wait_list.next)	/* zeroed memory */
			__kmutex_list_init(&sem->wait_list);
		sem->map.name = call;
		sem->map.site = "(never initialised)";
		hint_sem_init(sem, -1);	/* its count is unknown */
		__atomic_store_n(&sem->magic, sem, __ATOMIC_RELEASE);
		obj_report_uninit(t, sem, warn_magic, "semaphore",
				  "DEFINE_SEMAPHORE or sema_init", call, ip);
	}
	lockdep_lock_release();
}

static inline void checks(struct semaphore *sem, bool sleeps,
			  const char *call, const void *ip)
{
	if (__kmutex_unlikely(lockdep_recursion))
		return;
	if (__kmutex_unlikely(__atomic_load_n(&sem->magic,
					      __ATOMIC_RELAXED) != sem))
		check_magic(sem, call, ip);
	if (__kmutex_unlikely(lockdep_in_handler) && sleeps)
		obj_check_handler(&sem->map, "semaphore", call, ip);
}

/* The fast path of down*(): count n > 0 -> n - 1. */
static bool down_fast(struct semaphore *sem)
{
	int c = __atomic_load_n(&sem->count, __ATOMIC_RELAXED);

	while (c > 0)
		if (__atomic_compare_exchange_n(&sem->count, &c, c - 1, false,
						__ATOMIC_ACQUIRE,
						__ATOMIC_RELAXED))
			return true;
	return false;
}

static int down_wait(struct semaphore *sem, int intr, int timed,
		     long timeout)
{
	if (timed)
		return kmutex_down_common_slowpath(sem, 0,
						   timeout < 0 ? 0 : timeout);
	if (intr)
		return kmutex_down_common_slowpath(sem, 1, -1);
	kmutex_down_slowpath(sem);
	return 0;
}

/* The wait, watched with KMUTEX_DEBUG_HUNG (hung.c). */
static int down_slow(struct semaphore *sem, int intr, int timed,
		     long timeout, const char *call, const void *ip)
{
	int ret;

	if (__kmutex_likely(!hung_on()))
		return down_wait(sem, intr, timed, timeout);
	hung_begin(sem, "semaphore", sem->map.name, sem->map.site, NULL,
		   call, ip);
	ret = down_wait(sem, intr, timed, timeout);
	hung_end();
	return ret;
}

/**
 * kmutex_debug_sema_init - sema_init()
 * @sem: the semaphore
 * @val: its initial count
 * @name: the argument as written
 * @site: "file.c:12" of the call
 */
KMUTEX_API void kmutex_debug_sema_init(struct semaphore *sem, int val,
				       const char *name, const char *site)
{
	sem->count = val;
	sem->wait_lock = 0;
	__kmutex_list_init(&sem->wait_list);
	sem->map.name = name;
	sem->map.site = site;
	hint_sem_init(sem, val);
	__atomic_store_n(&sem->magic, sem, __ATOMIC_RELEASE);
}

/**
 * kmutex_debug_sem_down - down(), down_interruptible(), down_killable(),
 *	down_timeout(), checked
 * @sem: the semaphore
 * @intr: whether a signal handler ends the wait (-EINTR)
 * @timed: whether @timeout applies (down_timeout())
 * @timeout: the longest wait in jiffies (ms); negative counts as 0
 * @call: the caller's expression and line
 *
 * Return: 0 with a unit taken, -EINTR, or -ETIME.
 */
KMUTEX_API int kmutex_debug_sem_down(struct semaphore *sem, int intr,
				     int timed, long timeout,
				     const char *call)
{
	int ret = 0;

	checks(sem, true, call, __builtin_return_address(0));
	hook_caller(sem, __builtin_return_address(0), NULL);
	if (__kmutex_unlikely(!down_fast(sem)))
		ret = down_slow(sem, intr, timed, timeout, call,
				__builtin_return_address(0));
	if (!ret)
		hint_sem_down(sem);
	/* Told to ThreadSanitizer as the production build tells it. */
	return __kmutex_hook_downed(sem, ret);
}

/**
 * kmutex_debug_sem_trylock - down_trylock(), checked
 * @sem: the semaphore
 * @call: the caller's expression and line
 *
 * Return: 0 if a unit was taken, 1 if not.
 */
KMUTEX_API int kmutex_debug_sem_trylock(struct semaphore *sem,
					const char *call)
{
	checks(sem, false, call, __builtin_return_address(0));
	if (!down_fast(sem))
		return 1;
	hint_sem_down(sem);
	__kmutex_hook_signalled(sem);
	return 0;
}

/**
 * kmutex_debug_sem_up - up(), checked
 * @sem: the semaphore
 * @call: the caller's expression and line
 */
KMUTEX_API void kmutex_debug_sem_up(struct semaphore *sem, const char *call)
{
	int c;

	checks(sem, false, call, __builtin_return_address(0));
	hint_sem_up(sem);
	__kmutex_hook_signal(sem);
	c = __atomic_load_n(&sem->count, __ATOMIC_RELAXED);
	while (c >= 0 && c < INT_MAX)
		if (__atomic_compare_exchange_n(&sem->count, &c, c + 1, false,
						__ATOMIC_RELEASE,
						__ATOMIC_RELAXED))
			return;
	kmutex_up_slowpath(sem);
}
