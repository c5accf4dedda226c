// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for the SP800-90A DRBG core and mechanisms of cpurng_drbg.
 *
 * HMAC_DRBG (10.1.2) and Hash_DRBG (10.1.1) with SHA-256 are run side by
 * side with a straight-line reference written here from the standard's
 * pseudocode over the crypto API's "hmac(sha256)" and "sha256": the same
 * instantiate, generate (with and without additional input, whole and
 * partial blocks), reseed and generate again must give the same bytes.
 * Hash_DRBG's V update adds the reseed counter (10.1.1.4 step 6), so a
 * counter that does not advance shows as different output.  For every
 * mechanism, CTR_DRBG included, the counter itself and the refusal of bad
 * requests are checked.  The known answers of the standard's test vectors
 * are the module's own self-test and the CAVP VM test (drbg_cavp_vectors).
 *
 * cpurng_drbg exports what this calls only when the kernel has KUnit
 * (EXPORT_SYMBOL_IF_KUNIT).
 */
#include <crypto/hash.h>
#include <kunit/test.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "../../include/cpurng/drbg.h"

CPURNG_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

#define T_OUTLEN	32	/* SHA-256 */
#define T_SEEDLEN	55	/* 10.1 Table 2: 440 bits for SHA-256 */

struct piece {
	const u8 *buf;
	size_t len;
};

/* --- reference HMAC_DRBG (SP800-90A 10.1.2) ------------------------------ */

/*
 * The state of either reference: HMAC_DRBG uses K and the first outlen
 * bytes of V, Hash_DRBG V, C and the reseed counter.
 */
struct ref_drbg {
	struct crypto_shash *tfm;
	u8 K[T_OUTLEN];
	u8 V[T_SEEDLEN];
	u8 C[T_SEEDLEN];
	u64 ctr;
};

static int ref_mac(struct crypto_shash *tfm, u8 *out, const u8 *key,
		   const struct piece *p, unsigned int n)
{
	SHASH_DESC_ON_STACK(desc, tfm);
	unsigned int i;
	int ret;

	desc->tfm = tfm;
	ret = crypto_shash_setkey(tfm, key, T_OUTLEN) ?: crypto_shash_init(desc);
	for (i = 0; !ret && i < n; i++)
		ret = crypto_shash_update(desc, p[i].buf, p[i].len);
	ret = ret ?: crypto_shash_final(desc, out);
	shash_desc_zero(desc);
	return ret;
}

/* 10.1.2.2 HMAC_DRBG_Update(provided_data, K, V) */
static int ref_hmac_update(struct ref_drbg *r, const struct piece *data,
			   unsigned int n)
{
	/* V || round || up to three pieces of provided data */
	struct piece p[5] = { { r->V, T_OUTLEN } };
	size_t len = 0;
	unsigned int i;
	u8 round;
	int ret = 0;

	if (n > ARRAY_SIZE(p) - 2)
		return -EINVAL;
	for (i = 0; i < n; i++) {
		p[2 + i] = data[i];
		len += data[i].len;
	}
	for (round = 0; !ret && round < 2; round++) {
		p[1].buf = &round;
		p[1].len = 1;
		ret = ref_mac(r->tfm, r->K, r->K, p, 2 + n) ?:
		      ref_mac(r->tfm, r->V, r->K, p, 1);
		if (!len)
			break;
	}
	return ret;
}

static int ref_hmac_instantiate(struct ref_drbg *r, const struct piece *seed,
				unsigned int n)
{
	memset(r->K, 0, T_OUTLEN);
	memset(r->V, 1, T_OUTLEN);
	return ref_hmac_update(r, seed, n);
}

static int ref_hmac_reseed(struct ref_drbg *r, const u8 *entropy,
			   size_t entropy_len, const u8 *addtl, size_t addtl_len)
{
	struct piece p[2] = { { entropy, entropy_len }, { addtl, addtl_len } };

	return ref_hmac_update(r, p, 2);
}

static int ref_hmac_generate(struct ref_drbg *r, u8 *out, size_t len,
			     const u8 *addtl, size_t addtl_len)
{
	struct piece a = { addtl, addtl_len }, v = { r->V, T_OUTLEN };
	int ret = 0;

	if (addtl_len)
		ret = ref_hmac_update(r, &a, 1);
	while (!ret && len) {
		size_t n = min_t(size_t, len, T_OUTLEN);

		ret = ref_mac(r->tfm, r->V, r->K, &v, 1);
		memcpy(out, r->V, n);
		out += n;
		len -= n;
	}
	return ret ?: ref_hmac_update(r, &a, addtl_len ? 1 : 0);
}

/* --- reference Hash_DRBG (SP800-90A 10.1.1) ------------------------------ */

static int ref_h(struct crypto_shash *tfm, u8 *out, const struct piece *p,
		 unsigned int n)
{
	SHASH_DESC_ON_STACK(desc, tfm);
	unsigned int i;
	int ret;

	desc->tfm = tfm;
	ret = crypto_shash_init(desc);
	for (i = 0; !ret && i < n; i++)
		ret = crypto_shash_update(desc, p[i].buf, p[i].len);
	ret = ret ?: crypto_shash_final(desc, out);
	shash_desc_zero(desc);
	return ret;
}

/* 10.3.1 Hash_df(input, seedlen bits) */
static int ref_hash_df(struct crypto_shash *tfm, u8 *out,
		       const struct piece *in, unsigned int n)
{
	u8 head[5] = { 1, 0, 0, (T_SEEDLEN * 8) >> 8, (T_SEEDLEN * 8) & 0xff };
	struct piece p[6] = { { head, sizeof(head) } };
	u8 block[T_OUTLEN];
	unsigned int done, i;
	int ret = 0;

	if (n > ARRAY_SIZE(p) - 1)
		return -EINVAL;
	for (i = 0; i < n; i++)
		p[1 + i] = in[i];
	for (done = 0; !ret && done < T_SEEDLEN; done += T_OUTLEN, head[0]++) {
		ret = ref_h(tfm, block, p, 1 + n);
		memcpy(out + done, block, min(T_OUTLEN, T_SEEDLEN - done));
	}
	return ret;
}

/* dst (seedlen bytes, big endian) += src (len bytes, big endian) */
static void add_be(u8 *dst, const u8 *src, unsigned int len)
{
	unsigned int carry = 0, i, j;

	for (i = T_SEEDLEN, j = len; i-- > 0;) {
		carry += dst[i] + (j ? src[--j] : 0);
		dst[i] = carry;
		carry >>= 8;
	}
}

static int ref_hash_new_c(struct ref_drbg *r)
{
	static const u8 zero;
	struct piece p[2] = { { &zero, 1 }, { r->V, T_SEEDLEN } };

	r->ctr = 1;
	return ref_hash_df(r->tfm, r->C, p, 2);
}

static int ref_hash_instantiate(struct ref_drbg *r, const struct piece *seed,
				unsigned int n)
{
	return ref_hash_df(r->tfm, r->V, seed, n) ?: ref_hash_new_c(r);
}

static int ref_hash_reseed(struct ref_drbg *r, const u8 *entropy,
			   size_t entropy_len, const u8 *addtl, size_t addtl_len)
{
	static const u8 one = 1;
	u8 old[T_SEEDLEN];
	struct piece p[4] = { { &one, 1 }, { old, T_SEEDLEN },
			      { entropy, entropy_len }, { addtl, addtl_len } };

	memcpy(old, r->V, T_SEEDLEN);
	return ref_hash_df(r->tfm, r->V, p, 4) ?: ref_hash_new_c(r);
}

static int ref_hash_generate(struct ref_drbg *r, u8 *out, size_t len,
			     const u8 *addtl, size_t addtl_len)
{
	static const u8 two = 2, three = 3;
	u8 w[T_OUTLEN], data[T_SEEDLEN], ctr[8];
	struct piece p[3] = { { &two, 1 }, { r->V, T_SEEDLEN },
			      { addtl, addtl_len } };
	struct piece d = { data, T_SEEDLEN };
	static const u8 one = 1;
	unsigned int i;
	int ret = 0;

	if (addtl_len) {
		ret = ref_h(r->tfm, w, p, 3);
		add_be(r->V, w, T_OUTLEN);
	}
	memcpy(data, r->V, T_SEEDLEN);	/* 10.1.1.4 Hashgen */
	while (!ret && len) {
		size_t n = min_t(size_t, len, T_OUTLEN);

		ret = ref_h(r->tfm, w, &d, 1);
		memcpy(out, w, n);
		add_be(data, &one, 1);
		out += n;
		len -= n;
	}
	p[0].buf = &three;
	ret = ret ?: ref_h(r->tfm, w, p, 2);
	add_be(r->V, w, T_OUTLEN);
	add_be(r->V, r->C, T_SEEDLEN);
	for (i = 0; i < sizeof(ctr); i++)
		ctr[i] = r->ctr >> (8 * (sizeof(ctr) - 1 - i));
	add_be(r->V, ctr, sizeof(ctr));
	r->ctr++;
	return ret;
}

/* --- fixtures ------------------------------------------------------------ */

struct t_ctx {
	struct cpurng_drbg d[2];
	bool live[2];
	struct crypto_shash *ref_tfm;
};

static int drbg_case_init(struct kunit *test)
{
	test->priv = kunit_kzalloc(test, sizeof(struct t_ctx), GFP_KERNEL);
	return test->priv ? 0 : -ENOMEM;
}

/* Instances join cpurng_drbg's list: leave none behind a failed case. */
static void drbg_case_exit(struct kunit *test)
{
	struct t_ctx *c = test->priv;
	int i;

	for (i = 0; i < 2; i++)
		if (c->live[i])
			cpurng_drbg_fini(&c->d[i]);
	if (!IS_ERR_OR_NULL(c->ref_tfm))
		crypto_free_shash(c->ref_tfm);
}

/* A reference DRBG on @alg, freed when the case ends. */
static void new_ref(struct kunit *test, struct ref_drbg *r, const char *alg)
{
	struct t_ctx *c = test->priv;

	memset(r, 0, sizeof(*r));
	c->ref_tfm = crypto_alloc_shash(alg, 0, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(c->ref_tfm));
	r->tfm = c->ref_tfm;
}

static const struct cpurng_drbg_mech *find_mech(const char *name)
{
	unsigned int i;

	for (i = 0; i < cpurng_drbg_nmechs; i++)
		if (!strcmp(cpurng_drbg_mechs[i].name, name))
			return &cpurng_drbg_mechs[i];
	return NULL;
}

static struct cpurng_drbg *new_drbg(struct kunit *test, int i,
				    const struct cpurng_drbg_mech *m)
{
	struct t_ctx *c = test->priv;

	KUNIT_ASSERT_NOT_NULL(test, m);
	KUNIT_ASSERT_EQ(test, cpurng_drbg_init(&c->d[i], m, false), 0);
	c->live[i] = true;
	return &c->d[i];
}

static void fill(u8 *buf, size_t len, u8 start)
{
	size_t i;

	for (i = 0; i < len; i++)
		buf[i] = start + i * 13;
}

/* Inputs shared by the reference runs. */
struct t_inputs {
	u8 entropy[32], nonce[16], pers[8], addtl[20], entropy2[32], addtl2[10];
};

static void t_inputs_fill(struct t_inputs *in)
{
	fill(in->entropy, sizeof(in->entropy), 0x10);
	fill(in->nonce, sizeof(in->nonce), 0x20);
	fill(in->pers, sizeof(in->pers), 0x30);
	fill(in->addtl, sizeof(in->addtl), 0x40);
	fill(in->entropy2, sizeof(in->entropy2), 0x50);
	fill(in->addtl2, sizeof(in->addtl2), 0x60);
}

/* Request sizes: two blocks, a partial third with addtl, one, 1.5. */
static const struct { size_t len; bool addtl; } t_requests[] = {
	{ 64, false }, { 100, true }, { 32, false }, { 48, false },
};

/* A reference mechanism: SP800-90A's functions over struct ref_drbg. */
struct ref_mech {
	const char *name;	/* ours, in cpurng_drbg_mechs */
	const char *alg;	/* what the reference hashes with */
	int (*instantiate)(struct ref_drbg *r, const struct piece *seed,
			   unsigned int n);
	int (*reseed)(struct ref_drbg *r, const u8 *entropy, size_t entropy_len,
		      const u8 *addtl, size_t addtl_len);
	int (*generate)(struct ref_drbg *r, u8 *out, size_t len,
			const u8 *addtl, size_t addtl_len);
};

static const struct ref_mech ref_hmac_sha256 = {
	"hmac_sha256", "hmac(sha256)",
	ref_hmac_instantiate, ref_hmac_reseed, ref_hmac_generate,
};

static const struct ref_mech ref_hash_sha256 = {
	"sha256", "sha256",
	ref_hash_instantiate, ref_hash_reseed, ref_hash_generate,
};

/* Ours and the reference through the same requests, output compared. */
static void matches_reference(struct kunit *test, const struct ref_mech *rm)
{
	struct cpurng_drbg_input e, n, p;
	u8 got[100], want[100];
	struct cpurng_drbg *d;
	struct t_inputs in;
	struct ref_drbg r;
	struct piece seed[3];
	unsigned int i;
	int ret;

	t_inputs_fill(&in);
	new_ref(test, &r, rm->alg);
	d = new_drbg(test, 0, find_mech(rm->name));

	e = (struct cpurng_drbg_input){ in.entropy, sizeof(in.entropy) };
	n = (struct cpurng_drbg_input){ in.nonce, sizeof(in.nonce) };
	p = (struct cpurng_drbg_input){ in.pers, sizeof(in.pers) };
	seed[0] = (struct piece){ in.entropy, sizeof(in.entropy) };
	seed[1] = (struct piece){ in.nonce, sizeof(in.nonce) };
	seed[2] = (struct piece){ in.pers, sizeof(in.pers) };
	KUNIT_EXPECT_EQ(test, cpurng_drbg_instantiate_raw(d, &e, &n, &p), 0);
	KUNIT_EXPECT_EQ(test, rm->instantiate(&r, seed, 3), 0);
	for (i = 0; i < ARRAY_SIZE(t_requests); i++) {
		size_t len = t_requests[i].len;
		size_t alen = t_requests[i].addtl ? sizeof(in.addtl) : 0;

		if (i == 3) {	/* reseed with entropy and additional input */
			ret = cpurng_drbg_reseed_raw(d, in.entropy2,
						     sizeof(in.entropy2),
						     in.addtl2, sizeof(in.addtl2));
			KUNIT_EXPECT_EQ(test, ret, 0);
			ret = rm->reseed(&r, in.entropy2, sizeof(in.entropy2),
					 in.addtl2, sizeof(in.addtl2));
			KUNIT_EXPECT_EQ(test, ret, 0);
		}
		KUNIT_EXPECT_EQ(test, cpurng_drbg_generate_raw(d, got, len,
							       in.addtl, alen), 0);
		KUNIT_EXPECT_EQ(test, rm->generate(&r, want, len, in.addtl,
						   alen), 0);
		KUNIT_EXPECT_EQ_MSG(test, memcmp(got, want, len), 0,
				    "request %u (%zu bytes)", i, len);
	}
}

static void drbg_hmac_sha256_matches_reference(struct kunit *test)
{
	matches_reference(test, &ref_hmac_sha256);
}

static void drbg_hash_sha256_matches_reference(struct kunit *test)
{
	matches_reference(test, &ref_hash_sha256);
}

/*
 * The crypto_rng path testmgr uses: set_ent, then the first reset
 * instantiates with entropy || its input as personalization, and a later
 * reset reseeds with the same entropy and its input as additional input.
 * Three requests in a row reach the Hash_DRBG's counter term.
 */
static void drbg_seed_and_generate_follow_the_rng_api(struct kunit *test)
{
	u8 ent[48], pers[8], addtl[5], got[64], want[64];
	struct cpurng_drbg *d;
	struct ref_drbg r;
	struct piece seed[2];
	unsigned int i;

	fill(ent, sizeof(ent), 0x70);
	fill(pers, sizeof(pers), 0x80);
	fill(addtl, sizeof(addtl), 0x90);
	new_ref(test, &r, "sha256");
	d = new_drbg(test, 0, find_mech("sha256"));

	KUNIT_EXPECT_EQ(test, cpurng_drbg_set_test_entropy(d, ent, sizeof(ent)), 0);
	KUNIT_EXPECT_EQ(test, cpurng_drbg_seed(d, pers, sizeof(pers)), 0);
	KUNIT_EXPECT_EQ(test, d->level, CPURNG_DRBG_TEST);
	seed[0] = (struct piece){ ent, sizeof(ent) };
	seed[1] = (struct piece){ pers, sizeof(pers) };
	KUNIT_EXPECT_EQ(test, ref_hash_instantiate(&r, seed, 2), 0);
	for (i = 0; i < 4; i++) {
		if (i == 3) {
			KUNIT_EXPECT_EQ(test, cpurng_drbg_seed(d, addtl,
							       sizeof(addtl)), 0);
			KUNIT_EXPECT_EQ(test, ref_hash_reseed(&r, ent, sizeof(ent),
							      addtl, sizeof(addtl)), 0);
		}
		KUNIT_EXPECT_EQ(test, cpurng_drbg_generate(d, NULL, 0, got,
							   sizeof(got)), 0);
		KUNIT_EXPECT_EQ(test, ref_hash_generate(&r, want, sizeof(want),
							NULL, 0), 0);
		KUNIT_EXPECT_EQ_MSG(test, memcmp(got, want, sizeof(got)), 0,
				    "request %u", i);
		KUNIT_EXPECT_EQ(test, d->reseed_ctr, r.ctr);
	}
}

static void mech_desc(const struct cpurng_drbg_mech *m, char *desc)
{
	strscpy(desc, m->name, KUNIT_PARAM_DESC_SIZE);
}

static const void *mech_gen_params(const void *prev, char *desc)
{
	const struct cpurng_drbg_mech *m = prev;

	m = m ? m + 1 : cpurng_drbg_mechs;
	if (m >= cpurng_drbg_mechs + cpurng_drbg_nmechs)
		return NULL;
	mech_desc(m, desc);
	return m;
}

static void instantiate_pair(struct kunit *test, struct cpurng_drbg **a,
			     struct cpurng_drbg **b)
{
	const struct cpurng_drbg_mech *m = test->param_value;
	struct t_inputs in;
	struct cpurng_drbg_input e, n, p = { NULL, 0 };

	t_inputs_fill(&in);
	e = (struct cpurng_drbg_input){ in.entropy, sizeof(in.entropy) };
	n = (struct cpurng_drbg_input){ in.nonce, sizeof(in.nonce) };
	*a = new_drbg(test, 0, m);
	*b = new_drbg(test, 1, m);
	KUNIT_ASSERT_EQ(test, cpurng_drbg_instantiate_raw(*a, &e, &n, &p), 0);
	KUNIT_ASSERT_EQ(test, cpurng_drbg_instantiate_raw(*b, &e, &n, &p), 0);
}

/* 10.1.1.4 / 10.1.2.5 / 10.2.1.5.2: reseed_counter = reseed_counter + 1 */
static void drbg_reseed_counter_counts_requests(struct kunit *test)
{
	struct cpurng_drbg *d, *twin;
	u8 out[48], entropy[32] = { 1 };
	int i;

	instantiate_pair(test, &d, &twin);
	KUNIT_EXPECT_EQ(test, d->reseed_ctr, 1ULL);
	for (i = 0; i < 3; i++)
		KUNIT_EXPECT_EQ(test, cpurng_drbg_generate_raw(d, out, sizeof(out),
							       NULL, 0), 0);
	KUNIT_EXPECT_EQ(test, d->reseed_ctr, 4ULL);
	KUNIT_EXPECT_EQ(test, cpurng_drbg_reseed_raw(d, entropy, sizeof(entropy),
						     NULL, 0), 0);
	KUNIT_EXPECT_EQ(test, d->reseed_ctr, 1ULL);
	KUNIT_EXPECT_EQ(test, cpurng_drbg_generate_raw(d, out, sizeof(out),
						       NULL, 0), 0);
	KUNIT_EXPECT_EQ(test, d->reseed_ctr, 2ULL);
}

/* Same inputs, same output; different additional input, different output. */
static void drbg_twins_agree_until_inputs_differ(struct kunit *test)
{
	struct cpurng_drbg *a, *b;
	u8 oa[80], ob[80], x = 1, y = 2;

	instantiate_pair(test, &a, &b);
	KUNIT_EXPECT_EQ(test, cpurng_drbg_generate_raw(a, oa, sizeof(oa), NULL, 0), 0);
	KUNIT_EXPECT_EQ(test, cpurng_drbg_generate_raw(b, ob, sizeof(ob), NULL, 0), 0);
	KUNIT_EXPECT_EQ(test, memcmp(oa, ob, sizeof(oa)), 0);
	/* the blocks of one request are not repeats of each other */
	KUNIT_EXPECT_NE(test, memcmp(oa, oa + 16, 16), 0);
	KUNIT_EXPECT_EQ(test, cpurng_drbg_generate_raw(a, oa, sizeof(oa), &x, 1), 0);
	KUNIT_EXPECT_EQ(test, cpurng_drbg_generate_raw(b, ob, sizeof(ob), &y, 1), 0);
	KUNIT_EXPECT_NE(test, memcmp(oa, ob, sizeof(oa)), 0);
	/* and the states stay apart */
	KUNIT_EXPECT_EQ(test, cpurng_drbg_generate_raw(a, oa, sizeof(oa), NULL, 0), 0);
	KUNIT_EXPECT_EQ(test, cpurng_drbg_generate_raw(b, ob, sizeof(ob), NULL, 0), 0);
	KUNIT_EXPECT_NE(test, memcmp(oa, ob, sizeof(oa)), 0);
}

/* 9.3.1: a request out of bounds is refused and changes nothing. */
static void drbg_bad_requests_refused_unchanged(struct kunit *test)
{
	static u8 big[CPURNG_DRBG_MAX_INPUT + 1];
	const unsigned int too_long = CPURNG_DRBG_MAX_REQUEST + 1;
	struct cpurng_drbg *a, *b;
	u8 oa[32], ob[32];
	u8 *huge;

	instantiate_pair(test, &a, &b);
	huge = kunit_kmalloc(test, too_long, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, huge);
	KUNIT_EXPECT_EQ(test, cpurng_drbg_generate_raw(a, oa, 0, NULL, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, cpurng_drbg_generate_raw(a, huge, too_long, NULL, 0),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, cpurng_drbg_generate_raw(a, oa, sizeof(oa), big,
						       sizeof(big)), -EINVAL);
	KUNIT_EXPECT_EQ(test, cpurng_drbg_reseed_raw(a, oa, sizeof(oa), big,
						     sizeof(big)), -EINVAL);
	KUNIT_EXPECT_EQ(test, a->reseed_ctr, 1ULL);
	KUNIT_EXPECT_EQ(test, cpurng_drbg_generate_raw(a, oa, sizeof(oa), NULL, 0), 0);
	KUNIT_EXPECT_EQ(test, cpurng_drbg_generate_raw(b, ob, sizeof(ob), NULL, 0), 0);
	KUNIT_EXPECT_EQ(test, memcmp(oa, ob, sizeof(oa)), 0);
}

static struct kunit_case cpurng_drbg_mech_cases[] = {
	KUNIT_CASE(drbg_hmac_sha256_matches_reference),
	KUNIT_CASE(drbg_hash_sha256_matches_reference),
	KUNIT_CASE(drbg_seed_and_generate_follow_the_rng_api),
	KUNIT_CASE_PARAM(drbg_reseed_counter_counts_requests, mech_gen_params),
	KUNIT_CASE_PARAM(drbg_twins_agree_until_inputs_differ, mech_gen_params),
	KUNIT_CASE_PARAM(drbg_bad_requests_refused_unchanged, mech_gen_params),
	{}
};

static struct kunit_suite cpurng_drbg_mech_suite = {
	.name = "cpurng_drbg_mech",
	.init = drbg_case_init,
	.exit = drbg_case_exit,
	.test_cases = cpurng_drbg_mech_cases,
};

kunit_test_suite(cpurng_drbg_mech_suite);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit tests for the cpurng SP800-90A DRBG core and mechanisms");
