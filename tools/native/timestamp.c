// SPDX-License-Identifier: GPL-2.0
/*
 * The timer the jitter noise core reads (cpurng_noise_timestamp(), declared
 * in include/cpurng/jitter_noise.h) for the native tools, cpurng-capture
 * and cpurng-jitter: the cycle counter, as the kernel's random_get_entropy()
 * is on x86; elsewhere the raw monotonic clock.  Optimised code, as
 * jitter_timer.c is in the module.
 */
#include <time.h>

#include "../../include/cpurng/jitter_noise.h"

u64 cpurng_noise_timestamp(void)
{
#if defined(__x86_64__) || defined(__i386__)
	unsigned int lo, hi;

	__asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
	return (u64)hi << 32 | lo;
#else
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (u64)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
#endif
}
