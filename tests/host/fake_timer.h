/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Scripted timer for the host unit tests of the jitter noise core.
 *
 * The noise core reads the timer three times per sample (start, between the
 * two workloads, end).  The fake timer makes the whole sample last exactly
 * the delta its current generator returns, whatever the workloads did, so a
 * test controls the raw samples the health tests see.
 */
#ifndef CPURNG_FAKE_TIMER_H
#define CPURNG_FAKE_TIMER_H

#include "../../include/cpurng/types.h"

/* Returns the delta of sample number @i. */
typedef u64 (*fake_delta_fn)(u64 i);

void fake_timer_set(fake_delta_fn gen);

/* Generators. */
u64 fake_good(u64 i);		/* wide, PRNG-driven spread */
u64 fake_constant(u64 i);	/* every delta equal: trips the RCT */
u64 fake_biased(u64 i);		/* one value in short runs: trips the APT */
u64 fake_progression(u64 i);	/* deltas grow in constant steps */
u64 fake_coarse(u64 i);		/* mostly zero: a jiffies-like timer */
u64 fake_zero(u64 i);		/* the timer never advances */
u64 fake_backwards(u64 i);	/* the timer often steps back */

#endif /* CPURNG_FAKE_TIMER_H */
