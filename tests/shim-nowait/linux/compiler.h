/* SPDX-License-Identifier: MIT */
#include "../../shim/linux/compiler.h"
