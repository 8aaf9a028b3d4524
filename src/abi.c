// SPDX-License-Identifier: MIT
/*
 * abi.c - the marker that keeps production and debugging objects apart.
 * See __KMUTEX_ABI_MARKER in include/kmutex/compiler.h.
 */
#include "api.h"
#include <kmutex/compiler.h>

KMUTEX_API const int __KMUTEX_ABI_MARKER = 1;
