// SPDX-License-Identifier: GPL-2.0
/*
 * CPU Jitter RNG timer: the cycle counter through random_get_entropy(), the
 * same source the kernel's own entropy input uses.  Where an architecture
 * has no cycle counter, random_get_entropy() falls back to a clocksource
 * read or returns 0; the start-up test then judges whether what is left is
 * fine enough.
 *
 * Testing builds can coarsen the timer to jiffies (test_coarse_timer), the
 * situation of the embedded systems without a high-resolution timer that
 * the 2014 seed debate was about.  This module refuses to run on such a
 * timer; the CPU-randomness collector is the seed source meant for them.
 */
#include <linux/jiffies.h>
#include <linux/timex.h>

#include "../include/cpurng/jitter.h"

/*
 * Kept out of line so that the -O0 noise core calls it like any other
 * function: the timer read itself is optimised code.
 */
noinline u64 cpurng_noise_timestamp(void)
{
	if (cpurng_jent_test_coarse_timer())
		return get_jiffies_64();
	return random_get_entropy();
}

const char *cpurng_jent_timer_name(void)
{
	return cpurng_jent_test_coarse_timer() ? "jiffies (test)" :
						 "random_get_entropy";
}
