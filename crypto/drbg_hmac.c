// SPDX-License-Identifier: GPL-2.0
/*
 * HMAC_DRBG, SP800-90A section 10.1.2, over the crypto API's hmac(shaN).
 * State: K and V, each outlen bytes.
 */
#include <crypto/hash.h>
#include <linux/minmax.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "../include/cpurng/drbg.h"

/* HMAC(K, V || pieces...), K being the key currently set on the tfm. */
static int cpurng_hmac(struct cpurng_drbg *d, u8 *out, const u8 *prefix,
		       const struct cpurng_drbg_cat *data)
{
	struct shash_desc *desc = d->st.hmac.desc;
	unsigned int i;
	int ret;

	ret = crypto_shash_init(desc) ?:
	      crypto_shash_update(desc, d->st.hmac.V, d->mech->outlen);
	if (!ret && prefix)
		ret = crypto_shash_update(desc, prefix, 1);
	for (i = 0; data && !ret && i < data->n; i++)
		if (data->part[i].len)
			ret = crypto_shash_update(desc, data->part[i].buf,
						  data->part[i].len);
	return ret ?: crypto_shash_final(desc, out);
}

/* 10.1.2.2 HMAC_DRBG_Update(provided_data, K, V). */
static int cpurng_hmac_update(struct cpurng_drbg *d,
			      const struct cpurng_drbg_cat *provided)
{
	static const u8 prefixes[2] = { 0x00, 0x01 };
	unsigned int outlen = d->mech->outlen, round;
	int ret = 0;

	for (round = 0; round < 2 && !ret; round++) {
		/* steps 1-2 and 4-5: K = HMAC(K, V || round || data) */
		ret = cpurng_hmac(d, d->st.hmac.K, &prefixes[round], provided) ?:
		      crypto_shash_setkey(d->st.hmac.tfm, d->st.hmac.K, outlen) ?:
		/* steps 3 and 6: V = HMAC(K, V) */
		      cpurng_hmac(d, d->st.hmac.V, NULL, NULL);
		/* step 3: no provided data, no second round */
		if (!cpurng_drbg_cat_len(provided))
			break;
	}
	return ret;
}

static int cpurng_hmac_alloc(struct cpurng_drbg *d)
{
	struct crypto_shash *tfm;

	tfm = crypto_alloc_shash(d->mech->backend, 0, 0);
	if (IS_ERR(tfm))
		return PTR_ERR(tfm);
	d->st.hmac.desc = kzalloc(sizeof(*d->st.hmac.desc) +
				  crypto_shash_descsize(tfm), GFP_KERNEL);
	if (!d->st.hmac.desc) {
		crypto_free_shash(tfm);
		return -ENOMEM;
	}
	d->st.hmac.desc->tfm = tfm;
	d->st.hmac.tfm = tfm;
	return 0;
}

static void cpurng_hmac_free(struct cpurng_drbg *d)
{
	if (d->st.hmac.desc) {
		shash_desc_zero(d->st.hmac.desc);
		kfree(d->st.hmac.desc);
	}
	crypto_free_shash(d->st.hmac.tfm);
	memzero_explicit(&d->st.hmac, sizeof(d->st.hmac));
}

/* 10.1.2.3: K = 0x00..., V = 0x01..., Update(entropy || nonce || pers). */
static int cpurng_hmac_instantiate(struct cpurng_drbg *d,
				   const struct cpurng_drbg_cat *seed)
{
	unsigned int outlen = d->mech->outlen;

	memset(d->st.hmac.K, 0x00, outlen);
	memset(d->st.hmac.V, 0x01, outlen);
	return crypto_shash_setkey(d->st.hmac.tfm, d->st.hmac.K, outlen) ?:
	       cpurng_hmac_update(d, seed);
}

/* 10.1.2.4: Update(entropy || additional input). */
static int cpurng_hmac_reseed(struct cpurng_drbg *d,
			      const struct cpurng_drbg_cat *seed)
{
	return cpurng_hmac_update(d, seed);
}

/* 10.1.2.5. */
static int cpurng_hmac_generate(struct cpurng_drbg *d, u8 *out,
				unsigned int len,
				const struct cpurng_drbg_input *addtl)
{
	struct cpurng_drbg_cat a = { .n = 0 };
	unsigned int outlen = d->mech->outlen, done = 0, n;
	int ret = 0;

	if (addtl && addtl->len) {
		a.part[0] = *addtl;
		a.n = 1;
		/* step 2 */
		ret = cpurng_hmac_update(d, &a);
	}
	/* steps 3-5: V = HMAC(K, V), output V */
	while (!ret && done < len) {
		ret = cpurng_hmac(d, d->st.hmac.V, NULL, NULL);
		n = min(len - done, outlen);
		memcpy(out + done, d->st.hmac.V, n);
		done += n;
	}
	/* step 6 */
	return ret ?: cpurng_hmac_update(d, &a);
}

const struct cpurng_drbg_mech_ops cpurng_drbg_hmac_ops = {
	.alloc = cpurng_hmac_alloc,
	.free = cpurng_hmac_free,
	.instantiate = cpurng_hmac_instantiate,
	.reseed = cpurng_hmac_reseed,
	.generate = cpurng_hmac_generate,
};
