/* SPDX-License-Identifier: MIT */
/*
 * tls.h - the model of the library's thread-locals.
 *
 * Some are read in signal handlers (wait_lock_irq_top, the waiter's and
 * the debugging build's state).  glibc gives a dlopen()ed library's
 * thread-locals to a thread at its first access, through malloc() in
 * __tls_get_addr(), which a handler must not run; initial-exec ones are
 * in the static TLS block that glibc reserves room in for dlopen(), and
 * cost one load.  musl refuses to dlopen() a library with initial-exec
 * thread-locals, and needs none: it gives every thread its copy at the
 * dlopen() itself, and its __tls_get_addr() only adds (found by
 * tests/dlclose_plugin.sh, which musl's dlopen() refused).  A program
 * linked with the archive gets local-exec either way.
 */
#ifndef _KMUTEX_SRC_TLS_H
#define _KMUTEX_SRC_TLS_H

#include <features.h>	/* __GLIBC__ */

#ifdef __GLIBC__
#define KMUTEX_TLS __attribute__((tls_model("initial-exec")))
#else
#define KMUTEX_TLS
#endif

#endif /* _KMUTEX_SRC_TLS_H */
