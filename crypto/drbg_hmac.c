// SPDX-License-Identifier: GPL-2.0
/*
 * HMAC_DRBG, SP800-90A section 10.1.2, over the crypto API's shaN.
 * State: K and V, each outlen bytes.
 *
 * HMAC (FIPS 198-1) is built here on the hash rather than taken from the
 * crypto API's hmac template: every request sets a new K (the Update), and
 * the template's setkey pads and xors the key a byte at a time, which for
 * a 32-byte request costs about as much as a tenth of the request.  The
 * hash states after K ^ ipad and K ^ opad are computed once per key (one
 * compression each) and imported for every HMAC, as the template does.
 */
#include <crypto/hash.h>
#include <linux/minmax.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "../include/cpurng/drbg.h"

/* FIPS 198-1 section 4: the inner and outer pad bytes. */
#define CPURNG_HMAC_IPAD	0x3636363636363636ULL
#define CPURNG_HMAC_OPAD	0x5c5c5c5c5c5c5c5cULL
/* Largest block of the hashes we use (SHA-384/512: 1024 bits). */
#define CPURNG_HMAC_MAX_BLOCK	128

/* K = @key: the hash states after K ^ ipad and K ^ opad (2 compressions). */
static int cpurng_hmac_setkey(struct cpurng_drbg *d, const u8 *key)
{
	struct shash_desc *desc = d->st.hmac.desc;
	unsigned int bs = crypto_shash_blocksize(d->st.hmac.tfm), i;
	u64 pad[CPURNG_HMAC_MAX_BLOCK / 8] = { 0 };
	int ret;

	/* the key (outlen bytes) is never longer than a block */
	memcpy(pad, key, d->mech->outlen);
	for (i = 0; i < bs / 8; i++)
		pad[i] ^= CPURNG_HMAC_IPAD;
	ret = crypto_shash_init(desc) ?:
	      crypto_shash_update(desc, (u8 *)pad, bs) ?:
	      crypto_shash_export(desc, d->st.hmac.ipad);
	for (i = 0; i < bs / 8; i++)
		pad[i] ^= CPURNG_HMAC_IPAD ^ CPURNG_HMAC_OPAD;
	ret = ret ?: crypto_shash_init(desc) ?:
	      crypto_shash_update(desc, (u8 *)pad, bs) ?:
	      crypto_shash_export(desc, d->st.hmac.opad);
	memzero_explicit(pad, sizeof(pad));
	return ret;
}

/*
 * HMAC(K, V || prefix || pieces...), prefix optional: inner hash from the
 * ipad state, outer from the opad state, the inner digest kept in @out.
 * Without pieces (generate's V = HMAC(K, V) and the Update of a request
 * without additional input, once per output block) V and the spare byte
 * after it are hashed in one call.
 */
static int cpurng_hmac(struct cpurng_drbg *d, u8 *out, const u8 *prefix,
		       const struct cpurng_drbg_cat *data)
{
	struct shash_desc *desc = d->st.hmac.desc;
	unsigned int outlen = d->mech->outlen, i;
	int ret;

	ret = crypto_shash_import(desc, d->st.hmac.ipad);
	if (!ret && !cpurng_drbg_cat_len(data)) {
		if (prefix)
			d->st.hmac.V[outlen] = *prefix;
		ret = crypto_shash_finup(desc, d->st.hmac.V,
					 outlen + !!prefix, out);
	} else if (!ret) {
		ret = crypto_shash_update(desc, d->st.hmac.V, outlen);
		if (!ret && prefix)
			ret = crypto_shash_update(desc, prefix, 1);
		for (i = 0; !ret && i < data->n; i++)
			if (data->part[i].len)
				ret = crypto_shash_update(desc, data->part[i].buf,
							  data->part[i].len);
		ret = ret ?: crypto_shash_final(desc, out);
	}
	return ret ?: crypto_shash_import(desc, d->st.hmac.opad) ?:
	       crypto_shash_finup(desc, out, outlen, out);
}

/* 10.1.2.2 HMAC_DRBG_Update(provided_data, K, V). */
static int cpurng_hmac_update(struct cpurng_drbg *d,
			      const struct cpurng_drbg_cat *provided)
{
	static const u8 prefixes[2] = { 0x00, 0x01 };
	unsigned int round;
	int ret = 0;

	for (round = 0; round < 2 && !ret; round++) {
		/* steps 1-2 and 4-5: K = HMAC(K, V || round || data) */
		ret = cpurng_hmac(d, d->st.hmac.K, &prefixes[round], provided) ?:
		      cpurng_hmac_setkey(d, d->st.hmac.K) ?:
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
	size_t desc_size, state;

	tfm = crypto_alloc_shash(d->mech->backend, 0, 0);
	if (IS_ERR(tfm))
		return PTR_ERR(tfm);
	if (crypto_shash_blocksize(tfm) > CPURNG_HMAC_MAX_BLOCK ||
	    crypto_shash_blocksize(tfm) % 8 ||
	    crypto_shash_digestsize(tfm) != d->mech->outlen) {
		crypto_free_shash(tfm);
		return -EINVAL;
	}
	/* one allocation: the descriptor, then the ipad and opad states */
	desc_size = sizeof(*d->st.hmac.desc) + crypto_shash_descsize(tfm);
	state = crypto_shash_statesize(tfm);
	d->st.hmac.desc = kzalloc(desc_size + 2 * state, GFP_KERNEL);
	if (!d->st.hmac.desc) {
		crypto_free_shash(tfm);
		return -ENOMEM;
	}
	d->st.hmac.desc->tfm = tfm;
	d->st.hmac.tfm = tfm;
	d->st.hmac.ipad = (u8 *)d->st.hmac.desc + desc_size;
	d->st.hmac.opad = d->st.hmac.ipad + state;
	return 0;
}

static void cpurng_hmac_free(struct cpurng_drbg *d)
{
	if (d->st.hmac.desc)
		kfree_sensitive(d->st.hmac.desc);
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
	return cpurng_hmac_setkey(d, d->st.hmac.K) ?:
	       cpurng_hmac_update(d, seed);
}

/* 10.1.2.4: Update(entropy || additional input). */
static int cpurng_hmac_reseed(struct cpurng_drbg *d,
			      const struct cpurng_drbg_cat *seed)
{
	return cpurng_hmac_update(d, seed);
}

/* 10.1.2.5. */
/* Update(additional input), or Update() without it. */
static int cpurng_hmac_update_addtl(struct cpurng_drbg *d,
				    const struct cpurng_drbg_input *addtl)
{
	struct cpurng_drbg_cat a = { .part = { *addtl }, .n = 1 };

	return cpurng_hmac_update(d, &a);
}

static int cpurng_hmac_generate(struct cpurng_drbg *d, u8 *out,
				unsigned int len,
				const struct cpurng_drbg_input *addtl)
{
	unsigned int outlen = d->mech->outlen, done = 0, n;
	bool with_addtl = addtl && addtl->len;
	int ret = 0;

	/* step 2 */
	if (with_addtl)
		ret = cpurng_hmac_update_addtl(d, addtl);
	/* steps 3-5: V = HMAC(K, V), output V */
	while (!ret && done < len) {
		ret = cpurng_hmac(d, d->st.hmac.V, NULL, NULL);
		n = min(len - done, outlen);
		memcpy(out + done, d->st.hmac.V, n);
		done += n;
	}
	/* step 6 */
	if (ret)
		return ret;
	return with_addtl ? cpurng_hmac_update_addtl(d, addtl) :
			    cpurng_hmac_update(d, NULL);
}

const struct cpurng_drbg_mech_ops cpurng_drbg_hmac_ops = {
	.alloc = cpurng_hmac_alloc,
	.free = cpurng_hmac_free,
	.instantiate = cpurng_hmac_instantiate,
	.reseed = cpurng_hmac_reseed,
	.generate = cpurng_hmac_generate,
};
