// SPDX-License-Identifier: GPL-2.0
/*
 * CPU-randomness collector: crypto API glue and module init/exit.
 *
 * Registered as the crypto_rng "cpu_randomness", so any crypto API user,
 * and the cpurng DRBG in particular, can draw seed material from it.  Each
 * tfm keeps a key; an output block is derived from a SHA-256 digest of the
 * key, a counter and every pool, and the key moves forward after each
 * block, so an output says nothing about earlier or later ones and a key
 * captured later cannot recompute past output.  Reading never changes the
 * pools, so it takes nothing away from the input-pool feed.
 *
 * After a VM fork or a resume the key may be in use in another clone too:
 * before its next block an instance moves its key with fresh output of the
 * kernel RNG (reseeded by random.c from the new VM generation ID), so the
 * clones' outputs part even where their pools have not yet.
 *
 * The collector itself credits no entropy: its status reports a credit of
 * zero.  A consumer (the DRBG's seed-source registry) decides how much, if
 * anything, to credit.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <crypto/internal/rng.h>
#include <linux/atomic.h>
#include <linux/kernel.h>
#include <linux/minmax.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/random.h>
#include <linux/string.h>
#include <linux/timex.h>

#include "../include/cpurng/collector.h"
#include "../include/cpurng/module_util.h"

/* Engel's "at most once a second"; an hour is long enough for anyone. */
#define CPURNG_CR_FLUSH_MS_MIN	1000U
#define CPURNG_CR_FLUSH_MS_MAX	3600000U

/* A day of full-time collection is more than any boot needs. */
#define CPURNG_CR_FULL_S_MAX	86400U

module_param_named(flush_ms, cpurng_cr_flush_ms, uint, 0444);
MODULE_PARM_DESC(flush_ms, "Period of the zero-credit feed into the input pool in ms (1000-3600000, default 1000)");
module_param_named(full_s, cpurng_cr_full_s, uint, 0444);
MODULE_PARM_DESC(full_s, "Seconds after load with the probes attached all the time (0-86400, default 60)");
module_param_named(window_ms, cpurng_cr_window_ms, uint, 0444);
MODULE_PARM_DESC(window_ms, "After that, ms of each period with the probes attached (1-flush_ms, default 50; flush_ms: always)");
module_param_named(budget, cpurng_cr_budget, uint, 0444);
MODULE_PARM_DESC(budget, "Allocation events a pool (CPU and context) may mix per period before the probes detach until the next one (0: no limit, default 65536)");

/**
 * struct cpurng_cr_rng - one crypto_rng instance
 * @lock: serialises users of the tfm
 * @key: extraction key, replaced after every block
 * @counter: blocks produced
 * @fork_gen: generation of cpurng_cr_forks the key has moved for
 */
struct cpurng_cr_rng {
	struct mutex lock;	/* see @lock above */
	u8 key[CPURNG_CR_DIGEST_BYTES];
	u64 counter;
	unsigned int fork_gen;
};

struct cpurng_fork_watch cpurng_cr_forks;

static atomic64_t cpurng_cr_instances_made;
static atomic64_t cpurng_cr_extracted;

u64 cpurng_cr_extracted_bytes(void)
{
	return atomic64_read(&cpurng_cr_extracted);
}

/* Digest the pools under @r's key, then move the key forward. */
static void cpurng_cr_step(struct cpurng_cr_rng *r, u8 domain, u8 *out,
			   const void *extra, unsigned int extra_len)
{
	u8 digest[CPURNG_CR_DIGEST_BYTES];

	cpurng_cr_digest(digest, domain, r->key, r->counter++,
			 cpurng_cr_pool_at, NULL, cpurng_cr_npools(), extra,
			 extra_len);
	cpurng_cr_rekey(out, r->key, digest);
	memzero_explicit(digest, sizeof(digest));
}

/* Move the key with fresh kernel RNG output after a fork (see the top). */
static void cpurng_cr_after_fork(struct cpurng_cr_rng *r)
{
	unsigned int gen = cpurng_fork_gen(&cpurng_cr_forks);
	u8 fresh[CPURNG_FORK_FRESH_BYTES];

	if (likely(r->fork_gen == gen))
		return;
	get_random_bytes(fresh, sizeof(fresh));
	cpurng_cr_step(r, CPURNG_CR_DOMAIN_FORK, NULL, fresh, sizeof(fresh));
	memzero_explicit(fresh, sizeof(fresh));
	r->fork_gen = gen;
	cpurng_fork_reseeded(&cpurng_cr_forks);
}

static int cpurng_cr_kcapi_init(struct crypto_tfm *tfm)
{
	struct cpurng_cr_rng *r = crypto_tfm_ctx(tfm);
	/* Distinct for every instance even if the pools have not moved. */
	u64 extra[2] = { atomic64_inc_return(&cpurng_cr_instances_made),
			 random_get_entropy() };

	mutex_init(&r->lock);
	memset(r->key, 0, sizeof(r->key));
	r->counter = 0;
	r->fork_gen = cpurng_fork_gen(&cpurng_cr_forks);
	cpurng_cr_step(r, CPURNG_CR_DOMAIN_INIT, NULL, extra, sizeof(extra));
	return 0;
}

static void cpurng_cr_kcapi_exit(struct crypto_tfm *tfm)
{
	struct cpurng_cr_rng *r = crypto_tfm_ctx(tfm);

	memzero_explicit(r->key, sizeof(r->key));
	mutex_destroy(&r->lock);
}

static int cpurng_cr_kcapi_generate(struct crypto_rng *tfm, const u8 *src,
				    unsigned int slen, u8 *dst,
				    unsigned int dlen)
{
	struct cpurng_cr_rng *r = crypto_rng_ctx(tfm);
	u8 block[CPURNG_CR_DIGEST_BYTES];
	unsigned int done = 0, n;

	while (done < dlen) {
		n = min_t(unsigned int, dlen - done, sizeof(block));
		mutex_lock(&r->lock);
		cpurng_cr_after_fork(r);
		/* Additional input goes into the first block's digest. */
		cpurng_cr_step(r, CPURNG_CR_DOMAIN_OUTPUT, block,
			       done ? NULL : src, done ? 0 : slen);
		mutex_unlock(&r->lock);
		memcpy(dst + done, block, n);
		done += n;
		cond_resched();
	}
	atomic64_add(dlen, &cpurng_cr_extracted);
	memzero_explicit(block, sizeof(block));
	return 0;
}

/* A caller's seed moves the key: mixed in, never credited. */
static int cpurng_cr_kcapi_seed(struct crypto_rng *tfm, const u8 *seed,
				unsigned int slen)
{
	struct cpurng_cr_rng *r = crypto_rng_ctx(tfm);

	if (slen > CPURNG_MAX_SEED_INPUT)
		return -EINVAL;
	mutex_lock(&r->lock);
	cpurng_cr_step(r, CPURNG_CR_DOMAIN_SEED, NULL, seed, slen);
	mutex_unlock(&r->lock);
	return 0;
}

static struct rng_alg cpurng_cr_alg = {
	.generate = cpurng_cr_kcapi_generate,
	.seed = cpurng_cr_kcapi_seed,
	.seedsize = 0,
	.base = {
		.cra_name = CPURNG_CR_NAME,
		.cra_driver_name = CPURNG_CR_DRIVER,
		.cra_priority = 100,
		.cra_ctxsize = sizeof(struct cpurng_cr_rng),
		.cra_module = THIS_MODULE,
		.cra_init = cpurng_cr_kcapi_init,
		.cra_exit = cpurng_cr_kcapi_exit,
	},
};

static int __init cpurng_cr_mod_init(void)
{
	int ret;

	ret = cpurng_param_check("flush_ms", cpurng_cr_flush_ms,
				 CPURNG_CR_FLUSH_MS_MIN, CPURNG_CR_FLUSH_MS_MAX) ?:
	      cpurng_param_check("full_s", cpurng_cr_full_s, 0,
				 CPURNG_CR_FULL_S_MAX) ?:
	      cpurng_param_check("window_ms", cpurng_cr_window_ms, 1,
				 cpurng_cr_flush_ms);
	if (ret)
		return ret;

	ret = cpurng_cr_pools_alloc();
	if (ret)
		return ret;
	ret = cpurng_cr_probes_find() ?: cpurng_cr_capture_init();
	if (ret)
		goto err_pools;
	ret = cpurng_cr_period_start();
	if (ret)
		goto err_capture;
	ret = cpurng_fork_watch_start(&cpurng_cr_forks,
				      "every instance moves its key with fresh kernel RNG output before its next block");
	if (ret)
		goto err_period;
	ret = cpurng_cr_status_init();
	if (ret)
		goto err_forks;
	ret = crypto_register_rng(&cpurng_cr_alg);
	if (ret) {
		pr_err("cannot register %s: %d\n", CPURNG_CR_DRIVER, ret);
		goto err_status;
	}
	pr_info("registered %s; feeding the input pool every %u ms without credit; probes attached for %u s, then %u ms per period\n",
		CPURNG_CR_DRIVER, cpurng_cr_flush_ms, cpurng_cr_full_s,
		cpurng_cr_window_ms);
	return 0;

err_status:
	cpurng_cr_status_exit();
err_forks:
	cpurng_fork_watch_stop(&cpurng_cr_forks);
err_period:
	cpurng_cr_period_stop();
err_capture:
	cpurng_cr_capture_exit();
err_pools:
	cpurng_cr_pools_free();
	return ret;
}

/*
 * Order matters: no new users, then no more flushes, then no probe left
 * running anywhere, and only then are the pools wiped and freed.
 */
static void __exit cpurng_cr_mod_exit(void)
{
	crypto_unregister_rng(&cpurng_cr_alg);
	cpurng_cr_status_exit();
	cpurng_fork_watch_stop(&cpurng_cr_forks);
	cpurng_cr_period_stop();
	cpurng_cr_capture_exit();
	cpurng_cr_pools_free();
}

module_init(cpurng_cr_mod_init);
module_exit(cpurng_cr_mod_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("cpurng CPU-randomness collector: zero-credit input pool feed and seed source");
MODULE_ALIAS_CRYPTO(CPURNG_CR_NAME);
MODULE_ALIAS_CRYPTO(CPURNG_CR_DRIVER);
