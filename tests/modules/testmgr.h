/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The crypto manager's test entry point.  crypto/testmgr.c exports it, but
 * it is declared only in crypto/internal.h, which kernel header packages do
 * not ship.
 */
#ifndef CPURNG_TEST_TESTMGR_H
#define CPURNG_TEST_TESTMGR_H

#include <linux/types.h>

/**
 * alg_test() - run the crypto manager's tests of @alg against @driver
 * @driver: driver name to allocate
 * @alg: algorithm name the tests are listed under
 * @type: crypto type flags
 * @mask: crypto type mask
 *
 * Return: 0 when the tests pass (or none exist), else an errno.
 */
int alg_test(const char *driver, const char *alg, u32 type, u32 mask);

#endif /* CPURNG_TEST_TESTMGR_H */
