// SPDX-License-Identifier: GPL-2.0
/*
 * CPU Jitter RNG: the entropy claim checked on the machine that runs it.
 *
 * At load, before the algorithm is registered, a throw-away noise instance
 * in the module's configuration takes assess_samples raw deltas and
 * jitter_estimate.c estimates their min-entropy.  With a fixed osr the
 * module refuses to load when the estimate is below
 * CPURNG_JENT_ASSESS_MARGIN / osr bits per sample; with osr=auto it takes
 * the smallest osr that keeps the margin, or refuses when even the largest
 * does not.  Writing 1 to /sys/kernel/cpurng_jitter/assess repeats the
 * estimate on request: the result is shown and a shortfall is logged and
 * counted, but osr stays as it is (the running instances' health-test
 * cutoffs were sized for it; reload the module to change it).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/slab.h>

#include "../include/cpurng/jitter.h"

static unsigned int assess_samples = CPURNG_JENT_ASSESS_SAMPLES;
module_param(assess_samples, uint, 0444);
MODULE_PARM_DESC(assess_samples, "Raw samples per min-entropy estimate at load and on request (512-65536, default 8192; 0: no estimate and no check)");

static DEFINE_MUTEX(cpurng_jent_assess_lock);
static struct cpurng_jent_assessment cpurng_jent_assessed;

void cpurng_jent_assessment_get(struct cpurng_jent_assessment *a)
{
	mutex_lock(&cpurng_jent_assess_lock);
	*a = cpurng_jent_assessed;
	mutex_unlock(&cpurng_jent_assess_lock);
}

/* The smallest osr with margin / osr <= estimate, or CPURNG_OSR_MAX + 1. */
static u32 cpurng_jent_osr_needed(u32 mbits)
{
	u32 need;

	if (!mbits)
		return CPURNG_OSR_MAX + 1;
	need = DIV_ROUND_UP(CPURNG_JENT_ASSESS_MARGIN * 1000, mbits);
	return clamp_t(u32, need, CPURNG_OSR_MIN, CPURNG_OSR_MAX + 1);
}

static void cpurng_jent_log_estimate(const struct cpurng_estimate *e)
{
	u32 t = e->mbits[CPURNG_EST_TUPLE];

	pr_info("min-entropy estimate %u.%03u bits/sample (%s) from %u raw samples, %u distinct: most common value %u.%03u, t-tuple %s%u.%03u (t %u), lag %u.%03u\n",
		e->min_mbits / 1000, e->min_mbits % 1000,
		cpurng_est_name(e->by), e->samples, e->distinct,
		e->mbits[CPURNG_EST_MCV] / 1000, e->mbits[CPURNG_EST_MCV] % 1000,
		t == ~0U ? "n/a " : "", t == ~0U ? 0 : t / 1000,
		t == ~0U ? 0 : t % 1000, e->tuple_t,
		e->mbits[CPURNG_EST_LAG] / 1000, e->mbits[CPURNG_EST_LAG] % 1000);
}

int cpurng_jent_assess_now(struct cpurng_jent_assessment *out)
{
	u32 n = assess_samples, osr = cpurng_jent_config.osr, need = 0;
	struct cpurng_jent_assessment *a = &cpurng_jent_assessed;
	bool later = false;
	struct cpurng_estimate e;
	u32 *scratch;
	u64 *v;
	int ret;

	if (!n)
		return -EOPNOTSUPP;
	v = kvmalloc_array(n, sizeof(*v), GFP_KERNEL);
	scratch = kvmalloc_array(CPURNG_EST_SCRATCH_WORDS(n), sizeof(*scratch),
				 GFP_KERNEL);
	ret = v && scratch ? 0 : -ENOMEM;
	/* One estimate at a time: each takes a noise instance for itself. */
	mutex_lock(&cpurng_jent_assess_lock);
	if (!ret)
		ret = cpurng_jent_raw_deltas(v, n);
	if (!ret && cpurng_estimate(v, n, scratch, &e))
		ret = -EINVAL;
	if (!ret) {
		a->est = e;
		a->runs++;
		need = cpurng_jent_osr_needed(e.min_mbits);
		a->osr_needed = need;
		if (need > osr)
			a->low++;
		/* at load the caller decides; later, say what would do */
		later = a->runs > 1;
		if (out)
			*out = *a;
	}
	mutex_unlock(&cpurng_jent_assess_lock);
	if (!ret)
		cpurng_jent_log_estimate(&e);
	if (!ret && later && need > osr)
		pr_warn("the estimate is below %u x the credited 1/%u bit per sample; reload with osr=%u or osr=auto\n",
			CPURNG_JENT_ASSESS_MARGIN, osr, need);
	/* raw timings of this machine: no RNG output, but wiped all the same */
	if (v)
		kvfree_sensitive(v, n * sizeof(*v));
	if (scratch)
		kvfree_sensitive(scratch,
				 CPURNG_EST_SCRATCH_WORDS(n) * sizeof(*scratch));
	return ret;
}

int cpurng_jent_assess_at_load(bool osr_auto)
{
	u32 osr = cpurng_jent_config.osr, need, mbits;
	struct cpurng_jent_assessment a;
	int ret;

	if (!assess_samples) {
		if (osr_auto) {
			pr_err("osr=auto needs the estimate, and assess_samples=0 turns it off\n");
			return -EINVAL;
		}
		pr_notice("assess_samples=0: the credit of 1/%u bit per sample is not checked on this machine\n",
			  osr);
		return 0;
	}
	if (assess_samples < CPURNG_EST_MIN_SAMPLES ||
	    assess_samples > CPURNG_EST_MAX_SAMPLES) {
		pr_err("assess_samples=%u is out of bounds (0 or %u-%u)\n",
		       assess_samples, CPURNG_EST_MIN_SAMPLES,
		       CPURNG_EST_MAX_SAMPLES);
		return -EINVAL;
	}
	ret = cpurng_jent_assess_now(&a);
	if (ret) {
		pr_err("the min-entropy estimate failed (%d)\n", ret);
		return ret;
	}
	need = a.osr_needed;
	mbits = a.est.min_mbits;

	if (osr_auto && need > CPURNG_OSR_MAX) {
		pr_err("not registering %s: the estimate %u.%03u bits/sample is below %u x 1/%u, the smallest credit any osr gives\n",
		       CPURNG_JENT_NAME, mbits / 1000, mbits % 1000,
		       CPURNG_JENT_ASSESS_MARGIN, CPURNG_OSR_MAX);
		return -EOPNOTSUPP;
	}
	if (osr_auto) {
		mutex_lock(&cpurng_jent_assess_lock);
		cpurng_jent_config.osr = need;
		cpurng_jent_assessed.low = 0;
		mutex_unlock(&cpurng_jent_assess_lock);
		pr_info("osr=auto chose osr %u: the smallest osr whose credit of 1/osr bit per sample, times %u, is within the estimate %u.%03u\n",
			need, CPURNG_JENT_ASSESS_MARGIN, mbits / 1000,
			mbits % 1000);
		return 0;
	}
	if (need > CPURNG_OSR_MAX) {
		pr_err("not registering %s: the estimate %u.%03u bits/sample is below %u x the credited 1/%u bit per sample, and no osr up to %u keeps that margin\n",
		       CPURNG_JENT_NAME, mbits / 1000, mbits % 1000,
		       CPURNG_JENT_ASSESS_MARGIN, osr, CPURNG_OSR_MAX);
		return -EOPNOTSUPP;
	}
	if (need > osr) {
		pr_err("not registering %s: the estimate %u.%03u bits/sample is below %u x the credited 1/%u bit per sample; load with osr=%u or osr=auto (Documentation/jitter.rst)\n",
		       CPURNG_JENT_NAME, mbits / 1000, mbits % 1000,
		       CPURNG_JENT_ASSESS_MARGIN, osr, need);
		return -EOPNOTSUPP;
	}
	return 0;
}
