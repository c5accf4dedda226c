// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for the CPU Jitter RNG's SP800-90B health tests
 * (crypto/jitter_health.c): the repetition count test (4.4.1), the
 * adaptive proportion test (4.4.2), the stuck test and the start-up test
 * (4.3), driven with chosen sample sequences so that each cutoff is hit
 * exactly, one sample early and one sample late.
 *
 * The file under test is kernel-agnostic and has no module state, so it is
 * compiled into this module rather than exported from cpurng_jitter.
 * The cutoffs expected here are written from the SP800-90B formulas, not
 * read back from the code: C = 1 + ceil(-log2(alpha) / H) for the RCT with
 * H = 1 / osr, and for osr 1 the APT constants of the kernel's own
 * jitterentropy (325 and 355); tests/host/test_jitter_health.c recomputes
 * the whole APT table from the binomial distribution.
 */
#include <kunit/test.h>
#include <linux/module.h>
#include <linux/string.h>

#include "../../crypto/jitter_health.c"

/* SP800-90B 4.4.2: the window size W for non-binary sources. */
#define T_APT_WINDOW			512U
/* SP800-90B 4.4: -log2(alpha) of the intermittent and permanent cutoffs. */
#define T_LOG2_ALPHA_INTERMITTENT	30
#define T_LOG2_ALPHA_PERMANENT		60

/* Samples that pass every test: a xorshift64 walk over 4096 values. */
struct good_stream {
	u64 x;
};

static u64 good_next(struct good_stream *g)
{
	g->x ^= g->x << 13;
	g->x ^= g->x >> 7;
	g->x ^= g->x << 17;
	return 100000 + (g->x & 4095);
}

static u32 rct_cutoff(u32 osr, u32 log2_alpha)
{
	return 1 + log2_alpha * osr;
}

static const u32 osrs[] = { 1, 2, 3, 4, 5, 6, 7, 8 };

static void osr_desc(const u32 *osr, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "osr %u", *osr);
}

KUNIT_ARRAY_PARAM(osr, osrs, osr_desc);

static u32 param_osr(struct kunit *test)
{
	return *(const u32 *)test->param_value;
}

static void health_osr_out_of_range_refused(struct kunit *test)
{
	struct cpurng_health h, before;

	memset(&h, 0xa5, sizeof(h));
	before = h;
	KUNIT_EXPECT_EQ(test, cpurng_health_init(&h, 0), -1);
	KUNIT_EXPECT_EQ(test, cpurng_health_init(&h, CPURNG_OSR_MAX + 1), -1);
	KUNIT_EXPECT_EQ(test, memcmp(&h, &before, sizeof(h)), 0);
	KUNIT_EXPECT_EQ(test, cpurng_apt_cutoff(0, false), 0U);
	KUNIT_EXPECT_EQ(test, cpurng_apt_cutoff(CPURNG_OSR_MAX + 1, true), 0U);
}

static void health_cutoffs_follow_sp800_90b(struct kunit *test)
{
	u32 osr = param_osr(test);
	struct cpurng_health h;

	KUNIT_ASSERT_EQ(test, cpurng_health_init(&h, osr), 0);
	KUNIT_EXPECT_EQ(test, h.rct_cutoff[0],
			rct_cutoff(osr, T_LOG2_ALPHA_INTERMITTENT));
	KUNIT_EXPECT_EQ(test, h.rct_cutoff[1],
			rct_cutoff(osr, T_LOG2_ALPHA_PERMANENT));
	/* A cutoff above the window could never fire. */
	KUNIT_EXPECT_LT(test, h.apt_cutoff[0], h.apt_cutoff[1]);
	KUNIT_EXPECT_LE(test, h.apt_cutoff[1], T_APT_WINDOW);
	/* More oversampling claims less entropy: the cutoffs only rise. */
	if (osr > 1) {
		KUNIT_EXPECT_GT(test, h.apt_cutoff[0],
				cpurng_apt_cutoff(osr - 1, false));
		KUNIT_EXPECT_GT(test, h.apt_cutoff[1],
				cpurng_apt_cutoff(osr - 1, true));
	} else {
		KUNIT_EXPECT_EQ(test, h.apt_cutoff[0], 325U);
		KUNIT_EXPECT_EQ(test, h.apt_cutoff[1], 355U);
	}
}

/* Feed @n good samples; none may fail. */
static void feed_good(struct kunit *test, struct cpurng_health *h,
		      struct good_stream *g, u32 n)
{
	while (n--)
		KUNIT_ASSERT_LT(test, cpurng_health_feed(h, good_next(g)),
				CPURNG_HEALTH_INTERMITTENT);
}

static void health_rct_fires_at_its_cutoffs(struct kunit *test)
{
	u32 osr = param_osr(test), run;
	u32 c0 = rct_cutoff(osr, T_LOG2_ALPHA_INTERMITTENT);
	u32 c1 = rct_cutoff(osr, T_LOG2_ALPHA_PERMANENT);
	struct good_stream g = { 0x9e3779b97f4a7c15ULL };
	struct cpurng_health h;
	enum cpurng_health_verdict v;

	KUNIT_ASSERT_EQ(test, cpurng_health_init(&h, osr), 0);
	/* The APT window's base is one of these, never the repeated value. */
	feed_good(test, &h, &g, 3);
	KUNIT_ASSERT_LT(test, cpurng_health_feed(&h, 7), CPURNG_HEALTH_INTERMITTENT);
	for (run = 2; run <= c1; run++) {
		v = cpurng_health_feed(&h, 7);
		if (run == c0) {
			KUNIT_EXPECT_EQ(test, v, CPURNG_HEALTH_INTERMITTENT);
			KUNIT_EXPECT_EQ(test, h.last_failure, CPURNG_TEST_RCT);
		} else if (run == c1) {
			KUNIT_EXPECT_EQ(test, v, CPURNG_HEALTH_PERMANENT);
			KUNIT_EXPECT_EQ(test, h.failed, CPURNG_TEST_RCT);
		} else {
			/* a repeat is stuck, not credited, and not a failure */
			KUNIT_EXPECT_EQ(test, v, CPURNG_HEALTH_STUCK);
		}
		if (test->status == KUNIT_FAILURE) {
			kunit_info(test, "run of %u: verdict %d\n", run, v);
			return;
		}
	}
	KUNIT_EXPECT_EQ(test, h.intermittent[CPURNG_TEST_RCT], 1U);
	KUNIT_EXPECT_EQ(test, h.permanent[CPURNG_TEST_RCT], 1U);
	KUNIT_EXPECT_EQ(test, h.intermittent[CPURNG_TEST_APT], 0U);
}

/*
 * Within one window, the base value recurs in runs of @run separated by
 * distinct values: a run never reaches the RCT cutoff, and no sample is
 * stuck except the repeats, which the stuck test leaves to the RCT.
 * Returns the verdict of the sample that made the base's count @count
 * (-1 if the window ended first); *@before is the worst verdict of the
 * samples before it.
 */
static int apt_window_fed(struct cpurng_health *h, u64 base, u32 run,
			  u32 count, u64 *other,
			  enum cpurng_health_verdict *before, u32 *fed)
{
	enum cpurng_health_verdict v;
	u32 pos, seen = 0;

	*before = CPURNG_HEALTH_OK;
	for (pos = 0; pos < T_APT_WINDOW; pos++) {
		bool is_base = pos % (run + 1) != run;

		v = cpurng_health_feed(h, is_base ? base : (*other += 977));
		if (is_base && ++seen == count) {
			*fed = pos + 1;
			return v;
		}
		*before = max(*before, v);
	}
	*fed = pos;
	return -1;
}

static int apt_window(struct cpurng_health *h, u64 base, u32 run, u32 count,
		      u64 *other, enum cpurng_health_verdict *before)
{
	u32 fed;

	return apt_window_fed(h, base, run, count, other, before, &fed);
}

static void health_apt_fires_at_its_cutoffs(struct kunit *test)
{
	u32 osr = param_osr(test);
	u32 run = rct_cutoff(osr, T_LOG2_ALPHA_INTERMITTENT) - 1;
	enum cpurng_health_verdict before;
	u64 other = 1000000;
	struct cpurng_health h;
	u32 c0, c1, reach;

	KUNIT_ASSERT_EQ(test, cpurng_health_init(&h, osr), 0);
	c0 = h.apt_cutoff[0];
	c1 = h.apt_cutoff[1];
	/* one short of the cutoff in a window: no failure */
	KUNIT_EXPECT_GE(test, apt_window(&h, 5, run, c0 - 1, &other, &before),
			(int)CPURNG_HEALTH_OK);
	KUNIT_EXPECT_EQ(test, h.intermittent[CPURNG_TEST_APT], 0U);
	KUNIT_EXPECT_LT(test, before, CPURNG_HEALTH_INTERMITTENT);
	KUNIT_ASSERT_EQ(test, cpurng_health_init(&h, osr), 0);
	KUNIT_EXPECT_EQ(test, apt_window(&h, 5, run, c0, &other, &before),
			(int)CPURNG_HEALTH_INTERMITTENT);
	KUNIT_EXPECT_LT(test, before, CPURNG_HEALTH_INTERMITTENT);
	KUNIT_EXPECT_EQ(test, h.last_failure, CPURNG_TEST_APT);
	/* How often the base fits in a window with these runs. */
	reach = T_APT_WINDOW - T_APT_WINDOW / (run + 1);
	if (c1 > reach)
		return;	/* osr 8: only a window of one value reaches 512 */
	KUNIT_ASSERT_EQ(test, cpurng_health_init(&h, osr), 0);
	apt_window(&h, 5, run, c1 - 1, &other, &before);
	KUNIT_EXPECT_EQ(test, h.failed, CPURNG_TEST_NONE);
	KUNIT_EXPECT_EQ(test, h.intermittent[CPURNG_TEST_APT], 1U);
	KUNIT_ASSERT_EQ(test, cpurng_health_init(&h, osr), 0);
	KUNIT_EXPECT_EQ(test, apt_window(&h, 5, run, c1, &other, &before),
			(int)CPURNG_HEALTH_PERMANENT);
	KUNIT_EXPECT_EQ(test, h.failed, CPURNG_TEST_APT);
}

/* The count starts again with each window of 512 samples (4.4.2). */
static void health_apt_window_restarts(struct kunit *test)
{
	struct good_stream g = { 0x243f6a8885a308d3ULL };
	enum cpurng_health_verdict before;
	struct cpurng_health h;
	u64 other = 1000000;
	u32 run = 30, c0, fed;

	KUNIT_ASSERT_EQ(test, cpurng_health_init(&h, 1), 0);
	c0 = h.apt_cutoff[0];
	/* c0 - 1 in the first window, then fill it with good samples */
	apt_window_fed(&h, 5, run, c0 - 1, &other, &before, &fed);
	KUNIT_ASSERT_LT(test, before, CPURNG_HEALTH_INTERMITTENT);
	for (; fed < T_APT_WINDOW; fed++)
		KUNIT_ASSERT_LT(test, cpurng_health_feed(&h, good_next(&g)),
				CPURNG_HEALTH_INTERMITTENT);
	/* a window is exactly 512 samples */
	KUNIT_EXPECT_EQ(test, h.apt_pos, 0U);
	/* the same base first in the next window: its count starts at 1 */
	KUNIT_EXPECT_GE(test, apt_window(&h, 5, run, c0 - 1, &other, &before),
			(int)CPURNG_HEALTH_OK);
	KUNIT_EXPECT_EQ(test, h.intermittent[CPURNG_TEST_APT], 0U);
	KUNIT_EXPECT_EQ(test, h.intermittent[CPURNG_TEST_RCT], 0U);
}

/* A timer that advances in constant steps: every sample is stuck. */
static void health_stuck_run_fails_like_the_rct(struct kunit *test)
{
	u32 c0 = rct_cutoff(6, T_LOG2_ALPHA_INTERMITTENT), i;
	struct good_stream g = { 0x0123456789abcdefULL };
	enum cpurng_health_verdict v;
	struct cpurng_health h;

	KUNIT_ASSERT_EQ(test, cpurng_health_init(&h, 6), 0);
	for (i = 1; i < c0; i++)
		KUNIT_ASSERT_EQ(test, cpurng_health_feed(&h, 1000 + 7 * i),
				CPURNG_HEALTH_STUCK);
	/* one credited sample ends the run */
	feed_good(test, &h, &g, 3);
	KUNIT_EXPECT_EQ(test, h.stuck_run, 0U);
	/* a new ramp: stuck from its third sample, when diff2 becomes 0 */
	for (i = 1; h.stuck_run < c0 - 1; i++) {
		KUNIT_ASSERT_LT(test, cpurng_health_feed(&h, 500000 + 11 * i),
				CPURNG_HEALTH_INTERMITTENT);
		KUNIT_ASSERT_LT(test, i, 2 * c0);
	}
	KUNIT_EXPECT_EQ(test, i, c0 + 2);
	v = cpurng_health_feed(&h, 500000 + 11 * i);
	KUNIT_EXPECT_EQ(test, h.stuck_run, c0);
	KUNIT_EXPECT_EQ(test, v, CPURNG_HEALTH_INTERMITTENT);
	KUNIT_EXPECT_EQ(test, h.last_failure, CPURNG_TEST_STUCK);
}

static void health_permanent_failure_sticks_until_init(struct kunit *test)
{
	struct good_stream g = { 42 };
	struct cpurng_health h;
	u32 i;

	KUNIT_ASSERT_EQ(test, cpurng_health_init(&h, 1), 0);
	for (i = 0; i < rct_cutoff(1, T_LOG2_ALPHA_PERMANENT); i++)
		cpurng_health_feed(&h, 9);
	KUNIT_ASSERT_EQ(test, h.failed, CPURNG_TEST_RCT);
	for (i = 0; i < 2 * T_APT_WINDOW; i++)
		KUNIT_ASSERT_EQ(test, cpurng_health_feed(&h, good_next(&g)),
				CPURNG_HEALTH_PERMANENT);
	KUNIT_ASSERT_EQ(test, cpurng_health_init(&h, 1), 0);
	feed_good(test, &h, &g, 2 * T_APT_WINDOW);
}

enum sampler_kind { S_GOOD, S_ZERO, S_CONSTANT, S_BACKWARDS, S_COARSE,
		    S_RAMP };

struct sampler {
	enum sampler_kind kind;
	struct good_stream g;
	u32 n;
};

static void sample(void *ctx, struct cpurng_noise_sample *s)
{
	struct sampler *sm = ctx;
	u64 d = good_next(&sm->g);

	sm->n++;
	memset(s, 0, sizeof(*s));
	switch (sm->kind) {
	case S_GOOD:
		s->delta = d;
		break;
	case S_ZERO:
		s->delta = 0;
		break;
	case S_CONSTANT:
		s->delta = 3000;
		break;
	case S_BACKWARDS:
		s->delta = -d;
		break;
	case S_COARSE:	/* one sample in 32 unresolved: above 1 in 64 */
		s->delta = sm->n % 32 ? d : 0;
		break;
	case S_RAMP:
		s->delta = 1000 + 5 * sm->n;
		break;
	}
}

static enum cpurng_startup_error startup(enum sampler_kind kind)
{
	struct sampler sm = { .kind = kind, .g = { 0xfeedfacecafebeefULL } };
	struct cpurng_health h;

	if (cpurng_health_init(&h, 6))
		return -1;
	return cpurng_health_startup(&h, sample, &sm);
}

static void health_startup_verdicts(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, startup(S_GOOD), CPURNG_STARTUP_OK);
	KUNIT_EXPECT_EQ(test, startup(S_ZERO), CPURNG_STARTUP_NOTIME);
	KUNIT_EXPECT_EQ(test, startup(S_CONSTANT), CPURNG_STARTUP_RCT);
	KUNIT_EXPECT_EQ(test, startup(S_BACKWARDS), CPURNG_STARTUP_NONMONOTONIC);
	KUNIT_EXPECT_EQ(test, startup(S_COARSE), CPURNG_STARTUP_COARSE);
	KUNIT_EXPECT_EQ(test, startup(S_RAMP), CPURNG_STARTUP_STUCK);
}

/* SP800-90B 4.3 (1): the start-up test judges 1024 samples, no fewer. */
static void health_startup_judges_1024_samples(struct kunit *test)
{
	struct sampler sm = { .kind = S_GOOD, .g = { 7 } };
	struct cpurng_health h;

	KUNIT_ASSERT_EQ(test, cpurng_health_init(&h, 6), 0);
	KUNIT_EXPECT_EQ(test, cpurng_health_startup(&h, sample, &sm),
			CPURNG_STARTUP_OK);
	KUNIT_EXPECT_EQ(test, sm.n, 1024U);
	KUNIT_EXPECT_EQ(test, h.samples, 1024ULL);
}

static struct kunit_case cpurng_jitter_health_cases[] = {
	KUNIT_CASE(health_osr_out_of_range_refused),
	KUNIT_CASE_PARAM(health_cutoffs_follow_sp800_90b, osr_gen_params),
	KUNIT_CASE_PARAM(health_rct_fires_at_its_cutoffs, osr_gen_params),
	KUNIT_CASE_PARAM(health_apt_fires_at_its_cutoffs, osr_gen_params),
	KUNIT_CASE(health_apt_window_restarts),
	KUNIT_CASE(health_stuck_run_fails_like_the_rct),
	KUNIT_CASE(health_permanent_failure_sticks_until_init),
	KUNIT_CASE(health_startup_verdicts),
	KUNIT_CASE(health_startup_judges_1024_samples),
	{}
};

static struct kunit_suite cpurng_jitter_health_suite = {
	.name = "cpurng_jitter_health",
	.test_cases = cpurng_jitter_health_cases,
};

kunit_test_suite(cpurng_jitter_health_suite);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit tests for the cpurng jitter RNG's SP800-90B health tests");
