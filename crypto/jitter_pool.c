// SPDX-License-Identifier: GPL-2.0
/*
 * CPU Jitter RNG conditioning: raw samples are hashed with SHA-256, the
 * kernel crypto API's self-tested implementation (SP800-90B 3.1.5.1.1 lists
 * SHA-256 among the vetted conditioning functions).
 *
 * Extraction turns the running hash D into two values with a one-byte
 * domain separator: the output block SHA-256(0x01 || D) and the chaining
 * value SHA-256(0x02 || D), which alone seeds the next block's hash.  The
 * state kept after a block therefore holds nothing from which that block
 * (or an earlier one) can be recomputed: that would take D, and D is gone.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <crypto/hash.h>
#include <crypto/sha2.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "../include/cpurng/jitter.h"

#define CPURNG_JENT_DOMAIN_OUTPUT	0x01
#define CPURNG_JENT_DOMAIN_CHAIN	0x02

/* One tfm serves every instance; each instance has its own descriptor. */
static struct crypto_shash *cpurng_jent_sha256;

int cpurng_jent_pool_setup(void)
{
	struct crypto_shash *tfm = crypto_alloc_shash("sha256", 0, 0);

	if (IS_ERR(tfm)) {
		pr_err("cannot allocate the SHA-256 conditioner: %ld\n",
		       PTR_ERR(tfm));
		return PTR_ERR(tfm);
	}
	cpurng_jent_sha256 = tfm;
	return 0;
}

void cpurng_jent_pool_teardown(void)
{
	crypto_free_shash(cpurng_jent_sha256);
	cpurng_jent_sha256 = NULL;
}

int cpurng_jent_pool_init(struct cpurng_jent_pool *pool)
{
	struct shash_desc *desc;
	int ret;

	desc = kzalloc(sizeof(*desc) +
		       crypto_shash_descsize(cpurng_jent_sha256), GFP_KERNEL);
	if (!desc)
		return -ENOMEM;
	desc->tfm = cpurng_jent_sha256;
	ret = crypto_shash_init(desc);
	if (ret) {
		kfree_sensitive(desc);
		return ret;
	}
	pool->desc = desc;
	return 0;
}

void cpurng_jent_pool_free(struct cpurng_jent_pool *pool)
{
	if (!pool->desc)
		return;
	shash_desc_zero(pool->desc);
	kfree(pool->desc);
	pool->desc = NULL;
}

int cpurng_jent_pool_absorb(struct cpurng_jent_pool *pool, const void *data,
			    unsigned int len)
{
	return crypto_shash_update(pool->desc, data, len);
}

int cpurng_jent_pool_extract(struct cpurng_jent_pool *pool,
			     u8 out[CPURNG_JENT_BLOCK_BYTES])
{
	u8 buf[1 + SHA256_DIGEST_SIZE];
	u8 chain[SHA256_DIGEST_SIZE];
	int ret;

	ret = crypto_shash_final(pool->desc, buf + 1);
	if (ret)
		goto out;

	buf[0] = CPURNG_JENT_DOMAIN_OUTPUT;
	ret = crypto_shash_tfm_digest(cpurng_jent_sha256, buf, sizeof(buf),
				      out);
	if (ret)
		goto out;
	buf[0] = CPURNG_JENT_DOMAIN_CHAIN;
	ret = crypto_shash_tfm_digest(cpurng_jent_sha256, buf, sizeof(buf),
				      chain);
	if (ret)
		goto out;

	ret = crypto_shash_init(pool->desc) ?:
	      crypto_shash_update(pool->desc, chain, sizeof(chain));
out:
	memzero_explicit(buf, sizeof(buf));
	memzero_explicit(chain, sizeof(chain));
	return ret;
}
