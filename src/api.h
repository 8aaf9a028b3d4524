/* SPDX-License-Identifier: MIT */
/*
 * api.h - included first by every library source.
 *
 * The library is built with -fvisibility=hidden and a version script;
 * KMUTEX_API marks the few functions the public headers call.
 */
#ifndef _KMUTEX_SRC_API_H
#define _KMUTEX_SRC_API_H

#define __KMUTEX_BUILDING_LIBRARY 1
#define KMUTEX_API __attribute__((visibility("default")))

#endif /* _KMUTEX_SRC_API_H */
