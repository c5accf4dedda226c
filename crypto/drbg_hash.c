// SPDX-License-Identifier: GPL-2.0
/*
 * Hash_DRBG, SP800-90A section 10.1.1, over the crypto API's shaN.
 * State: V and C, each seedlen bytes (55 for SHA-1/256, 111 for SHA-384/512).
 */
#include <crypto/hash.h>
#include <linux/minmax.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "../include/cpurng/compat.h"
#include "../include/cpurng/drbg.h"

/*
 * dst = dst + a + b + c mod 2^(8 * dlen), all big endian, each addend
 * right-aligned and at most dlen bytes (NULL and 0 for none): one pass,
 * stopping once the addends are exhausted and no carry is left.
 */
static void cpurng_hash_add(u8 *dst, unsigned int dlen, const u8 *a,
			    unsigned int alen, const u8 *b, unsigned int blen,
			    const u8 *c, unsigned int clen)
{
	unsigned int carry = 0, i, longest = max3(alen, blen, clen);

	for (i = 1; i <= dlen && (i <= longest || carry); i++) {
		carry += dst[dlen - i];
		if (i <= alen)
			carry += a[alen - i];
		if (i <= blen)
			carry += b[blen - i];
		if (i <= clen)
			carry += c[clen - i];
		dst[dlen - i] = carry;
		carry >>= 8;
	}
}

/*
 * Hash(head || V || data...) where head is 0 to 5 bytes (prefix, or the
 * Hash_df counter and length) and V is optional.
 */
static int cpurng_hash(struct cpurng_drbg *d, u8 *out, const u8 *head,
		       unsigned int head_len, const u8 *v,
		       const struct cpurng_drbg_cat *data)
{
	struct shash_desc *desc = d->st.hash.desc;
	unsigned int i;
	int ret;

	ret = crypto_shash_init(desc);
	if (!ret && head_len)
		ret = crypto_shash_update(desc, head, head_len);
	if (!ret && v)
		ret = crypto_shash_update(desc, v, d->mech->seedlen);
	for (i = 0; data && !ret && i < data->n; i++)
		if (data->part[i].len)
			ret = crypto_shash_update(desc, data->part[i].buf,
						  data->part[i].len);
	return ret ?: crypto_shash_final(desc, out);
}

/*
 * 10.3.1 Hash_df(prefix || V || data, seedlen): concatenate
 * Hash(counter || no_of_bits_to_return || input) for counter = 1, 2, ...
 * A prefix of -1 means none.
 */
static int cpurng_hash_df(struct cpurng_drbg *d, u8 *out, int prefix,
			  const u8 *v, const struct cpurng_drbg_cat *data)
{
	unsigned int seedlen = d->mech->seedlen, done = 0, n;
	u8 head[6], tmp[CPURNG_DRBG_MAX_OUTLEN];
	int ret = 0;

	head[0] = 1;
	put_unaligned_be32(seedlen * 8, &head[1]);
	head[5] = prefix;
	while (!ret && done < seedlen) {
		ret = cpurng_hash(d, tmp, head, prefix < 0 ? 5 : 6, v, data);
		n = min_t(unsigned int, seedlen - done, d->mech->outlen);
		memcpy(out + done, tmp, n);
		done += n;
		head[0]++;
	}
	memzero_explicit(tmp, sizeof(tmp));
	return ret;
}

/* C = Hash_df(0x00 || V, seedlen), the last step of 10.1.1.2 and 10.1.1.3. */
static int cpurng_hash_derive_c(struct cpurng_drbg *d)
{
	return cpurng_hash_df(d, d->st.hash.C, 0x00, d->st.hash.V, NULL);
}

static int cpurng_hash_alloc(struct cpurng_drbg *d)
{
	struct crypto_shash *tfm;

	tfm = crypto_alloc_shash(d->mech->backend, 0, 0);
	if (IS_ERR(tfm))
		return PTR_ERR(tfm);
	d->st.hash.desc = kzalloc(sizeof(*d->st.hash.desc) +
				  crypto_shash_descsize(tfm), GFP_KERNEL);
	if (!d->st.hash.desc) {
		crypto_free_shash(tfm);
		return -ENOMEM;
	}
	d->st.hash.desc->tfm = tfm;
	d->st.hash.tfm = tfm;
	return 0;
}

static void cpurng_hash_free(struct cpurng_drbg *d)
{
	if (d->st.hash.desc) {
		shash_desc_zero(d->st.hash.desc);
		kfree(d->st.hash.desc);
	}
	crypto_free_shash(d->st.hash.tfm);
	memzero_explicit(&d->st.hash, sizeof(d->st.hash));
}

/* 10.1.1.2: V = Hash_df(entropy || nonce || pers), C = Hash_df(0x00 || V). */
static int cpurng_hash_instantiate(struct cpurng_drbg *d,
				   const struct cpurng_drbg_cat *seed)
{
	return cpurng_hash_df(d, d->st.hash.V, -1, NULL, seed) ?:
	       cpurng_hash_derive_c(d);
}

/* 10.1.1.3: V = Hash_df(0x01 || V || entropy || addtl), C as above. */
static int cpurng_hash_reseed(struct cpurng_drbg *d,
			      const struct cpurng_drbg_cat *seed)
{
	u8 v[CPURNG_DRBG_MAX_SEEDLEN];
	int ret;

	memcpy(v, d->st.hash.V, d->mech->seedlen);
	ret = cpurng_hash_df(d, d->st.hash.V, 0x01, v, seed) ?:
	      cpurng_hash_derive_c(d);
	memzero_explicit(v, sizeof(v));
	return ret;
}

/* 10.1.1.4, with Hashgen inline. */
static int cpurng_hash_generate(struct cpurng_drbg *d, u8 *out,
				unsigned int len,
				const struct cpurng_drbg_input *addtl)
{
	static const u8 prefix2 = 0x02, prefix3 = 0x03;
	unsigned int seedlen = d->mech->seedlen, outlen = d->mech->outlen;
	u8 data[CPURNG_DRBG_MAX_SEEDLEN], w[CPURNG_DRBG_MAX_OUTLEN];
	struct cpurng_drbg_cat a = { .n = 0 };
	unsigned int done = 0, n;
	__be64 counter;
	static const u8 one = 1;
	int ret = 0;

	/* step 2: w = Hash(0x02 || V || addtl), V = V + w */
	if (addtl && addtl->len) {
		a.part[0] = *addtl;
		a.n = 1;
		ret = cpurng_hash(d, w, &prefix2, 1, d->st.hash.V, &a);
		if (!ret)
			cpurng_hash_add(d->st.hash.V, seedlen, w, outlen,
					NULL, 0, NULL, 0);
	}

	/* step 3, Hashgen: data = V; output Hash(data), data + 1, ... */
	memcpy(data, d->st.hash.V, seedlen);
	while (!ret && done < len) {
		struct cpurng_drbg_cat v = {
			.part = { { data, seedlen } }, .n = 1,
		};

		n = min(len - done, outlen);
		if (n == outlen) {
			ret = cpurng_hash(d, out + done, NULL, 0, NULL, &v);
		} else {
			ret = cpurng_hash(d, w, NULL, 0, NULL, &v);
			memcpy(out + done, w, n);
		}
		done += n;
		cpurng_hash_add(data, seedlen, &one, 1, NULL, 0, NULL, 0);
	}

	/* steps 4-5: H = Hash(0x03 || V), V = V + H + C + reseed_counter */
	if (!ret)
		ret = cpurng_hash(d, w, &prefix3, 1, d->st.hash.V, NULL);
	if (!ret) {
		counter = cpu_to_be64(d->reseed_ctr);
		cpurng_hash_add(d->st.hash.V, seedlen, w, outlen,
				d->st.hash.C, seedlen, (u8 *)&counter,
				sizeof(counter));
	}
	memzero_explicit(data, sizeof(data));
	memzero_explicit(w, sizeof(w));
	return ret;
}

const struct cpurng_drbg_mech_ops cpurng_drbg_hash_ops = {
	.alloc = cpurng_hash_alloc,
	.free = cpurng_hash_free,
	.instantiate = cpurng_hash_instantiate,
	.reseed = cpurng_hash_reseed,
	.generate = cpurng_hash_generate,
};
