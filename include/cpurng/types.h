/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Fixed-width types for the kernel-agnostic parts of cpurng (the jitter
 * noise core and its health tests), which are also compiled in userspace by
 * the host unit tests.
 */
#ifndef CPURNG_TYPES_H
#define CPURNG_TYPES_H

#ifdef __KERNEL__
#include <linux/types.h>
#else
#include <linux/types.h>	/* the uapi header: __u8 ... __s64 */
#include <stdbool.h>

typedef __u8 u8;
typedef __u32 u32;
typedef __u64 u64;
typedef __s64 s64;
#endif

#endif /* CPURNG_TYPES_H */
