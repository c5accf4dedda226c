// SPDX-License-Identifier: GPL-2.0
/*
 * CTR_DRBG with derivation function, SP800-90A section 10.2.1, AES-128/192/
 * 256.  State: Key (keylen bytes) and V (16 bytes); seedlen = keylen + 16.
 *
 * Keystream, for the output and for CTR_DRBG_Update, comes from the crypto
 * API's ctr(aes) in one call per buffer: CTR mode increments the whole
 * 128-bit counter block, which is the ctr_len = blocklen case of 10.2.1.
 * Only that transform holds the key, so a new Key costs one key schedule.
 * The derivation function (10.3.2), run only for seed material and
 * additional input, uses the AES library on single blocks.
 */
#include <crypto/aes.h>
#include <crypto/skcipher.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "../include/cpurng/compat.h"
#include "../include/cpurng/drbg.h"

/*
 * Output that cannot be mapped for the scatterlist (the stack, vmalloc
 * memory) goes through this much scratch per instance: AF_ALG reads are
 * at most 128 bytes.  The scratch holds zeros between uses (allocated
 * zeroed, wiped after each use), so keystream is encrypted into it
 * without clearing it first.
 */
#define CPURNG_CTR_SCRATCH	512

/* V + n mod 2^128 (big endian). */
static void cpurng_ctr_add(u8 v[CPURNG_DRBG_AES_BLOCK], u64 n)
{
	u64 lo = get_unaligned_be64(v + 8), hi = get_unaligned_be64(v);

	lo += n;
	if (lo < n)
		hi++;
	put_unaligned_be64(hi, v);
	put_unaligned_be64(lo, v + 8);
}

/*
 * AES-CTR keystream from counter V + 1 into @dst, @len bytes in all: the
 * encryption of @src, which must hold zeros (@src may be @dst).  The
 * transform may be asynchronous (the SIMD drivers are); we wait for it.
 */
static int cpurng_ctr_keystream_sg(struct cpurng_drbg *d,
				   struct scatterlist *src,
				   struct scatterlist *dst, unsigned int len)
{
	struct skcipher_request *req = d->st.ctr.req;
	DECLARE_CRYPTO_WAIT(wait);
	u8 iv[CPURNG_DRBG_AES_BLOCK];
	int ret;

	memcpy(iv, d->st.ctr.V, sizeof(iv));
	cpurng_ctr_add(iv, 1);
	skcipher_request_set_callback(req, CRYPTO_TFM_REQ_MAY_BACKLOG |
				      CRYPTO_TFM_REQ_MAY_SLEEP,
				      crypto_req_done, &wait);
	skcipher_request_set_crypt(req, src, dst, len, iv);
	ret = crypto_wait_req(crypto_skcipher_encrypt(req), &wait);
	memzero_explicit(iv, sizeof(iv));
	/* 10.2.1.5.2 step 4: V advanced by one per block, partial ones too */
	cpurng_ctr_add(d->st.ctr.V, DIV_ROUND_UP(len, CPURNG_DRBG_AES_BLOCK));
	return ret;
}

static int cpurng_ctr_keystream(struct cpurng_drbg *d, u8 *buf,
				unsigned int len)
{
	struct scatterlist sg;

	sg_init_one(&sg, buf, len);
	return cpurng_ctr_keystream_sg(d, &sg, &sg, len);
}

/*
 * Take Key and V from seedlen bytes of keystream xor provided data.  The
 * key is not kept: the transform's key schedule is the only copy.
 */
static int cpurng_ctr_rekey(struct cpurng_drbg *d, u8 *temp,
			    const u8 *provided)
{
	unsigned int keylen = d->mech->keylen, seedlen = d->mech->seedlen, i;

	for (i = 0; provided && i < seedlen; i++)
		temp[i] ^= provided[i];
	memcpy(d->st.ctr.V, temp + keylen, CPURNG_DRBG_AES_BLOCK);
	return crypto_skcipher_setkey(d->st.ctr.ctr, temp, keylen);
}

/* 10.2.1.2 CTR_DRBG_Update(provided_data): provided is seedlen or NULL. */
static int cpurng_ctr_update(struct cpurng_drbg *d, const u8 *provided)
{
	unsigned int seedlen = d->mech->seedlen;
	u8 *temp = d->st.ctr.scratch;
	int ret;

	ret = cpurng_ctr_keystream(d, temp, seedlen) ?:
	      cpurng_ctr_rekey(d, temp, provided);
	memzero_explicit(temp, seedlen);
	return ret;
}

static void cpurng_ctr_free(struct cpurng_drbg *d)
{
	kfree_sensitive(d->st.ctr.scratch);
	skcipher_request_free(d->st.ctr.req);
	crypto_free_skcipher(d->st.ctr.ctr);
	memzero_explicit(&d->st.ctr, sizeof(d->st.ctr));
}

/* BCC (10.3.3) over a byte stream, block by block. */
struct cpurng_bcc {
	struct cpurng_aes_key *aes;
	u8 chain[CPURNG_DRBG_AES_BLOCK];
	unsigned int pos;
};

static void cpurng_bcc_feed(struct cpurng_bcc *b, const u8 *data, size_t len)
{
	while (len--) {
		b->chain[b->pos++] ^= *data++;
		if (b->pos == CPURNG_DRBG_AES_BLOCK) {
			aes_encrypt(b->aes, b->chain, b->chain);
			b->pos = 0;
		}
	}
}

/*
 * 10.3.2 Block_Cipher_df(input, seedlen) over the pieces of @in:
 * S = L || N || input || 0x80 || zero padding; BCC(K, IV_i || S) for the
 * new key and X; then encrypt X repeatedly for the output.
 */
static int cpurng_ctr_df(struct cpurng_drbg *d, u8 *out,
			 const struct cpurng_drbg_cat *in)
{
	static const u8 pad[CPURNG_DRBG_AES_BLOCK] = { 0x80 };
	unsigned int keylen = d->mech->keylen, seedlen = d->mech->seedlen;
	size_t inlen = cpurng_drbg_cat_len(in), slen;
	u8 temp[CPURNG_DRBG_MAX_CTR_SEEDLEN], ln[8], key[32];
	u8 iv[CPURNG_DRBG_AES_BLOCK] = { 0 };
	struct cpurng_aes_key *aes = d->st.ctr.aes;
	struct cpurng_bcc b = { .aes = aes };
	unsigned int i, j, done;
	int ret;

	put_unaligned_be32(inlen, ln);
	put_unaligned_be32(seedlen, ln + 4);
	/* S is padded with 0x80 and zeros to a multiple of the block size */
	slen = sizeof(ln) + inlen + 1;
	slen = round_up(slen, CPURNG_DRBG_AES_BLOCK);

	/* steps 8-10: K = 0x00 01 02 ..., temp = BCC(K, IV_i || S), i = 0.. */
	for (i = 0; i < keylen; i++)
		key[i] = i;
	ret = cpurng_aes_setkey(aes, key, keylen);
	for (i = 0, done = 0; !ret && done < keylen + CPURNG_DRBG_AES_BLOCK;
	     i++, done += CPURNG_DRBG_AES_BLOCK) {
		memset(b.chain, 0, sizeof(b.chain));
		b.pos = 0;
		put_unaligned_be32(i, iv);
		cpurng_bcc_feed(&b, iv, sizeof(iv));
		cpurng_bcc_feed(&b, ln, sizeof(ln));
		for (j = 0; j < in->n; j++)
			cpurng_bcc_feed(&b, in->part[j].buf, in->part[j].len);
		cpurng_bcc_feed(&b, pad, slen - sizeof(ln) - inlen);
		memcpy(temp + done, b.chain, CPURNG_DRBG_AES_BLOCK);
	}

	/* steps 11-15: K = leftmost keylen of temp, X = next block */
	if (!ret)
		ret = cpurng_aes_setkey(aes, temp, keylen);
	for (done = 0; !ret && done < seedlen; done += CPURNG_DRBG_AES_BLOCK) {
		u8 *x = temp + keylen;

		aes_encrypt(aes, x, x);
		memcpy(out + done, x,
		       min_t(unsigned int, CPURNG_DRBG_AES_BLOCK,
			     seedlen - done));
	}
	memzero_explicit(temp, sizeof(temp));
	memzero_explicit(key, sizeof(key));
	memzero_explicit(&b, sizeof(b));
	memzero_explicit(aes, sizeof(*aes));
	return ret;
}

static int cpurng_ctr_alloc(struct cpurng_drbg *d)
{
	struct crypto_skcipher *ctr;

	ctr = crypto_alloc_skcipher("ctr(aes)", 0, 0);
	if (IS_ERR(ctr))
		return PTR_ERR(ctr);
	d->st.ctr.ctr = ctr;
	d->st.ctr.req = skcipher_request_alloc(ctr, GFP_KERNEL);
	/* scratch: output bounce buffer, then the df's AES context */
	d->st.ctr.scratch = kzalloc(CPURNG_CTR_SCRATCH +
				    sizeof(struct cpurng_aes_key), GFP_KERNEL);
	if (!d->st.ctr.req || !d->st.ctr.scratch) {
		cpurng_ctr_free(d);
		return -ENOMEM;
	}
	d->st.ctr.aes = (struct cpurng_aes_key *)(d->st.ctr.scratch +
						  CPURNG_CTR_SCRATCH);
	return 0;
}

/* 10.2.1.3.2: Key = 0, V = 0, Update(df(entropy || nonce || pers)). */
static int cpurng_ctr_instantiate(struct cpurng_drbg *d,
				  const struct cpurng_drbg_cat *seed)
{
	static const u8 zero_key[AES_MAX_KEY_SIZE];
	u8 material[CPURNG_DRBG_MAX_CTR_SEEDLEN];
	int ret;

	memset(d->st.ctr.V, 0, sizeof(d->st.ctr.V));
	ret = crypto_skcipher_setkey(d->st.ctr.ctr, zero_key,
				     d->mech->keylen) ?:
	      cpurng_ctr_df(d, material, seed) ?:
	      cpurng_ctr_update(d, material);
	memzero_explicit(material, sizeof(material));
	return ret;
}

/* 10.2.1.4.2: Update(df(entropy || addtl)). */
static int cpurng_ctr_reseed(struct cpurng_drbg *d,
			     const struct cpurng_drbg_cat *seed)
{
	u8 material[CPURNG_DRBG_MAX_CTR_SEEDLEN];
	int ret;

	ret = cpurng_ctr_df(d, material, seed) ?:
	      cpurng_ctr_update(d, material);
	memzero_explicit(material, sizeof(material));
	return ret;
}

/* Generate and Update from a single keystream (see the caller). */
static int cpurng_ctr_short(struct cpurng_drbg *d, u8 *out, unsigned int len,
			    const u8 *provided)
{
	unsigned int blocks = round_up(len, CPURNG_DRBG_AES_BLOCK);
	u8 *ks = d->st.ctr.scratch;
	int ret;

	ret = cpurng_ctr_keystream(d, ks, blocks + d->mech->seedlen);
	if (!ret) {
		memcpy(out, ks, len);
		ret = cpurng_ctr_rekey(d, ks + blocks, provided);
	}
	memzero_explicit(ks, blocks + d->mech->seedlen);
	return ret;
}

/* Memory the scatterlist can map directly (not the stack, not vmalloc). */
static bool cpurng_ctr_mappable(const u8 *buf, unsigned int len)
{
	return virt_addr_valid(buf) && virt_addr_valid(buf + len - 1);
}

/*
 * Generate and Update from a single keystream, the output written in
 * place: the whole blocks go straight to @out, and the last partial block
 * and the Update's seedlen bytes to the scratch, in one call of the cipher
 * (a call costs a scatterlist walk, about a tenth of what 4 KiB of
 * keystream costs).  Up to a page of output is encrypted from the zero
 * page instead of being cleared first.  @out must be mappable.
 */
static int cpurng_ctr_long(struct cpurng_drbg *d, u8 *out, unsigned int len,
			   const u8 *provided)
{
	unsigned int whole = round_down(len, CPURNG_DRBG_AES_BLOCK);
	unsigned int part = len - whole;
	unsigned int tail = (part ? CPURNG_DRBG_AES_BLOCK : 0) +
			    d->mech->seedlen;
	struct scatterlist src[2], dst[2];
	u8 *ks = d->st.ctr.scratch;
	int ret;

	sg_init_table(dst, 2);
	sg_set_buf(&dst[0], out, whole);
	sg_set_buf(&dst[1], ks, tail);
	sg_init_table(src, 2);
	if (whole <= PAGE_SIZE) {
		sg_set_page(&src[0], ZERO_PAGE(0), whole, 0);
	} else {
		memset(out, 0, whole);
		sg_set_buf(&src[0], out, whole);
	}
	sg_set_buf(&src[1], ks, tail);
	ret = cpurng_ctr_keystream_sg(d, src, dst, whole + tail);
	if (!ret) {
		memcpy(out + whole, ks, part);
		ret = cpurng_ctr_rekey(d, ks + tail - d->mech->seedlen,
				       provided);
	}
	memzero_explicit(ks, tail);
	return ret;
}

/* 10.2.1.5.2 steps 3-6: output and Update(provided), provided optional. */
static int cpurng_ctr_output(struct cpurng_drbg *d, u8 *out, unsigned int len,
			     const u8 *provided)
{
	unsigned int done, n;
	int ret = 0;

	/*
	 * Short request: one keystream for the output blocks and the Update
	 * that follows, since the Update counts on from where the output
	 * stopped (V + blocks + 1, ...).
	 */
	if (!cpurng_drbg_test_ctr_long() &&
	    round_up(len, CPURNG_DRBG_AES_BLOCK) + d->mech->seedlen <=
	    CPURNG_CTR_SCRATCH)
		return cpurng_ctr_short(d, out, len, provided);

	/* the same with the output in place */
	if (cpurng_ctr_mappable(out, len))
		return cpurng_ctr_long(d, out, len, provided);

	/* steps 3-5 through the scratch: keystream from V + 1 */
	for (done = 0; !ret && done < len; done += n) {
		n = min_t(unsigned int, len - done, CPURNG_CTR_SCRATCH);
		ret = cpurng_ctr_keystream(d, d->st.ctr.scratch, n);
		memcpy(out + done, d->st.ctr.scratch, n);
		memzero_explicit(d->st.ctr.scratch, n);
	}

	/* step 6: Update(additional input) */
	return ret ?: cpurng_ctr_update(d, provided);
}

/*
 * 10.2.1.5.2.  The df's output lives on the stack only for requests with
 * additional input: the kernel zeroes stack arrays on every call
 * (CONFIG_INIT_STACK_ALL_ZERO), a cost every short request would pay.
 */
static int cpurng_ctr_generate_addtl(struct cpurng_drbg *d, u8 *out,
				     unsigned int len,
				     const struct cpurng_drbg_input *addtl)
{
	struct cpurng_drbg_cat a = { .part = { *addtl }, .n = 1 };
	u8 material[CPURNG_DRBG_MAX_CTR_SEEDLEN];
	int ret;

	/* step 2: additional input through the df, then Update */
	ret = cpurng_ctr_df(d, material, &a) ?:
	      cpurng_ctr_update(d, material) ?:
	      cpurng_ctr_output(d, out, len, material);
	memzero_explicit(material, sizeof(material));
	return ret;
}

static int cpurng_ctr_generate(struct cpurng_drbg *d, u8 *out,
			       unsigned int len,
			       const struct cpurng_drbg_input *addtl)
{
	if (addtl && addtl->len)
		return cpurng_ctr_generate_addtl(d, out, len, addtl);
	return cpurng_ctr_output(d, out, len, NULL);
}

const struct cpurng_drbg_mech_ops cpurng_drbg_ctr_ops = {
	.alloc = cpurng_ctr_alloc,
	.free = cpurng_ctr_free,
	.instantiate = cpurng_ctr_instantiate,
	.reseed = cpurng_ctr_reseed,
	.generate = cpurng_ctr_generate,
};
