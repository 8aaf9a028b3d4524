/* SPDX-License-Identifier: MIT */
/* A shim tree without wait.h: the one in tests/shim, minus wait.h. */
#include "../../shim/linux/list.h"
