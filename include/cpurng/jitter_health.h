/* SPDX-License-Identifier: GPL-2.0 */
/*
 * SP800-90B continuous health tests for the CPU Jitter RNG noise source,
 * and the start-up test built on them.  Kernel-agnostic (see types.h): the
 * host unit tests compile the same file.
 */
#ifndef CPURNG_JITTER_HEALTH_H
#define CPURNG_JITTER_HEALTH_H

#include "types.h"
#include "jitter_noise.h"

/*
 * Oversampling rate bounds.  The claimed min-entropy per sample is
 * H = 1 / osr bits (SP800-90B 4.4: the health tests are parameterised by the
 * entropy the submitter claims).  Above 8 the APT cutoff for a permanent
 * failure exceeds the window of 512 samples and that test could never fire,
 * so larger rates would silently weaken the health tests.
 */
#define CPURNG_OSR_MIN		1
#define CPURNG_OSR_MAX		8

/* SP800-90B 4.4.2: window size W for non-binary noise sources. */
#define CPURNG_APT_WINDOW	512

/*
 * SP800-90B 4.3 (1): the start-up tests run over at least 1024 consecutive
 * samples before any output is produced.
 */
#define CPURNG_STARTUP_SAMPLES	1024

/**
 * enum cpurng_health_verdict - what one sample did to the health state
 * @CPURNG_HEALTH_OK: the sample passed and carries entropy credit
 * @CPURNG_HEALTH_STUCK: the sample passed but carries no credit (it, or its
 *	first or second difference from the previous samples, is zero)
 * @CPURNG_HEALTH_INTERMITTENT: a test crossed its cutoff for a false-positive
 *	rate of 2^-30; the caller discards what it was assembling
 * @CPURNG_HEALTH_PERMANENT: a test crossed its cutoff for 2^-60, or the
 *	instance already failed permanently; only a reset clears it
 */
enum cpurng_health_verdict {
	CPURNG_HEALTH_OK,
	CPURNG_HEALTH_STUCK,
	CPURNG_HEALTH_INTERMITTENT,
	CPURNG_HEALTH_PERMANENT,
};

/**
 * enum cpurng_health_test - which test produced a failure
 * @CPURNG_TEST_NONE: no failure
 * @CPURNG_TEST_RCT: repetition count test (SP800-90B 4.4.1)
 * @CPURNG_TEST_APT: adaptive proportion test (SP800-90B 4.4.2)
 * @CPURNG_TEST_STUCK: run of stuck samples, judged with the RCT cutoffs
 * @CPURNG_TEST_COUNT: number of tests
 */
enum cpurng_health_test {
	CPURNG_TEST_NONE,
	CPURNG_TEST_RCT,
	CPURNG_TEST_APT,
	CPURNG_TEST_STUCK,
	CPURNG_TEST_COUNT,
};

/**
 * struct cpurng_health - health test state of one noise source instance
 * @rct_cutoff: RCT cutoffs, [0] intermittent and [1] permanent
 * @apt_cutoff: APT cutoffs, [0] intermittent and [1] permanent
 * @rct_value: value of the current run
 * @rct_count: length of the current run (B in SP800-90B 4.4.1)
 * @apt_base: first sample of the current window (A in SP800-90B 4.4.2)
 * @apt_count: occurrences of @apt_base in the window (B in 4.4.2)
 * @apt_pos: position in the current window
 * @prev_delta: previous sample, for the stuck test
 * @prev_diff: previous first difference, for the stuck test
 * @history: samples seen since reset, capped at 2 (stuck test priming)
 * @stuck_run: stuck samples since the last credited one, repeats excluded
 * @failed: test that failed permanently, or CPURNG_TEST_NONE
 * @last_failure: test behind the most recent failure of either kind
 * @samples: samples judged since reset
 * @stuck: stuck samples since reset
 * @intermittent: intermittent failures per test since reset
 * @permanent: permanent failures per test since reset
 */
struct cpurng_health {
	u32 rct_cutoff[2];
	u32 apt_cutoff[2];
	u64 rct_value;
	u32 rct_count;
	u64 apt_base;
	u32 apt_count;
	u32 apt_pos;
	u64 prev_delta;
	u64 prev_diff;
	u32 history;
	u32 stuck_run;
	enum cpurng_health_test failed;
	enum cpurng_health_test last_failure;
	u64 samples;
	u64 stuck;
	u32 intermittent[CPURNG_TEST_COUNT];
	u32 permanent[CPURNG_TEST_COUNT];
};

/**
 * cpurng_rct_cutoff() - SP800-90B 4.4.1 repetition count cutoff
 * @osr: oversampling rate, CPURNG_OSR_MIN..CPURNG_OSR_MAX
 * @log2_alpha: -log2 of the false-positive rate (30 or 60)
 *
 * C = 1 + ceil(-log2(alpha) / H) with H = 1 / osr, which is exact in
 * integers.
 *
 * Return: the cutoff C; a run of C identical samples fails the test.
 */
static inline u32 cpurng_rct_cutoff(u32 osr, u32 log2_alpha)
{
	return 1 + log2_alpha * osr;
}

/**
 * cpurng_apt_cutoff() - SP800-90B 4.4.2 adaptive proportion cutoff
 * @osr: oversampling rate, CPURNG_OSR_MIN..CPURNG_OSR_MAX
 * @permanent: false for alpha = 2^-30, true for alpha = 2^-60
 *
 * Return: C = 1 + CRITBINOM(512, 2^-H, 1 - alpha) with H = 1 / osr, or 0
 * for an @osr out of range.
 */
u32 cpurng_apt_cutoff(u32 osr, bool permanent);

/**
 * cpurng_health_init() - reset the health state and set the cutoffs
 * @h: health state
 * @osr: oversampling rate
 *
 * Return: 0, or -1 if @osr is out of range (the state is then untouched).
 */
int cpurng_health_init(struct cpurng_health *h, u32 osr);

/**
 * cpurng_health_feed() - judge one raw sample
 * @h: health state
 * @delta: the raw sample (struct cpurng_noise_sample.delta)
 *
 * Return: the verdict; on a failure @h->last_failure names the test.
 */
enum cpurng_health_verdict cpurng_health_feed(struct cpurng_health *h,
					      u64 delta);

/**
 * enum cpurng_startup_error - why the start-up test refused the noise source
 * @CPURNG_STARTUP_OK: passed
 * @CPURNG_STARTUP_NOTIME: the timer never advanced during the whole test
 * @CPURNG_STARTUP_COARSE: the timer too often could not resolve one sample
 * @CPURNG_STARTUP_NONMONOTONIC: the timer went backwards too often
 * @CPURNG_STARTUP_RCT: repetition count test failed
 * @CPURNG_STARTUP_APT: adaptive proportion test failed
 * @CPURNG_STARTUP_STUCK: too many stuck samples, or a long run of them
 */
enum cpurng_startup_error {
	CPURNG_STARTUP_OK,
	CPURNG_STARTUP_NOTIME,
	CPURNG_STARTUP_COARSE,
	CPURNG_STARTUP_NONMONOTONIC,
	CPURNG_STARTUP_RCT,
	CPURNG_STARTUP_APT,
	CPURNG_STARTUP_STUCK,
};

/**
 * typedef cpurng_sampler_fn - produce one raw sample for the start-up test
 * @ctx: caller's context
 * @s: receives the sample
 */
typedef void (*cpurng_sampler_fn)(void *ctx, struct cpurng_noise_sample *s);

/**
 * cpurng_health_startup() - SP800-90B 4.3 start-up test
 * @h: health state, already initialised; the continuous tests carry on from
 *	the state it is left in
 * @sample: sampler
 * @ctx: passed to @sample
 *
 * Runs CPURNG_STARTUP_SAMPLES samples through the continuous tests and
 * checks that the timer resolves the workloads.  Any failure of a
 * continuous test, intermittent or permanent, fails the start-up test.  The
 * samples are not meant for output.
 *
 * Return: CPURNG_STARTUP_OK or the reason for refusing the source.
 */
enum cpurng_startup_error cpurng_health_startup(struct cpurng_health *h,
						cpurng_sampler_fn sample,
						void *ctx);

/**
 * cpurng_startup_reason() - human-readable reason for a start-up failure
 * @err: start-up result
 *
 * Return: a static string.
 */
const char *cpurng_startup_reason(enum cpurng_startup_error err);

/**
 * cpurng_health_test_name() - short name of a health test
 * @test: test
 *
 * Return: "RCT", "APT", "stuck" or "none".
 */
const char *cpurng_health_test_name(enum cpurng_health_test test);

#endif /* CPURNG_JITTER_HEALTH_H */
