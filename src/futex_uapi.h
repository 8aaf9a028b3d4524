/* SPDX-License-Identifier: MIT */
/*
 * futex_uapi.h - the few futex(2) operation numbers kmutex uses.
 *
 * They are the kernel's user ABI (include/uapi/linux/futex.h), fixed
 * for good, so kmutex states them here instead of including
 * <linux/futex.h>: that header comes with the kernel's UAPI headers,
 * which glibc toolchains find but musl-gcc's include path does not
 * have.  Each is defined only if <linux/futex.h> has not been included
 * (the values are the same).
 */
#ifndef _KMUTEX_SRC_FUTEX_UAPI_H
#define _KMUTEX_SRC_FUTEX_UAPI_H

#ifndef FUTEX_WAIT
#define FUTEX_WAIT		0
#endif
#ifndef FUTEX_WAKE
#define FUTEX_WAKE		1
#endif
#ifndef FUTEX_WAIT_BITSET
#define FUTEX_WAIT_BITSET	9
#endif
#ifndef FUTEX_PRIVATE_FLAG
#define FUTEX_PRIVATE_FLAG	128
#endif
#ifndef FUTEX_WAIT_PRIVATE
#define FUTEX_WAIT_PRIVATE	(FUTEX_WAIT | FUTEX_PRIVATE_FLAG)
#endif
#ifndef FUTEX_WAKE_PRIVATE
#define FUTEX_WAKE_PRIVATE	(FUTEX_WAKE | FUTEX_PRIVATE_FLAG)
#endif
#ifndef FUTEX_WAIT_BITSET_PRIVATE
#define FUTEX_WAIT_BITSET_PRIVATE	(FUTEX_WAIT_BITSET | FUTEX_PRIVATE_FLAG)
#endif
#ifndef FUTEX_BITSET_MATCH_ANY
#define FUTEX_BITSET_MATCH_ANY	0xffffffff
#endif

#endif /* _KMUTEX_SRC_FUTEX_UAPI_H */
