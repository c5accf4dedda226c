// SPDX-License-Identifier: GPL-2.0
/* Scripted timer for the host unit tests; see fake_timer.h. */
#include "fake_timer.h"
#include "../../include/cpurng/jitter_noise.h"

static fake_delta_fn fake_gen = fake_good;
static u64 fake_now = 1000000;
static u64 fake_sample;
static unsigned int fake_phase;
static u64 fake_delta;

void fake_timer_set(fake_delta_fn gen)
{
	fake_gen = gen;
	fake_sample = 0;
	fake_phase = 0;
}

u64 cpurng_noise_timestamp(void)
{
	switch (fake_phase++) {
	case 0:
		fake_delta = fake_gen(fake_sample++);
		return fake_now;
	case 1:
		return fake_now + fake_delta / 2;
	default:
		fake_phase = 0;
		fake_now += fake_delta;
		return fake_now;
	}
}

/* splitmix64: a fixed, well-mixed sequence for the "good" timer. */
static u64 fake_mix(u64 x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

u64 fake_good(u64 i)
{
	return 2000 + (fake_mix(i) & 0xfff);
}

u64 fake_constant(u64 i)
{
	(void)i;
	return 1234;
}

/*
 * 30 of every 31 samples take one value (about 496 in a window of 512),
 * while no run reaches the smallest RCT cutoff (31).  That is above the APT
 * cutoffs for osr 1 to 6; at osr 7 and 8 the cutoffs (499, 502) are beyond
 * what any run-limited bias can reach, so there the RCT fires first.
 */
u64 fake_biased(u64 i)
{
	return (i % 31) ? 1500 : 1500 + 1 + (fake_mix(i) & 0xff);
}

u64 fake_progression(u64 i)
{
	return 1000 + 3 * i;
}

/* A 4 ms tick seen by samples of a few microseconds. */
u64 fake_coarse(u64 i)
{
	return (i % 500) ? 0 : 4000000;
}

u64 fake_zero(u64 i)
{
	(void)i;
	return 0;
}

u64 fake_backwards(u64 i)
{
	return (i % 8) ? fake_good(i) : (u64)-(s64)fake_good(i);
}
