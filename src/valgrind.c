// SPDX-License-Identifier: MIT
/*
 * valgrind.c - the client requests behind kmutex/valgrind.h.
 *
 * Helgrind and DRD understand the same requests for user-defined
 * reader-writer locks and happens-before edges (drd.h gives them the
 * codes helgrind.h uses), so one set serves both; only "do not check
 * this memory" differs.  Without the Valgrind headers at build time
 * the flag stays 0 and the hooks are never called.
 */
#include "api.h"

#include <stddef.h>
#include <kmutex/valgrind.h>
#include <linux/completion.h>
#include <linux/mutex.h>
#include <linux/rwsem.h>
#include <linux/semaphore.h>

#include "list.h"
#include "valgrind.h"
#include "waiter.h"

#if __has_include(<valgrind/helgrind.h>) && __has_include(<valgrind/drd.h>)
#include <valgrind/helgrind.h>
#include <valgrind/drd.h>	/* after helgrind.h: keeps its ANNOTATE_s */
#define HAVE_VALGRIND 1
#endif

enum vg_tool { VG_UNKNOWN = -1, VG_NONE, VG_HELGRIND, VG_DRD };

/*
 * Until the constructor has looked, nonzero: a lock taken by another
 * constructor before ours still reaches vg_tool(), which looks then.
 */
KMUTEX_API int __kmutex_valgrind = VG_UNKNOWN;

static enum vg_tool vg_detect(void)
{
#ifdef HAVE_VALGRIND
	if (!RUNNING_ON_VALGRIND)
		return VG_NONE;
	/* Each tool answers its own requests; the others return 0 / -1. */
	if (DRD_GET_VALGRIND_THREADID != 0)
		return VG_DRD;
	if (VALGRIND_HG_GET_ABITS(&__kmutex_valgrind, NULL, 0) != -1)
		return VG_HELGRIND;
#endif
	return VG_NONE;	/* memcheck and the others: nothing to tell */
}

static enum vg_tool vg_tool(void)
{
	if (__kmutex_valgrind == VG_UNKNOWN)
		__kmutex_valgrind = vg_detect();
	return __kmutex_valgrind;
}

int vg_running;

static void __attribute__((constructor)) vg_init(void)
{
	vg_tool();
#ifdef HAVE_VALGRIND
	vg_running = RUNNING_ON_VALGRIND != 0;
#endif
}

void vg_report_errors(bool on)
{
#ifdef HAVE_VALGRIND
	if (on)
		VALGRIND_ENABLE_ERROR_REPORTING;
	else
		VALGRIND_DISABLE_ERROR_REPORTING;
#else
	(void)on;
#endif
}

#ifdef HAVE_VALGRIND
/* Stop race-checking [@p, @p + @size): memory only kmutex touches. */
static void vg_ignore(void *p, unsigned long size)
{
	if (vg_tool() == VG_HELGRIND)
		VALGRIND_HG_DISABLE_CHECKING(p, size);
	else if (vg_tool() == VG_DRD)
		VALGRIND_DO_CLIENT_REQUEST_STMT(VG_USERREQ__DRD_START_SUPPRESSION,
						p, size, 0, 0, 0);
}

static void vg_unignore(void *p, unsigned long size)
{
	if (vg_tool() == VG_HELGRIND)
		VALGRIND_HG_ENABLE_CHECKING(p, size);
	else if (vg_tool() == VG_DRD)
		VALGRIND_DO_CLIENT_REQUEST_STMT(VG_USERREQ__DRD_FINISH_SUPPRESSION,
						p, size, 0, 0, 0);
}
#endif

/**
 * __kmutex_vg_create - a mutex or rwsem was initialised
 * @obj: the lock
 * @size: its size, all of it kmutex's own memory
 */
KMUTEX_API void __kmutex_vg_create(void *obj, unsigned long size)
{
#ifdef HAVE_VALGRIND
	vg_ignore(obj, size);
	/*
	 * Helgrind: forget a lock that lived here before (a stack frame
	 * or heap block reused without mutex_destroy()), with the lock
	 * orders it learnt.  DRD reports a second create of one address
	 * as an error, and creates a lock on its first use anyway.
	 */
	if (vg_tool() == VG_HELGRIND) {
		ANNOTATE_RWLOCK_CREATE(obj);
		ANNOTATE_RWLOCK_DESTROY(obj);
		ANNOTATE_RWLOCK_CREATE(obj);
	}
#else
	(void)obj; (void)size;
#endif
}

/**
 * __kmutex_vg_destroy - a mutex or rwsem was destroyed
 * @obj: the lock
 * @size: its size
 *
 * Its memory is checked again, as whatever is put there next will be.
 */
KMUTEX_API void __kmutex_vg_destroy(void *obj, unsigned long size)
{
#ifdef HAVE_VALGRIND
	/*
	 * Helgrind: create first, since a DEFINE_MUTEX never locked is
	 * unknown to it and destroying that is an error.  DRD forgets the
	 * lock with its memory.
	 */
	if (vg_tool() == VG_HELGRIND) {
		ANNOTATE_RWLOCK_CREATE(obj);
		ANNOTATE_RWLOCK_DESTROY(obj);
	}
	vg_unignore(obj, size);
#else
	(void)obj; (void)size;
#endif
}

/**
 * __kmutex_vg_acquired - a mutex or rwsem was just taken
 * @obj: the lock
 * @size: its size
 * @write: 1 exclusive (a mutex, a writer), 0 a reader
 */
KMUTEX_API void __kmutex_vg_acquired(void *obj, unsigned long size, int write)
{
#ifdef HAVE_VALGRIND
	vg_ignore(obj, size);	/* a DEFINE_MUTEX is created by its first use */
	ANNOTATE_RWLOCK_ACQUIRED(obj, write);
#else
	(void)obj; (void)size; (void)write;
#endif
}

/**
 * __kmutex_vg_released - a mutex or rwsem is about to be released
 * @obj: the lock
 * @size: its size
 * @write: as for __kmutex_vg_acquired()
 */
KMUTEX_API void __kmutex_vg_released(void *obj, unsigned long size, int write)
{
	(void)size; (void)write;	/* Helgrind's request drops @write */
#ifdef HAVE_VALGRIND
	ANNOTATE_RWLOCK_RELEASED(obj, write);
#else
	(void)obj;
#endif
}

/**
 * __kmutex_vg_happens_before - up() or complete() hands over
 * @obj: the semaphore or completion
 * @size: its size
 */
KMUTEX_API void __kmutex_vg_happens_before(void *obj, unsigned long size)
{
#ifdef HAVE_VALGRIND
	vg_ignore(obj, size);
	ANNOTATE_HAPPENS_BEFORE(obj);
#else
	(void)obj; (void)size;
#endif
}

/**
 * __kmutex_vg_happens_after - a down() or wait succeeded
 * @obj: the semaphore or completion
 * @size: its size
 */
KMUTEX_API void __kmutex_vg_happens_after(void *obj, unsigned long size)
{
#ifdef HAVE_VALGRIND
	vg_ignore(obj, size);
	ANNOTATE_HAPPENS_AFTER(obj);
#else
	(void)obj; (void)size;
#endif
}

/*
 * Every lock object starts with { count, wait_lock }: the slow paths
 * hide those from the checkers when they take wait_lock, since a
 * semaphore or completion may be waited on before any hook above has
 * seen it.  The rest of the object is hidden by the hooks above, the
 * wait list's head when a waiter is queued, and a spinner's flag when
 * it is claimed.  A waiter (on its thread's stack) is hidden when it is
 * set up, before its first write.
 */
#define VG_HEADER_OF(type, count)					\
	_Static_assert(offsetof(type, count) == 0 &&			\
		       offsetof(type, wait_lock) == sizeof(int),	\
		       #type ": count, wait_lock first")
VG_HEADER_OF(struct mutex, count);
VG_HEADER_OF(struct semaphore, count);
VG_HEADER_OF(struct rw_semaphore, count);
VG_HEADER_OF(struct completion, done);

void vg_ignore_header(int *wait_lock)
{
#ifdef HAVE_VALGRIND
	vg_ignore(wait_lock - 1, 2 * sizeof(int));
#else
	(void)wait_lock;
#endif
}

/* A waiter being set up (waiter_init()): others write its node and state. */
void vg_ignore_waiter(struct kmutex_waiter *w)
{
#ifdef HAVE_VALGRIND
	vg_ignore(w, sizeof(*w));
#else
	(void)w;
#endif
}

/*
 * @head: what a waiter is queued before (list_add_tail()): the wait
 * list's head, or a queued waiter's node, already hidden.
 */
void vg_ignore_head(struct kmutex_list *head)
{
#ifdef HAVE_VALGRIND
	vg_ignore(head, sizeof(*head));
#else
	(void)head;
#endif
}

/* A lock's spinner flag, about to be claimed. */
void vg_ignore_word(int *word)
{
#ifdef HAVE_VALGRIND
	vg_ignore(word, sizeof(*word));
#else
	(void)word;
#endif
}
