// SPDX-License-Identifier: GPL-2.0
/*
 * SP800-90B health tests for the CPU Jitter RNG noise source.
 *
 * The tests judge the raw time delta of each sample, before any conditioning.
 * Two cutoffs are kept for each test: crossing the one for a false-positive
 * rate of 2^-30 is an intermittent failure (the output being assembled is
 * discarded and the instance carries on), crossing the one for 2^-60 is a
 * permanent failure (the instance is dead until reset).  SP800-90B 4.4 asks
 * for a rate between 2^-20 and 2^-40 for the tests that gate output; the
 * second, much stricter cutoff only decides when a failure is beyond doubt.
 * Counters are not reset by an intermittent failure, so a source that keeps
 * failing moves on to the permanent cutoff.
 */
#include "../include/cpurng/jitter_health.h"

/* SP800-90B 4.4: -log2(alpha) for the intermittent and permanent cutoffs. */
#define CPURNG_LOG2_ALPHA_INTERMITTENT	30
#define CPURNG_LOG2_ALPHA_PERMANENT	60

/*
 * SP800-90B 4.4.2: C = 1 + CRITBINOM(W, 2^-H, 1 - alpha) for W = 512 and
 * H = 1 / osr, indexed by osr - 1.  Computed with 80-digit decimal
 * arithmetic; tests/host/test_jitter_health.c recomputes every entry
 * independently.  For osr = 1 the values equal the constants of the
 * kernel's own jitterentropy (325 and 355).
 */
static const u32 cpurng_apt_cutoffs[CPURNG_OSR_MAX][2] = {
	{ 325, 355 }, { 422, 447 }, { 458, 479 }, { 477, 494 },
	{ 487, 502 }, { 494, 507 }, { 499, 510 }, { 502, 512 },
};

/*
 * Start-up test limits (SP800-90B 4.3 leaves the checks beyond the
 * continuous tests to the designer).  A fine timer resolves every sample,
 * so a zero or negative delta means the timer is coarse or unstable; a few
 * are tolerated (1 in 64) for timers that are read through a slower path
 * now and then.  A source whose samples are nearly all stuck (nine in ten)
 * cannot fill an output block in reasonable time.
 */
#define CPURNG_STARTUP_BAD_DELTA_MAX	(CPURNG_STARTUP_SAMPLES / 64)
#define CPURNG_STARTUP_STUCK_MAX	(CPURNG_STARTUP_SAMPLES * 9 / 10)

u32 cpurng_apt_cutoff(u32 osr, bool permanent)
{
	if (osr < CPURNG_OSR_MIN || osr > CPURNG_OSR_MAX)
		return 0;
	return cpurng_apt_cutoffs[osr - 1][permanent ? 1 : 0];
}

int cpurng_health_init(struct cpurng_health *h, u32 osr)
{
	struct cpurng_health fresh = { 0 };

	if (osr < CPURNG_OSR_MIN || osr > CPURNG_OSR_MAX)
		return -1;

	fresh.rct_cutoff[0] =
		cpurng_rct_cutoff(osr, CPURNG_LOG2_ALPHA_INTERMITTENT);
	fresh.rct_cutoff[1] =
		cpurng_rct_cutoff(osr, CPURNG_LOG2_ALPHA_PERMANENT);
	fresh.apt_cutoff[0] = cpurng_apt_cutoff(osr, false);
	fresh.apt_cutoff[1] = cpurng_apt_cutoff(osr, true);
	*h = fresh;
	return 0;
}

/*
 * Compare a count with a pair of cutoffs.  The intermittent failure is
 * reported once, when the count reaches its cutoff; the permanent one as
 * soon as the count reaches the second cutoff.
 */
static enum cpurng_health_verdict cpurng_health_judge(struct cpurng_health *h,
						      enum cpurng_health_test t,
						      u32 count,
						      const u32 cutoff[2])
{
	if (count >= cutoff[1]) {
		h->failed = t;
		h->last_failure = t;
		h->permanent[t]++;
		return CPURNG_HEALTH_PERMANENT;
	}
	if (count == cutoff[0]) {
		h->last_failure = t;
		h->intermittent[t]++;
		return CPURNG_HEALTH_INTERMITTENT;
	}
	return CPURNG_HEALTH_OK;
}

/* SP800-90B 4.4.1 repetition count test. */
static enum cpurng_health_verdict cpurng_rct(struct cpurng_health *h,
					     u64 delta)
{
	if (h->rct_count && delta == h->rct_value) {
		h->rct_count++;
		return cpurng_health_judge(h, CPURNG_TEST_RCT, h->rct_count,
					   h->rct_cutoff);
	}
	h->rct_value = delta;
	h->rct_count = 1;
	return CPURNG_HEALTH_OK;
}

/* SP800-90B 4.4.2 adaptive proportion test. */
static enum cpurng_health_verdict cpurng_apt(struct cpurng_health *h,
					     u64 delta)
{
	enum cpurng_health_verdict v = CPURNG_HEALTH_OK;

	if (h->apt_pos == 0) {
		h->apt_base = delta;
		h->apt_count = 1;
	} else if (delta == h->apt_base) {
		h->apt_count++;
		v = cpurng_health_judge(h, CPURNG_TEST_APT, h->apt_count,
					h->apt_cutoff);
	}
	if (++h->apt_pos == CPURNG_APT_WINDOW)
		h->apt_pos = 0;
	return v;
}

/*
 * Stuck test: a sample whose value, first difference or second difference
 * is zero is likely the product of a regular pattern (a coarse timer, a
 * timer that advances in constant steps) rather than of jitter.  It is kept
 * but not credited.  A run of stuck samples is judged with the RCT cutoffs:
 * without that, a timer whose deltas grow in constant steps would pass the
 * RCT and APT while never producing a credited sample.
 */
static bool cpurng_stuck(struct cpurng_health *h, u64 delta)
{
	u64 diff = delta - h->prev_delta;
	u64 diff2 = diff - h->prev_diff;
	bool primed = h->history >= 2;

	h->prev_delta = delta;
	h->prev_diff = diff;
	if (!primed)
		h->history++;

	return !primed || !delta || !diff || !diff2;
}

static enum cpurng_health_verdict cpurng_worst(enum cpurng_health_verdict a,
					       enum cpurng_health_verdict b)
{
	return a > b ? a : b;
}

enum cpurng_health_verdict cpurng_health_feed(struct cpurng_health *h,
					      u64 delta)
{
	enum cpurng_health_verdict v;
	bool stuck;

	if (h->failed != CPURNG_TEST_NONE)
		return CPURNG_HEALTH_PERMANENT;

	h->samples++;
	stuck = cpurng_stuck(h, delta);
	v = cpurng_worst(cpurng_rct(h, delta), cpurng_apt(h, delta));
	if (!stuck) {
		h->stuck_run = 0;
		return v;
	}

	h->stuck++;
	/*
	 * A repeated sample is stuck as well, but runs of repeats belong to
	 * the RCT; counting them here too would report one fault twice.
	 */
	if (h->rct_count == 1) {
		h->stuck_run++;
		v = cpurng_worst(v, cpurng_health_judge(h, CPURNG_TEST_STUCK,
							h->stuck_run,
							h->rct_cutoff));
	}
	return v == CPURNG_HEALTH_OK ? CPURNG_HEALTH_STUCK : v;
}

enum cpurng_startup_error cpurng_health_startup(struct cpurng_health *h,
						cpurng_sampler_fn sample,
						void *ctx)
{
	enum cpurng_health_test first_failure = CPURNG_TEST_NONE;
	u32 zero = 0, backwards = 0, stuck = 0, i;
	struct cpurng_noise_sample s;

	for (i = 0; i < CPURNG_STARTUP_SAMPLES; i++) {
		enum cpurng_health_verdict v;

		sample(ctx, &s);
		if (!s.delta)
			zero++;
		else if ((s64)s.delta < 0)
			backwards++;

		v = cpurng_health_feed(h, s.delta);
		if (v == CPURNG_HEALTH_STUCK)
			stuck++;
		else if (v >= CPURNG_HEALTH_INTERMITTENT &&
			 first_failure == CPURNG_TEST_NONE)
			first_failure = h->last_failure;
	}

	/* Report the most basic cause first: timer, then statistics. */
	if (zero == CPURNG_STARTUP_SAMPLES)
		return CPURNG_STARTUP_NOTIME;
	if (zero > CPURNG_STARTUP_BAD_DELTA_MAX)
		return CPURNG_STARTUP_COARSE;
	if (backwards > CPURNG_STARTUP_BAD_DELTA_MAX)
		return CPURNG_STARTUP_NONMONOTONIC;
	switch (first_failure) {
	case CPURNG_TEST_RCT:
		return CPURNG_STARTUP_RCT;
	case CPURNG_TEST_APT:
		return CPURNG_STARTUP_APT;
	case CPURNG_TEST_STUCK:
		return CPURNG_STARTUP_STUCK;
	default:
		break;
	}
	if (stuck > CPURNG_STARTUP_STUCK_MAX)
		return CPURNG_STARTUP_STUCK;
	return CPURNG_STARTUP_OK;
}

const char *cpurng_startup_reason(enum cpurng_startup_error err)
{
	switch (err) {
	case CPURNG_STARTUP_OK:
		return "passed";
	case CPURNG_STARTUP_NOTIME:
		return "timer did not advance during the test (absent, or too coarse)";
	case CPURNG_STARTUP_COARSE:
		return "timer too coarse to resolve one sample";
	case CPURNG_STARTUP_NONMONOTONIC:
		return "timer is not monotonic";
	case CPURNG_STARTUP_RCT:
		return "repetition count test failed (timer deltas repeat)";
	case CPURNG_STARTUP_APT:
		return "adaptive proportion test failed (one delta dominates)";
	case CPURNG_STARTUP_STUCK:
		return "too many stuck samples (deltas follow a regular pattern)";
	}
	return "unknown";
}

const char *cpurng_health_test_name(enum cpurng_health_test test)
{
	switch (test) {
	case CPURNG_TEST_RCT:
		return "RCT";
	case CPURNG_TEST_APT:
		return "APT";
	case CPURNG_TEST_STUCK:
		return "stuck";
	default:
		return "none";
	}
}
