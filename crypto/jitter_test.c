// SPDX-License-Identifier: GPL-2.0
/*
 * CPU Jitter RNG test hooks, built only with CONFIG_CRYPTO_CPURNG_TESTING.
 * A production build has none of these parameters (the host checks verify
 * that), so nothing here can weaken a deployed RNG.
 *
 *   test_force=none|rct|apt  replace the raw samples of every instance with
 *                            a pattern that trips that health test; may be
 *                            changed at runtime
 *   test_fips=1              take the fips_enabled branches (panics) on a
 *                            kernel that was not booted with fips=1
 *   test_coarse_timer=1      read jiffies instead of the cycle counter
 *   test_skip_startup=1      load without the platform start-up test, so
 *                            raw noise can be captured on a machine the
 *                            RNG refuses (QEMU -icount, the negative
 *                            control); instances still run their own
 *                            start-up test and refuse to produce output
 *   test_rename=1            register under the cra_name
 *                            jitterentropy_rng_test, so the module can run
 *                            beside a built-in stock jitterentropy_rng
 *                            (Debian's 6.12) for a side-by-side benchmark
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/moduleparam.h>
#include <linux/string.h>

#include "../include/cpurng/jitter.h"

enum cpurng_jent_force {
	CPURNG_FORCE_NONE,
	CPURNG_FORCE_RCT,
	CPURNG_FORCE_APT,
};

static const char * const cpurng_jent_force_names[] = {
	[CPURNG_FORCE_NONE] = "none",
	[CPURNG_FORCE_RCT] = "rct",
	[CPURNG_FORCE_APT] = "apt",
};

static int cpurng_jent_force;

static bool test_fips;
module_param(test_fips, bool, 0444);
MODULE_PARM_DESC(test_fips, "TESTING: apply FIPS semantics (panic on permanent failure) without fips=1");

static bool test_coarse_timer;
module_param(test_coarse_timer, bool, 0444);
MODULE_PARM_DESC(test_coarse_timer, "TESTING: use jiffies as the timer");

static bool test_skip_startup;
module_param(test_skip_startup, bool, 0444);
MODULE_PARM_DESC(test_skip_startup, "TESTING: skip the platform start-up test at load");

static bool test_rename;
module_param(test_rename, bool, 0444);
MODULE_PARM_DESC(test_rename, "TESTING: register as " CPURNG_JENT_TEST_NAME);

bool cpurng_jent_test_rename(void)
{
	return test_rename;
}

bool cpurng_jent_test_skip_startup(void)
{
	return test_skip_startup;
}

static int cpurng_jent_force_set(const char *val, const struct kernel_param *kp)
{
	int i = sysfs_match_string(cpurng_jent_force_names, val);

	if (i < 0) {
		pr_err("test_force: unknown value '%.*s' (none, rct, apt)\n",
		       (int)strcspn(val, "\n"), val);
		return -EINVAL;
	}
	WRITE_ONCE(cpurng_jent_force, i);
	pr_info("test_force=%s\n", cpurng_jent_force_names[i]);
	return 0;
}

static int cpurng_jent_force_get(char *buf, const struct kernel_param *kp)
{
	return scnprintf(buf, PAGE_SIZE, "%s\n",
			 cpurng_jent_force_names[READ_ONCE(cpurng_jent_force)]);
}

static const struct kernel_param_ops cpurng_jent_force_ops = {
	.set = cpurng_jent_force_set,
	.get = cpurng_jent_force_get,
};
module_param_cb(test_force, &cpurng_jent_force_ops, NULL, 0644);
MODULE_PARM_DESC(test_force, "TESTING: force health failures: none, rct, apt");

bool cpurng_jent_test_fips(void)
{
	return test_fips;
}

bool cpurng_jent_test_coarse_timer(void)
{
	return test_coarse_timer;
}

/*
 * rct: every sample equal.  apt: one value in runs of 30 * osr separated
 * by another value: one short of the RCT's intermittent cutoff
 * (1 + 30 * osr), so no run trips the RCT, while the one value fills
 * 30 * osr of every 30 * osr + 1 samples, above the APT's permanent cutoff
 * for osr 1 to 6 (at osr 7 and 8 that cutoff needs runs the RCT catches
 * first).  At osr 1 this is the host tests' fake_biased() pattern.
 */
void cpurng_jent_test_sample(struct cpurng_jent *j,
			     struct cpurng_noise_sample *s)
{
	switch (READ_ONCE(cpurng_jent_force)) {
	case CPURNG_FORCE_RCT:
		s->delta = 4242;
		break;
	case CPURNG_FORCE_APT:
		s->delta = (j->test_seq++ % (30ULL * cpurng_jent_config.osr + 1)) ?
			   1500 : 1501 + j->test_seq % 97;
		break;
	default:
		break;
	}
}
