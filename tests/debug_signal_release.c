// SPDX-License-Identifier: MIT
/*
 * debug_signal_release.c - tests/signal_release.c against the debugging
 * build, which shares the production slow paths and hung the same way
 * before the fix (issue 15, bug 1); and it must not report anything.
 */
#include "signal_release.c"
