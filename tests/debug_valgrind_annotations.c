// SPDX-License-Identifier: MIT
/*
 * debug_valgrind_annotations - the debugging build tells Helgrind and
 * DRD about its locks too (issue 6): the cases of valgrind_annotations.c
 * (clean, race, abba under Helgrind; clean and race under DRD), built
 * against libkmutex-debug, whose lock entry points in src/debug/ make
 * the client requests instead of the production inline paths.
 *
 * The checker's own bookkeeping (held-lock records, the class graph)
 * must not show up as races either: the "clean" case passes only if
 * Helgrind and DRD report nothing at all.  In the "abba" case the
 * checker reports the inversion on stderr too; the test looks only for
 * Helgrind's words.
 */
#include "valgrind_annotations.c"
