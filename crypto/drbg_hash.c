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
 * Word @k, counted from the right, of the big-endian number @p of @len
 * bytes: 0 beyond its top, and only the bytes it has in its top word.
 */
static u64 cpurng_hash_word(const u8 *p, unsigned int len, unsigned int k)
{
	unsigned int end = len - min(len, 8 * k), i;
	u64 w = 0;

	if (end >= 8)
		return get_unaligned_be64(p + end - 8);
	for (i = 0; i < end; i++)
		w = w << 8 | p[i];
	return w;
}

static void cpurng_hash_put_word(u8 *p, unsigned int len, unsigned int k,
				 u64 w)
{
	unsigned int end = len - 8 * k;

	if (end >= 8) {
		put_unaligned_be64(w, p + end - 8);
		return;
	}
	while (end--) {
		p[end] = w;
		w >>= 8;
	}
}

/*
 * dst = dst + a mod 2^(8 * dlen), both big endian, a right-aligned and at
 * most dlen bytes (step 2's V + w).  A 64-bit word at a time from the
 * right, stopping once a is exhausted and no carry is left.
 */
static void cpurng_hash_add(u8 *dst, unsigned int dlen, const u8 *a,
			    unsigned int alen)
{
	unsigned int words = DIV_ROUND_UP(dlen, 8), k;
	u64 carry = 0, sum, x;

	for (k = 0; k < words && (8 * k < alen || carry); k++) {
		x = cpurng_hash_word(a, alen, k);
		sum = cpurng_hash_word(dst, dlen, k) + x;
		x = sum < x;
		sum += carry;
		carry = x + (sum < carry);
		cpurng_hash_put_word(dst, dlen, k, sum);
	}
}

/*
 * 10.1.1.4 step 5: V = V + H + C + reseed_counter mod 2^seedlen, once per
 * request.  V and C have the same length, so their words line up: a word
 * at a time from the right, then the top bytes seedlen leaves over.
 */
static void cpurng_hash_step5(struct cpurng_drbg *d, const u8 *h, u64 ctr)
{
	unsigned int seedlen = d->mech->seedlen, outlen = d->mech->outlen;
	unsigned int words = seedlen / 8, k, i;
	const u8 *c = d->st.hash.C;
	u8 *v = d->st.hash.V;
	u64 carry = 0, sum, x, y, z;

	for (k = 0; k < words; k++) {
		unsigned int off = seedlen - 8 * (k + 1);

		x = get_unaligned_be64(v + off);
		y = get_unaligned_be64(c + off);
		sum = x + y;
		x = sum < y;
		/* the counter is a 64-bit number: the rightmost word only */
		z = k ? 0 : ctr;
		y = cpurng_hash_word(h, outlen, k) + z;
		x += y < z;
		sum += y;
		x += sum < y;
		sum += carry;
		x += sum < carry;
		carry = x;
		put_unaligned_be64(sum, v + off);
	}
	/* H (at most 64 bytes) never reaches the top bytes */
	for (i = seedlen - 8 * words; i--; carry >>= 8) {
		carry += v[i] + c[i];
		v[i] = carry;
	}
}

/* p = p + 1 mod 2^(8 * len), big endian: Hashgen's counter. */
static void cpurng_hash_inc(u8 *p, unsigned int len)
{
	while (len-- && !++p[len])
		;
}

/* p = p - k mod 2^(8 * len), big endian: Hashgen's counter put back. */
static void cpurng_hash_sub(u8 *p, unsigned int len, unsigned int k)
{
	unsigned int b;

	while (len-- && k) {
		b = p[len];
		p[len] = b - (k & 0xff);
		k = (k >> 8) + (b < (k & 0xff));
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

/* Hash(buf): one piece of input. */
static int cpurng_hash_buf(struct cpurng_drbg *d, u8 *out, const u8 *buf,
			   unsigned int len)
{
	struct shash_desc *desc = d->st.hash.desc;

	return crypto_shash_init(desc) ?:
	       crypto_shash_update(desc, buf, len) ?:
	       crypto_shash_final(desc, out);
}

/* 10.1.1.4 step 2: w = Hash(0x02 || V || addtl), V = V + w. */
static int cpurng_hash_addtl(struct cpurng_drbg *d,
			     const struct cpurng_drbg_input *addtl)
{
	static const u8 prefix2 = 0x02;
	struct cpurng_drbg_cat a = { .part = { *addtl }, .n = 1 };
	int ret;

	ret = cpurng_hash(d, d->st.hash.w, &prefix2, 1, d->st.hash.V, &a);
	if (!ret)
		cpurng_hash_add(d->st.hash.V, d->mech->seedlen, d->st.hash.w,
				d->mech->outlen);
	return ret;
}

/* 10.1.1.4, with Hashgen inline. */
static int cpurng_hash_generate(struct cpurng_drbg *d, u8 *out,
				unsigned int len,
				const struct cpurng_drbg_input *addtl)
{
	unsigned int seedlen = d->mech->seedlen, outlen = d->mech->outlen;
	unsigned int done = 0, n, steps = 0;
	u8 *w = d->st.hash.w;
	int ret = 0;

	if (addtl && addtl->len)
		ret = cpurng_hash_addtl(d, addtl);

	/*
	 * step 3, Hashgen: output Hash(V), Hash(V + 1), ...  V + i is seedlen
	 * bytes, which with the padding fills exactly one block (SP800-90A
	 * 10.1 Table 2).  V itself serves as the counter and is put back
	 * afterwards: no copy of the state to make and to wipe.
	 */
	while (!ret && done < len) {
		n = min(len - done, outlen);
		ret = cpurng_hash_buf(d, n == outlen ? out + done : w,
				      d->st.hash.V, seedlen);
		if (!ret && n < outlen)
			memcpy(out + done, w, n);
		done += n;
		if (done < len) {
			cpurng_hash_inc(d->st.hash.V, seedlen);
			steps++;
		}
	}
	cpurng_hash_sub(d->st.hash.V, seedlen, steps);

	/* steps 4-5: H = Hash(0x03 || V), V = V + H + C + reseed_counter */
	BUILD_BUG_ON(offsetof(struct cpurng_drbg, st.hash.V) !=
		     offsetof(struct cpurng_drbg, st.hash.prefix) + 1);
	if (!ret) {
		d->st.hash.prefix = 0x03;
		ret = cpurng_hash_buf(d, w, &d->st.hash.prefix, seedlen + 1);
	}
	if (!ret)
		cpurng_hash_step5(d, w, d->reseed_ctr);
	memzero_explicit(w, outlen);
	return ret;
}

const struct cpurng_drbg_mech_ops cpurng_drbg_hash_ops = {
	.alloc = cpurng_hash_alloc,
	.free = cpurng_hash_free,
	.instantiate = cpurng_hash_instantiate,
	.reseed = cpurng_hash_reseed,
	.generate = cpurng_hash_generate,
};
