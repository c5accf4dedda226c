// SPDX-License-Identifier: GPL-2.0
/*
 * DRBG test hooks, built only with CONFIG_CRYPTO_CPURNG_TESTING.
 *
 *   test_fips=1               FIPS semantics without fips=1 (panic on a
 *                             failed self-test, full seeding required)
 *   test_corrupt_kat=<mech>   make that mechanism's known-answer test see a
 *                             wrong answer, to prove a failure is caught
 *   test_ctr_long=1           CTR_DRBG: never take the single-keystream
 *                             path for short requests, so known answers
 *                             also cover the path long requests take
 *   test_fork_event=vm|resume what the vmfork or PM notifier does on a
 *                             VM fork or a resume, without one (the
 *                             snapshot test proves the real thing)
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/moduleparam.h>
#include <linux/string.h>

#include "../include/cpurng/drbg.h"

static bool test_fips;
module_param(test_fips, bool, 0444);
MODULE_PARM_DESC(test_fips, "TESTING: apply FIPS semantics without fips=1");

static char *test_corrupt_kat;
module_param(test_corrupt_kat, charp, 0644);
MODULE_PARM_DESC(test_corrupt_kat, "TESTING: corrupt the known answer of this mechanism (e.g. hmac_sha256)");

static bool test_ctr_long;
module_param(test_ctr_long, bool, 0644);
MODULE_PARM_DESC(test_ctr_long, "TESTING: CTR_DRBG always uses the long-request path");

bool cpurng_drbg_test_ctr_long(void)
{
	return test_ctr_long;
}

bool cpurng_drbg_test_fips(void)
{
	return test_fips;
}

const char *cpurng_drbg_test_corrupt_kat(void)
{
	return test_corrupt_kat;
}

static int test_fork_event_set(const char *val, const struct kernel_param *kp)
{
	if (sysfs_streq(val, "vm"))
		cpurng_fork_event(&cpurng_drbg_forks, false);
	else if (sysfs_streq(val, "resume"))
		cpurng_fork_event(&cpurng_drbg_forks, true);
	else
		return -EINVAL;
	return 0;
}

static const struct kernel_param_ops test_fork_event_ops = {
	.set = test_fork_event_set,
};

module_param_cb(test_fork_event, &test_fork_event_ops, NULL, 0200);
MODULE_PARM_DESC(test_fork_event, "TESTING: act as on a VM fork (vm) or a resume (resume)");
