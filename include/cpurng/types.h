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
#include <stdbool.h>
#include <stdint.h>

typedef uint8_t u8;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int64_t s64;
#endif

#endif /* CPURNG_TYPES_H */
