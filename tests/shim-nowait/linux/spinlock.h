/* SPDX-License-Identifier: MIT */
#include "../../shim/linux/spinlock.h"
