/* SPDX-License-Identifier: GPL-2.0 */
/*
 * CPU Jitter RNG: a min-entropy estimate of raw noise cheap enough to run
 * in the kernel at module load.
 *
 * A documented subset of the SP800-90B (January 2018) section 6.3 non-IID
 * estimators, in integer arithmetic:
 *
 *   6.3.1  most common value
 *   6.3.5  t-tuple
 *   6.3.8  lag prediction, global performance only (P_global'; the local
 *          performance from the longest run of correct predictions is
 *          left out)
 *
 * on the whole raw deltas mapped to symbols.  Being a subset, it can only
 * read higher than (or equal to) cpurng-ea's full assessment of the same
 * block; the module asks it for a multiple of the credited rate for that
 * reason (Documentation/jitter.rst).  Kernel-agnostic like the health tests:
 * the same file is built into cpurng-ea (--quick), so the tool and the
 * module compute the same number from the same samples.
 */
#ifndef CPURNG_JITTER_ESTIMATE_H
#define CPURNG_JITTER_ESTIMATE_H

#include "types.h"

/* SP800-90B 6.3.8: the lag predictor has D = 128 subpredictors. */
#define CPURNG_EST_LAG_D	128
/* SP800-90B 6.3.5 step 1: t-tuples are counted while one occurs >= 35 times. */
#define CPURNG_EST_TUPLE_MIN	35
/* Block sizes the estimate accepts: enough for the 99 % bounds to be tight. */
#define CPURNG_EST_MIN_SAMPLES	512U
#define CPURNG_EST_MAX_SAMPLES	65536U
/*
 * SP800-90B sets no upper limit on t; this cap bounds the work on
 * degenerate input (a block of one repeated value would otherwise count
 * tuples up to t = n - 35).  Where t reaches it, the estimate is already
 * near 0 from the shorter tuples.
 */
#define CPURNG_EST_TUPLE_MAX	256
/* u32 words of scratch space that cpurng_estimate() needs for @n samples. */
#define CPURNG_EST_SCRATCH_WORDS(n)	(6 * (n) + 1)

/* Estimates are reported in millibits per sample. */
enum cpurng_est_kind {
	CPURNG_EST_MCV,
	CPURNG_EST_TUPLE,
	CPURNG_EST_LAG,
	CPURNG_EST_COUNT
};

/**
 * struct cpurng_estimate - result of one estimate
 * @samples: samples assessed
 * @distinct: distinct raw values among them
 * @tuple_t: the largest t whose most common t-tuple occurs >= 35 times
 * @mbits: each estimator's min-entropy, millibits per sample
 * @min_mbits: the lowest of @mbits: the estimate
 * @by: the estimator that gave @min_mbits
 */
struct cpurng_estimate {
	u32 samples;
	u32 distinct;
	u32 tuple_t;
	u32 mbits[CPURNG_EST_COUNT];
	u32 min_mbits;
	enum cpurng_est_kind by;
};

const char *cpurng_est_name(enum cpurng_est_kind kind);

/**
 * cpurng_estimate() - estimate the min-entropy per sample of raw deltas
 * @v: @n raw deltas
 * @n: CPURNG_EST_MIN_SAMPLES to CPURNG_EST_MAX_SAMPLES
 * @scratch: CPURNG_EST_SCRATCH_WORDS(@n) words the caller provides
 * @e: receives the result
 *
 * Return: 0, or -1 when @n is out of range.
 */
int cpurng_estimate(const u64 *v, u32 n, u32 *scratch,
		    struct cpurng_estimate *e);

/* Exposed for the host tests: fixed-point helpers (Q32 probabilities). */
u32 cpurng_est_log2_q16(u64 x);
u32 cpurng_est_mbits(u64 p_q32);
u64 cpurng_est_upper_bound(u64 p_q32, u32 n);
u64 cpurng_est_root(u32 count, u32 total, u32 t);

#endif /* CPURNG_JITTER_ESTIMATE_H */
