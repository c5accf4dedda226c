// SPDX-License-Identifier: GPL-2.0
/*
 * CPU-randomness collector test hooks, built only with
 * CONFIG_CRYPTO_CPURNG_TESTING.
 *
 *   test_coarse_timer=1  leave the cycle counter out of every event, as on
 *                        a machine without a high-resolution timer (the
 *                        same knob as the jitter RNG's)
 */
#include <linux/moduleparam.h>

#include "../include/cpurng/collector.h"

static bool test_coarse_timer;
module_param(test_coarse_timer, bool, 0444);
MODULE_PARM_DESC(test_coarse_timer, "TESTING: mix no cycle counter, only jiffies, sites and pointers");

bool cpurng_cr_test_coarse_timer(void)
{
	return test_coarse_timer;
}
