/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace stand-in: the uapi types, then the kernel's short names. */
#ifndef CPURNG_KSHIM_LINUX_TYPES_H
#define CPURNG_KSHIM_LINUX_TYPES_H
#include_next <linux/types.h>
#include <stdbool.h>

typedef __u8 u8;
typedef __u16 u16;
typedef __u32 u32;
typedef __s32 s32;
typedef __u64 u64;
typedef __s64 s64;
#endif
