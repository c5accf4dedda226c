/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace stand-in: see ../kshim.h. */
#include "../kshim.h"
