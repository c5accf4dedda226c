/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What differs between the kernels cpurng supports (Debian 12's 6.1 and
 * 6.12), in one place.  The rest of the tree is written against 6.12 and
 * includes this header instead of the header that moved; nothing else
 * tests the kernel.  Each entry tests for the feature itself, not for a
 * version number, so a distribution kernel with a backport works too: the
 * CPURNG_HAVE_* flags come from crypto/Kbuild, which looks at the tree.
 *
 * Each entry says what changed and in which release, so it can go when
 * the oldest supported kernel has it.
 */
#ifndef CPURNG_COMPAT_H
#define CPURNG_COMPAT_H

/*
 * 6.12 moved the generic unaligned accessors from <asm/unaligned.h> to
 * <linux/unaligned.h> and dropped the old name.
 */
#ifdef CPURNG_HAVE_LINUX_UNALIGNED_H
#include <linux/unaligned.h>
#else
#include <asm/unaligned.h>
#endif

#endif /* CPURNG_COMPAT_H */
