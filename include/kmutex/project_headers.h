/* SPDX-License-Identifier: MIT */
/*
 * kmutex/project_headers.h - what the kernel's lock headers bring in,
 * from a project's own kernel shims where it has them.
 *
 * Kernel code relies on more than the lock API from <linux/mutex.h>,
 * <linux/rwsem.h>, <linux/semaphore.h> and <linux/completion.h>: they
 * include <linux/list.h> and <linux/spinlock.h> (and <linux/completion.h>
 * <linux/wait.h>, through <linux/swait.h>), and code uses struct
 * list_head or raw_spinlock_t after including only <linux/mutex.h>.
 * kmutex defines none of those itself (docs/API.md, "coexistence"), but
 * where the include path has a project's own, its lock headers include
 * them first, as the kernel's do.
 *
 * How a project's header is told from the system's: Debian's (and any
 * distribution's) /usr/include/linux/ holds the kernel's UAPI headers,
 * which include no list.h, spinlock.h, lockdep.h, jiffies.h, compiler.h,
 * compiler_types.h or debug_locks.h, so __has_include() of those finds a
 * project's only (kmutex ships none of them).  But the UAPI does have a
 * wait.h (waitid()'s WEXITED, P_ALL ... as macros, which break a later
 * <sys/wait.h>), with the kernel's own include guard _LINUX_WAIT_H.  So
 * <linux/wait.h> is included only where a project's <linux/list.h> shows
 * a kernel shim tree on the include path; if the wait.h found then is
 * the UAPI one all the same (the tree has none; recognised by its
 * P_PIDFD without the wait_event() every kernel wait.h defines), its
 * P_* macros are undefined again so that <sys/wait.h> still works.
 *
 * A program defines KMUTEX_NO_KERNEL_INCLUDES to have none of this (and
 * none of the includes of <kmutex/lockdep.h>, <kmutex/jiffies.h> and
 * <kmutex/capability.h>).
 */
#ifndef _KMUTEX_PROJECT_HEADERS_H
#define _KMUTEX_PROJECT_HEADERS_H

#if !defined(KMUTEX_NO_KERNEL_INCLUDES) && defined(__has_include)
#if __has_include(<linux/list.h>)
#include <linux/list.h>
#define __KMUTEX_PROJECT_SHIMS 1
#endif
#if __has_include(<linux/spinlock.h>)
#include <linux/spinlock.h>
#endif
#endif

#endif /* _KMUTEX_PROJECT_HEADERS_H */

/*
 * <linux/wait.h>, for <linux/completion.h> only: outside the include
 * guard, as it is asked for by defining __KMUTEX_WANT_WAIT_H first.
 */
#if defined(__KMUTEX_WANT_WAIT_H) && defined(__KMUTEX_PROJECT_SHIMS) && \
	!defined(_KMUTEX_PROJECT_WAIT_H)
#define _KMUTEX_PROJECT_WAIT_H
#if __has_include(<linux/wait.h>) && !defined(_LINUX_WAIT_H)
#include <linux/wait.h>
#if defined(P_PIDFD) && !defined(wait_event)
#undef P_ALL
#undef P_PID
#undef P_PGID
#undef P_PIDFD
#endif
#endif
#endif
