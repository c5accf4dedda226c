// SPDX-License-Identifier: GPL-2.0
/*
 * SP800-90A DRBG: crypto API glue and module init/exit.
 *
 * Every mechanism is registered as "stdrng" twice, with and without
 * prediction resistance, with the driver names of the kernel's DRBG plus
 * "-cpurng" (drbg_nopr_hmac_sha256-cpurng, ...).  Priorities start at
 * 3000, above the stock DRBG's (100 and up, 2100 and up under fips=1), so
 * crypto_get_default_rng() and crypto_alloc_rng("stdrng") pick ours while
 * it is loaded; like the stock module, the no-PR HMAC SHA-256 DRBG ranks
 * highest.  Both modules can be loaded at the same time: no name is shared.
 *
 * The .seed/.set_ent semantics follow crypto/drbg.c, so the kernel's
 * testmgr vectors run against these drivers unchanged: set_ent() provides
 * the entropy of the next instantiation or (prediction-resistance)
 * reseed; the first reset() instantiates with its input as
 * personalization, later ones reseed with it as additional input.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <crypto/internal/rng.h>
#include <linux/fips.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

#include "../include/cpurng/drbg.h"
#include "../include/cpurng/module_util.h"

#define CPURNG_DRBG_PRIORITY	3000
#define CPURNG_DRBG_DEFAULT_SOURCES \
	"jitterentropy_rng:8,cpu_randomness:0,get_random_bytes:8"
/* Bounds of the reseed policy (SP800-90A allows 2^48 requests). */
#define CPURNG_DRBG_RESEED_REQUESTS_MAX	BIT(24)
#define CPURNG_DRBG_RESEED_SECONDS_MAX	86400U

module_param_cb(sources, &cpurng_drbg_sources_param_ops, NULL, 0644);
MODULE_PARM_DESC(sources, "Seed sources: name[:credit bits per byte, 0-8],...");
module_param_named(reseed_requests, cpurng_drbg_reseed_requests, uint, 0444);
MODULE_PARM_DESC(reseed_requests, "Requests between reseeds once fully seeded (1-16777216, default 1048576)");
module_param_named(reseed_seconds, cpurng_drbg_reseed_seconds, uint, 0444);
MODULE_PARM_DESC(reseed_seconds, "Seconds between reseeds once fully seeded (1-86400, default 300)");
module_param_named(require_full, cpurng_drbg_require_full, bool, 0644);
MODULE_PARM_DESC(require_full, "Fail requests with -EAGAIN until fully seeded (default 0: reseed before every request and serve)");

static int cpurng_drbg_selftest_set(const char *val,
				    const struct kernel_param *kp)
{
	return cpurng_drbg_selftest();
}

static int cpurng_drbg_selftest_get(char *buf, const struct kernel_param *kp)
{
	return scnprintf(buf, PAGE_SIZE, "%s\n", cpurng_drbg_selftest_result());
}

static const struct kernel_param_ops cpurng_drbg_selftest_ops = {
	.set = cpurng_drbg_selftest_set,
	.get = cpurng_drbg_selftest_get,
};

module_param_cb(selftest_status, &cpurng_drbg_selftest_ops, NULL, 0644);
MODULE_PARM_DESC(selftest_status, "Self-test result; write anything to rerun the tests");

struct cpurng_fork_watch cpurng_drbg_forks;

bool cpurng_drbg_fips(void)
{
	return fips_enabled || cpurng_drbg_test_fips();
}

/**
 * struct cpurng_drbg_alg - a registered algorithm and what it runs
 * @rng: the crypto API algorithm
 * @mech: mechanism
 * @pr: prediction resistance
 */
struct cpurng_drbg_alg {
	struct rng_alg rng;
	const struct cpurng_drbg_mech *mech;
	bool pr;
};

static struct cpurng_drbg_alg *cpurng_drbg_algs;
static unsigned int cpurng_drbg_nalgs;

static int cpurng_drbg_kcapi_init(struct crypto_tfm *tfm)
{
	struct rng_alg *rng = container_of(tfm->__crt_alg, struct rng_alg,
					   base);
	struct cpurng_drbg_alg *a = container_of(rng, struct cpurng_drbg_alg,
						 rng);

	return cpurng_drbg_init(crypto_tfm_ctx(tfm), a->mech, a->pr);
}

static void cpurng_drbg_kcapi_exit(struct crypto_tfm *tfm)
{
	cpurng_drbg_fini(crypto_tfm_ctx(tfm));
}

static int cpurng_drbg_kcapi_generate(struct crypto_rng *tfm, const u8 *src,
				      unsigned int slen, u8 *dst,
				      unsigned int dlen)
{
	return cpurng_drbg_generate(crypto_rng_ctx(tfm), src, slen, dst, dlen);
}

static int cpurng_drbg_kcapi_seed(struct crypto_rng *tfm, const u8 *seed,
				  unsigned int slen)
{
	return cpurng_drbg_seed(crypto_rng_ctx(tfm), seed, slen);
}

static void cpurng_drbg_kcapi_set_ent(struct crypto_rng *tfm, const u8 *data,
				      unsigned int len)
{
	if (cpurng_drbg_set_test_entropy(crypto_rng_ctx(tfm), data, len))
		pr_warn_ratelimited("set_ent: %u bytes of test entropy refused\n",
				    len);
}

static void cpurng_drbg_fill(struct cpurng_drbg_alg *a,
			     const struct cpurng_drbg_mech *m, bool pr,
			     int priority)
{
	struct crypto_alg *base = &a->rng.base;

	a->mech = m;
	a->pr = pr;
	a->rng.generate = cpurng_drbg_kcapi_generate;
	a->rng.seed = cpurng_drbg_kcapi_seed;
	a->rng.set_ent = cpurng_drbg_kcapi_set_ent;
	a->rng.seedsize = 0;
	strscpy(base->cra_name, "stdrng", sizeof(base->cra_name));
	snprintf(base->cra_driver_name, sizeof(base->cra_driver_name),
		 "drbg_%s_%s-cpurng", pr ? "pr" : "nopr", m->name);
	base->cra_priority = priority;
	base->cra_ctxsize = sizeof(struct cpurng_drbg);
	base->cra_module = THIS_MODULE;
	base->cra_init = cpurng_drbg_kcapi_init;
	base->cra_exit = cpurng_drbg_kcapi_exit;
}

/*
 * Registering an algorithm waits for the crypto manager's test of it, run
 * in a thread of its own: one after the other, 22 of those take about
 * 20 ms in a VM, a third of the time from load to the first seed.  So each
 * is registered from a work item of its own, and the waits overlap.
 */
struct cpurng_drbg_reg {
	struct work_struct work;
	struct rng_alg *rng;
	int ret;
};

static void cpurng_drbg_register_one(struct work_struct *work)
{
	struct cpurng_drbg_reg *r = container_of(work, struct cpurng_drbg_reg,
						 work);

	r->ret = crypto_register_rng(r->rng);
}

static int cpurng_drbg_register(void)
{
	struct cpurng_drbg_reg *regs;
	unsigned int i, j = 0;
	int ret = 0;

	cpurng_drbg_nalgs = 2 * cpurng_drbg_nmechs;
	cpurng_drbg_algs = kcalloc(cpurng_drbg_nalgs,
				   sizeof(*cpurng_drbg_algs), GFP_KERNEL);
	regs = kcalloc(cpurng_drbg_nalgs, sizeof(*regs), GFP_KERNEL);
	if (!cpurng_drbg_algs || !regs) {
		kfree(regs);
		kfree(cpurng_drbg_algs);
		cpurng_drbg_algs = NULL;
		return -ENOMEM;
	}
	/* PR variants below no-PR ones; within each, the table's order. */
	for (i = 0; i < cpurng_drbg_nmechs; i++, j++)
		cpurng_drbg_fill(&cpurng_drbg_algs[j], &cpurng_drbg_mechs[i],
				 true, CPURNG_DRBG_PRIORITY + j);
	for (i = 0; i < cpurng_drbg_nmechs; i++, j++)
		cpurng_drbg_fill(&cpurng_drbg_algs[j], &cpurng_drbg_mechs[i],
				 false, CPURNG_DRBG_PRIORITY + j);

	for (i = 0; i < cpurng_drbg_nalgs; i++) {
		regs[i].rng = &cpurng_drbg_algs[i].rng;
		INIT_WORK(&regs[i].work, cpurng_drbg_register_one);
		queue_work(cpurng_unbound_wq, &regs[i].work);
	}
	for (i = 0; i < cpurng_drbg_nalgs; i++) {
		flush_work(&regs[i].work);
		if (regs[i].ret && !ret) {
			ret = regs[i].ret;
			pr_err("cannot register %s: %d\n",
			       cpurng_drbg_algs[i].rng.base.cra_driver_name, ret);
		}
	}
	if (ret) {
		for (i = 0; i < cpurng_drbg_nalgs; i++)
			if (!regs[i].ret)
				crypto_unregister_rng(&cpurng_drbg_algs[i].rng);
		kfree(cpurng_drbg_algs);
		cpurng_drbg_algs = NULL;
	}
	kfree(regs);
	return ret;
}

static void cpurng_drbg_unregister(void)
{
	unsigned int i;

	for (i = 0; i < cpurng_drbg_nalgs; i++)
		crypto_unregister_rng(&cpurng_drbg_algs[i].rng);
	kfree(cpurng_drbg_algs);
	cpurng_drbg_algs = NULL;
}

u64 cpurng_drbg_selftest_ns;
u64 cpurng_drbg_register_ns;
/* when, after the start of the module's init, the sources began loading */
u64 cpurng_drbg_sources_at_ns;

static int __init cpurng_drbg_mod_init(void)
{
	ktime_t start, init = ktime_get();
	bool early;
	int ret;

	ret = cpurng_param_check("reseed_requests", cpurng_drbg_reseed_requests,
				 1, CPURNG_DRBG_RESEED_REQUESTS_MAX) ?:
	      cpurng_param_check("reseed_seconds", cpurng_drbg_reseed_seconds,
				 1, CPURNG_DRBG_RESEED_SECONDS_MAX);
	if (ret)
		return ret;

	ret = cpurng_drbg_sources_init(CPURNG_DRBG_DEFAULT_SOURCES);
	if (ret)
		return ret;
	/* SP800-90A 11.3: nothing is offered before the self-tests pass. */
	start = ktime_get();
	ret = cpurng_drbg_selftest();
	cpurng_drbg_selftest_ns = ktime_to_ns(ktime_sub(ktime_get(), start));
	if (ret)
		goto err_sources;
	/*
	 * Without the kernel RNG, or with FIPS semantics, the first seed waits
	 * for the source modules (the jitter RNG's start-up test and entropy
	 * check): start loading them now, beside the registration.  Not
	 * before the self-tests, which load the modules of the primitives
	 * they use: a source module loading beside them made one fail to
	 * allocate sha384 (-ENOENT) on 6.1.  With the kernel RNG, only after
	 * the registration, which a loading source module would compete with
	 * for the CPUs, while the first seed does not need it.  A failed load
	 * cancels the work (sources_exit).
	 */
	early = !rng_is_initialized() || cpurng_drbg_fips();
	if (early)
		cpurng_drbg_sources_start(init);
	ret = cpurng_fork_watch_start(&cpurng_drbg_forks,
				      "every DRBG instance reseeds before its next output");
	if (ret)
		goto err_sources;
	ret = cpurng_drbg_status_init();
	if (ret)
		goto err_forks;
	start = ktime_get();
	ret = cpurng_drbg_register();
	cpurng_drbg_register_ns = ktime_to_ns(ktime_sub(ktime_get(), start));
	if (ret)
		goto err_status;
	if (!early)
		cpurng_drbg_sources_start(init);
	return 0;

err_status:
	cpurng_drbg_status_exit();
err_forks:
	cpurng_fork_watch_stop(&cpurng_drbg_forks);
err_sources:
	cpurng_drbg_sources_exit();
	return ret;
}

static void __exit cpurng_drbg_mod_exit(void)
{
	cpurng_drbg_unregister();
	cpurng_drbg_status_exit();
	cpurng_fork_watch_stop(&cpurng_drbg_forks);
	cpurng_drbg_sources_exit();
}

module_init(cpurng_drbg_mod_init);
module_exit(cpurng_drbg_mod_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("cpurng SP800-90A DRBG (HMAC, Hash, CTR) with selectable seed sources");
MODULE_ALIAS_CRYPTO("stdrng");
