// SPDX-License-Identifier: GPL-2.0
/*
 * DRBG self-tests, SP800-90A 11.3, run before any algorithm is registered
 * (at module load, or at boot when built in) and whenever selftest_status
 * is written:
 *
 *   - known answers for instantiate, reseed and generate of every mechanism
 *     offered (11.3.2 - 11.3.4), from NIST CAVP vectors;
 *   - uninstantiate wipes the state (11.3.5);
 *   - error handling (11.3.1): over-long personalization and additional
 *     input, an over-long or empty request and generating before
 *     instantiation are refused and leave the state as it was.
 *
 * A failure means nothing is registered, the log names the failing test,
 * and with FIPS semantics the kernel panics.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/sysfs.h>
#include <linux/workqueue.h>

#include "../include/cpurng/drbg.h"

/**
 * struct cpurng_drbg_kat - one known-answer test
 * @mech: mechanism name
 * @entropy: EntropyInput
 * @entropy_len: its length
 * @nonce: Nonce
 * @nonce_len: its length
 * @pers: PersonalizationString
 * @pers_len: its length
 * @entropy_reseed: EntropyInputReseed
 * @entropy_reseed_len: its length
 * @addtl_reseed: AdditionalInputReseed
 * @addtl_reseed_len: its length
 * @addtl1: AdditionalInput of the first generate
 * @addtl1_len: its length
 * @addtl2: AdditionalInput of the second generate
 * @addtl2_len: its length
 * @expected: ReturnedBits, the output of the second generate
 * @expected_len: its length
 */
struct cpurng_drbg_kat {
	const char *mech;
	const u8 *entropy;
	size_t entropy_len;
	const u8 *nonce;
	size_t nonce_len;
	const u8 *pers;
	size_t pers_len;
	const u8 *entropy_reseed;
	size_t entropy_reseed_len;
	const u8 *addtl_reseed;
	size_t addtl_reseed_len;
	const u8 *addtl1;
	size_t addtl1_len;
	const u8 *addtl2;
	size_t addtl2_len;
	const u8 *expected;
	size_t expected_len;
};

#include "selftest/drbg_kat.h"

static DEFINE_MUTEX(cpurng_drbg_selftest_lock);
static char cpurng_drbg_selftest_msg[128] = "not run";

const char *cpurng_drbg_selftest_result(void)
{
	return cpurng_drbg_selftest_msg;
}

static const struct cpurng_drbg_kat *cpurng_drbg_kat_for(const char *mech)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cpurng_drbg_kats); i++)
		if (!strcmp(cpurng_drbg_kats[i].mech, mech))
			return &cpurng_drbg_kats[i];
	return NULL;
}

/* Instantiate, reseed, generate twice; compare the second output. */
static const char *cpurng_drbg_kat_run(struct cpurng_drbg *d,
				       const struct cpurng_drbg_kat *k,
				       u8 *out)
{
	struct cpurng_drbg_input e = { k->entropy, k->entropy_len };
	struct cpurng_drbg_input n = { k->nonce, k->nonce_len };
	struct cpurng_drbg_input p = { k->pers, k->pers_len };
	const char *corrupt = cpurng_drbg_test_corrupt_kat();

	if (cpurng_drbg_instantiate_raw(d, &e, &n, &p))
		return "instantiate";
	if (cpurng_drbg_reseed_raw(d, k->entropy_reseed, k->entropy_reseed_len,
				   k->addtl_reseed, k->addtl_reseed_len))
		return "reseed";
	if (cpurng_drbg_generate_raw(d, out, k->expected_len, k->addtl1,
				     k->addtl1_len) ||
	    cpurng_drbg_generate_raw(d, out, k->expected_len, k->addtl2,
				     k->addtl2_len))
		return "generate";
	/* Test-only: prove that a wrong answer is caught. */
	if (corrupt && sysfs_streq(corrupt, k->mech))
		out[0] ^= 0x01;
	if (memcmp(out, k->expected, k->expected_len))
		return "known answer";
	return NULL;
}

/* 11.3.1: bad requests are refused and change nothing. */
static const char *cpurng_drbg_error_checks(struct cpurng_drbg *d,
					    const struct cpurng_drbg_kat *k,
					    u8 *out, const u8 *big)
{
	struct cpurng_drbg_input e = { k->entropy, k->entropy_len };
	struct cpurng_drbg_input n = { k->nonce, k->nonce_len };
	struct cpurng_drbg_input p = { big, CPURNG_DRBG_MAX_INPUT + 1 };
	u64 ctr = d->reseed_ctr;

	if (cpurng_drbg_instantiate_raw(d, &e, &n, &p) != -EINVAL)
		return "over-long personalization accepted";
	if (cpurng_drbg_generate_raw(d, out, 16, big,
				     CPURNG_DRBG_MAX_INPUT + 1) != -EINVAL)
		return "over-long additional input accepted";
	if (cpurng_drbg_generate_raw(d, out, CPURNG_DRBG_MAX_REQUEST + 1,
				     NULL, 0) != -EINVAL)
		return "over-long request accepted";
	if (cpurng_drbg_generate_raw(d, out, 0, NULL, 0) != -EINVAL)
		return "empty request accepted";
	if (d->reseed_ctr != ctr)
		return "refused request changed the state";
	return NULL;
}

/* 11.3.5: after uninstantiate no state is left. */
static bool cpurng_drbg_wiped(const struct cpurng_drbg *d)
{
	return !memchr_inv(&d->st, 0, sizeof(d->st));
}

/*
 * Runs the tests of one mechanism.  Returns NULL when they pass, else what
 * failed; *err says how: -EBADMSG for a failed test, or the error that kept
 * the test from running at all (no memory, primitive unavailable).  Only
 * the former is a self-test failure in the sense of SP800-90A 11.3.
 */
static const char *cpurng_drbg_test_mech(const struct cpurng_drbg_mech *m,
					 u8 *out, const u8 *big, int *err)
{
	const struct cpurng_drbg_kat *k = cpurng_drbg_kat_for(m->name);
	struct cpurng_drbg_input e, n, p;
	struct cpurng_drbg *d;
	const char *fail;
	int ret;

	*err = -EBADMSG;
	if (!k)
		return "no known-answer test";
	d = kzalloc(sizeof(*d), GFP_KERNEL);
	if (!d) {
		*err = -ENOMEM;
		return "out of memory";
	}
	ret = cpurng_drbg_init(d, m, false);
	if (ret) {
		kfree(d);
		*err = ret;
		return "cannot allocate the primitive";
	}

	if (cpurng_drbg_generate_raw(d, out, 16, NULL, 0) != -EINVAL) {
		fail = "generate before instantiate accepted";
		goto out;
	}
	fail = cpurng_drbg_kat_run(d, k, out);
	if (!fail)
		fail = cpurng_drbg_error_checks(d, k, out, big);
	if (!fail) {
		/* The refused calls above must not have disturbed the state:
		 * run the known answer again on a fresh instantiation.
		 */
		e = (struct cpurng_drbg_input){ k->entropy, k->entropy_len };
		n = (struct cpurng_drbg_input){ k->nonce, k->nonce_len };
		p = (struct cpurng_drbg_input){ k->pers, k->pers_len };
		fail = cpurng_drbg_instantiate_raw(d, &e, &n, &p) ?
		       "instantiate" : cpurng_drbg_kat_run(d, k, out);
	}
out:
	m->ops->free(d);
	if (!fail && !cpurng_drbg_wiped(d))
		fail = "uninstantiate left state behind";
	/* Frees again: harmless, a freed state holds only zeros and NULLs. */
	cpurng_drbg_fini(d);
	kfree_sensitive(d);
	return fail;
}

/*
 * The mechanisms are independent, so the tests run in two shares at once:
 * the even entries of the table in the caller and the odd ones in a work
 * item (they are a sixth of the time from load to the first seed in a VM
 * with two CPUs).  The caller's share holds every family (HMAC, Hash, CTR),
 * so fault injection into the loading task (fail-nth) still reaches each
 * family's allocations.  Each share has its own output buffer; the
 * over-long input is only read.
 */
struct cpurng_drbg_selftest_share {
	struct work_struct work;
	unsigned int first;
	const u8 *big;
	const char **fail;
	int *err;
};

static void cpurng_drbg_selftest_run_share(struct cpurng_drbg_selftest_share *sh)
{
	/* room for the over-long request that must be refused */
	u8 *out = kzalloc(CPURNG_DRBG_MAX_REQUEST + 1, GFP_KERNEL);
	unsigned int i;

	for (i = sh->first; i < cpurng_drbg_nmechs; i += 2) {
		if (!out) {
			sh->err[i] = -ENOMEM;
			sh->fail[i] = "out of memory";
			continue;
		}
		sh->fail[i] = cpurng_drbg_test_mech(&cpurng_drbg_mechs[i], out,
						    sh->big, &sh->err[i]);
	}
	kfree_sensitive(out);
}

static void cpurng_drbg_selftest_work(struct work_struct *work)
{
	struct cpurng_drbg_selftest_share *sh =
		container_of(work, struct cpurng_drbg_selftest_share, work);

	cpurng_drbg_selftest_run_share(sh);
}

int cpurng_drbg_selftest(void)
{
	struct cpurng_drbg_selftest_share even, odd;
	unsigned int i, n = cpurng_drbg_nmechs;
	const char **fail;
	u8 *big;
	int *err;
	int ret = 0;

	fail = kcalloc(n, sizeof(*fail), GFP_KERNEL);
	err = kcalloc(n, sizeof(*err), GFP_KERNEL);
	big = kzalloc(CPURNG_DRBG_MAX_INPUT + 1, GFP_KERNEL);
	mutex_lock(&cpurng_drbg_selftest_lock);
	if (!fail || !err || !big) {
		ret = -ENOMEM;
		strscpy(cpurng_drbg_selftest_msg, "not run: out of memory",
			sizeof(cpurng_drbg_selftest_msg));
		goto out;
	}
	even = (struct cpurng_drbg_selftest_share){
		.first = 0, .big = big, .fail = fail, .err = err };
	odd = even;
	odd.first = 1;
	INIT_WORK_ONSTACK(&odd.work, cpurng_drbg_selftest_work);
	queue_work(cpurng_unbound_wq, &odd.work);
	cpurng_drbg_selftest_run_share(&even);
	flush_work(&odd.work);
	destroy_work_on_stack(&odd.work);
	/* the first failure in table order, whichever share found it */
	for (i = 0; i < n; i++) {
		if (!fail[i])
			continue;
		ret = err[i];
		snprintf(cpurng_drbg_selftest_msg,
			 sizeof(cpurng_drbg_selftest_msg), "%s: %s: %s",
			 ret == -EBADMSG ? "failed" : "not run",
			 cpurng_drbg_mechs[i].name, fail[i]);
		break;
	}
	if (!ret)
		snprintf(cpurng_drbg_selftest_msg,
			 sizeof(cpurng_drbg_selftest_msg),
			 "passed: %u mechanisms", cpurng_drbg_nmechs);
out:
	mutex_unlock(&cpurng_drbg_selftest_lock);
	kfree(fail);
	kfree(err);
	kfree(big);

	/*
	 * A test that failed is fatal under FIPS; one that could not run (no
	 * memory) only refuses the load or the rerun: nothing is registered
	 * untested either way.
	 */
	if (ret == -EBADMSG && cpurng_drbg_fips())
		panic(KBUILD_MODNAME ": self-test %s in FIPS mode\n",
		      cpurng_drbg_selftest_msg);
	if (ret)
		pr_err("self-test %s\n", cpurng_drbg_selftest_msg);
	else
		pr_info("self-test %s\n", cpurng_drbg_selftest_msg);
	return ret;
}
