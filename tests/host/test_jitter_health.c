// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests of the jitter RNG noise core and SP800-90B health tests,
 * compiled from the same sources as the kernel module, with a fake timer.
 */
#include <math.h>
#include <string.h>

#include "ksft_report.h"
#include "fake_timer.h"
#include "../../include/cpurng/jitter_health.h"

#define TEST_OSR_DEFAULT	3

static unsigned char test_mem[4096];

static struct cpurng_noise test_noise = {
	.mem = test_mem,
	.mem_mask = sizeof(test_mem) - 1,
	.mem_loops = 16,
	.fold_loops = 1,
	.paths = CPURNG_NOISE_ALL,
};

static void test_sampler(void *ctx, struct cpurng_noise_sample *s)
{
	cpurng_noise_measure(ctx, s);
}

static enum cpurng_startup_error startup_with(fake_delta_fn gen, u32 osr)
{
	struct cpurng_health h;

	fake_timer_set(gen);
	if (cpurng_health_init(&h, osr))
		return -1;
	return cpurng_health_startup(&h, test_sampler, &test_noise);
}

/*
 * Feed samples until the first failure; report its kind, test and the
 * sample number (1-based) at which it happened.
 */
struct first_failure {
	enum cpurng_health_verdict verdict;
	enum cpurng_health_test test;
	u64 at;
};

static struct first_failure feed_until(struct cpurng_health *h,
				       fake_delta_fn gen, u64 max,
				       enum cpurng_health_verdict want)
{
	struct first_failure f = { CPURNG_HEALTH_OK, CPURNG_TEST_NONE, 0 };
	struct cpurng_noise_sample s;
	u64 i;

	for (i = 1; i <= max; i++) {
		enum cpurng_health_verdict v;

		cpurng_noise_measure(&test_noise, &s);
		v = cpurng_health_feed(h, s.delta);
		if (v >= want) {
			f.verdict = v;
			f.test = h->last_failure;
			f.at = i;
			break;
		}
	}
	(void)gen;
	return f;
}

/*
 * CRITBINOM(n, p, 1 - alpha) computed independently of the table: the
 * smallest k whose upper tail P(X > k) is at most alpha, summed in log space
 * with long double so that alpha = 2^-60 is resolved.
 */
static unsigned int critbinom_tail(unsigned int n, long double p,
				   long double log_alpha)
{
	long double tail = 0, logp = logl(p), logq = log1pl(-p);
	int k;

	for (k = n; k >= 0; k--) {
		long double logpmf = lgammal(n + 1) - lgammal(k + 1) -
				     lgammal(n - k + 1) + k * logp +
				     (n - k) * logq;

		/* tail now holds P(X > k); stop when adding pmf(k) passes alpha */
		if (logl(tail + expl(logpmf)) > log_alpha)
			return k;
		tail += expl(logpmf);
	}
	return 0;
}

static void test_apt_cutoffs(void)
{
	int ok = 1;
	u32 osr;

	for (osr = CPURNG_OSR_MIN; osr <= CPURNG_OSR_MAX; osr++) {
		long double p = powl(2.0L, -1.0L / osr);
		u32 c30 = 1 + critbinom_tail(CPURNG_APT_WINDOW, p,
					     -30 * logl(2.0L));
		u32 c60 = 1 + critbinom_tail(CPURNG_APT_WINDOW, p,
					     -60 * logl(2.0L));

		if (c30 != cpurng_apt_cutoff(osr, false) ||
		    c60 != cpurng_apt_cutoff(osr, true)) {
			report_diag("osr %u: formula %u/%u, table %u/%u", osr,
				    c30, c60, cpurng_apt_cutoff(osr, false),
				    cpurng_apt_cutoff(osr, true));
			ok = 0;
		}
	}
	report_check(ok, "apt_cutoffs_match_sp800_90b_critbinom");
}

static void test_rct_cutoffs(void)
{
	int ok = 1;
	u32 osr;

	for (osr = CPURNG_OSR_MIN; osr <= CPURNG_OSR_MAX; osr++) {
		double h = 1.0 / osr;

		/* ceil() of an exact quotient: shave rounding noise first */
		const double eps = 1.0 / (1 << 30);
		double c30 = ceil(30 / h - eps), c60 = ceil(60 / h - eps);

		if (cpurng_rct_cutoff(osr, 30) != 1 + (u32)c30 ||
		    cpurng_rct_cutoff(osr, 60) != 1 + (u32)c60)
			ok = 0;
	}
	report_check(ok, "rct_cutoffs_match_sp800_90b_formula");
}

static void test_osr_bounds(void)
{
	struct cpurng_health h;

	memset(&h, 0x5a, sizeof(h));
	report_check(cpurng_health_init(&h, 0) == -1 &&
		     cpurng_health_init(&h, CPURNG_OSR_MAX + 1) == -1 &&
		     h.samples == 0x5a5a5a5a5a5a5a5aULL &&
		     cpurng_apt_cutoff(0, false) == 0,
		     "osr_out_of_range_refused_state_unchanged");
}

static void test_good_timer(void)
{
	struct cpurng_health h;
	struct first_failure f;
	u32 osr;
	int ok = 1;

	for (osr = CPURNG_OSR_MIN; osr <= CPURNG_OSR_MAX; osr++)
		if (startup_with(fake_good, osr) != CPURNG_STARTUP_OK)
			ok = 0;
	report_check(ok, "good_timer_passes_startup_at_every_osr");

	fake_timer_set(fake_good);
	cpurng_health_init(&h, TEST_OSR_DEFAULT);
	f = feed_until(&h, fake_good, 200000, CPURNG_HEALTH_INTERMITTENT);
	report_check(f.verdict == CPURNG_HEALTH_OK && h.stuck < 100,
		     "good_timer_200000_samples_no_failure");
	if (h.stuck >= 100)
		report_diag("stuck samples: %llu", (unsigned long long)h.stuck);
}

static void test_stuck_timer(void)
{
	struct cpurng_health h;
	struct first_failure f;
	u32 c0, c1;

	report_check(startup_with(fake_constant, TEST_OSR_DEFAULT) ==
		     CPURNG_STARTUP_RCT, "constant_timer_fails_startup_rct");

	fake_timer_set(fake_constant);
	cpurng_health_init(&h, TEST_OSR_DEFAULT);
	c0 = h.rct_cutoff[0];
	c1 = h.rct_cutoff[1];
	f = feed_until(&h, fake_constant, 10000, CPURNG_HEALTH_INTERMITTENT);
	report_check(f.verdict == CPURNG_HEALTH_INTERMITTENT &&
		     f.test == CPURNG_TEST_RCT && f.at == c0,
		     "constant_timer_rct_intermittent_at_cutoff");
	f = feed_until(&h, fake_constant, 10000, CPURNG_HEALTH_INTERMITTENT);
	report_check(f.verdict == CPURNG_HEALTH_PERMANENT &&
		     f.test == CPURNG_TEST_RCT && c0 + f.at == c1,
		     "constant_timer_rct_permanent_at_cutoff");
	report_check(h.intermittent[CPURNG_TEST_STUCK] == 0 &&
		     h.permanent[CPURNG_TEST_STUCK] == 0,
		     "repeats_are_reported_by_rct_only");

	/* Permanent is sticky until the state is re-initialised. */
	fake_timer_set(fake_good);
	f = feed_until(&h, fake_good, 10, CPURNG_HEALTH_PERMANENT);
	report_check(f.verdict == CPURNG_HEALTH_PERMANENT && f.at == 1,
		     "permanent_failure_sticks_until_reset");
	cpurng_health_init(&h, TEST_OSR_DEFAULT);
	f = feed_until(&h, fake_good, 10000, CPURNG_HEALTH_INTERMITTENT);
	report_check(f.verdict == CPURNG_HEALTH_OK,
		     "reset_clears_permanent_failure");
}

static void test_biased_timer(void)
{
	struct cpurng_health h;
	struct first_failure f;
	u32 osr;
	int ok = 1;

	/* See fake_biased() for why osr 7 and 8 are left out. */
	for (osr = CPURNG_OSR_MIN; osr <= 6; osr++)
		if (startup_with(fake_biased, osr) != CPURNG_STARTUP_APT)
			ok = 0;
	report_check(ok, "biased_timer_fails_startup_apt_osr_1_to_6");

	fake_timer_set(fake_biased);
	cpurng_health_init(&h, 1);
	f = feed_until(&h, fake_biased, 10000, CPURNG_HEALTH_INTERMITTENT);
	report_check(f.verdict == CPURNG_HEALTH_INTERMITTENT &&
		     f.test == CPURNG_TEST_APT, "biased_timer_apt_intermittent");
	f = feed_until(&h, fake_biased, 10000, CPURNG_HEALTH_INTERMITTENT);
	report_check(f.verdict == CPURNG_HEALTH_PERMANENT &&
		     f.test == CPURNG_TEST_APT, "biased_timer_apt_permanent");
	report_check(h.intermittent[CPURNG_TEST_RCT] == 0,
		     "biased_timer_never_trips_rct");
}

static void test_timer_faults(void)
{
	report_check(startup_with(fake_progression, TEST_OSR_DEFAULT) ==
		     CPURNG_STARTUP_STUCK, "progression_timer_fails_startup_stuck");
	report_check(startup_with(fake_coarse, TEST_OSR_DEFAULT) ==
		     CPURNG_STARTUP_COARSE, "coarse_timer_refused");
	report_check(startup_with(fake_zero, TEST_OSR_DEFAULT) ==
		     CPURNG_STARTUP_NOTIME, "frozen_timer_refused");
	report_check(startup_with(fake_backwards, TEST_OSR_DEFAULT) ==
		     CPURNG_STARTUP_NONMONOTONIC, "backwards_timer_refused");
}

static void test_noise_core(void)
{
	unsigned char mem[256] = { 0 };
	struct cpurng_noise n = {
		.mem = mem, .mem_mask = sizeof(mem) - 1, .mem_loops = 256,
		.fold_loops = 3, .paths = CPURNG_NOISE_ALL,
	};
	struct cpurng_noise_sample s;
	u64 expect = 0, t0;
	unsigned int i;
	int all_once = 1;

	fake_timer_set(fake_good);
	cpurng_noise_measure(&n, &s);
	for (i = 0; i < sizeof(mem); i++)
		if (mem[i] != 1)
			all_once = 0;
	report_check(all_once && n.mem_pos == 0,
		     "memory_walk_touches_every_byte_once_per_cycle");

	t0 = s.t_start;
	for (i = 0; i < 3; i++)
		expect = ((expect << 1) | (expect >> 63)) ^
			 (u64)__builtin_parityll(t0 + i);
	report_check(n.fold_acc == expect, "fold_is_parity_of_timestamp");
	report_check(s.delta == fake_good(0) && s.fold_delta + s.mem_delta ==
		     s.delta, "sample_delta_covers_both_paths");

	n.paths = CPURNG_NOISE_MEM;
	cpurng_noise_measure(&n, &s);
	report_check(s.fold_delta == 0 && s.mem_delta && mem[0] == 2,
		     "memory_only_path_skips_folding");
}

int main(void)
{
	report_start(23);
	test_apt_cutoffs();
	test_rct_cutoffs();
	test_osr_bounds();
	test_good_timer();
	test_stuck_timer();
	test_biased_timer();
	test_timer_faults();
	test_noise_core();
	return report_exit();
}
