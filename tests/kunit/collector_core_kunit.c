// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for the CPU-randomness collector's pure logic
 * (include/cpurng/collector_core.h, crypto/collector_core.c): the per-event
 * mix, the per-period allocation budget, and the extraction (the pools
 * hashed with a domain, a key and a counter; the output block and next key
 * derived from that digest).
 *
 * The extraction is checked against SHA-256 computed here over the
 * concatenation the header documents, with the kernel's one-shot sha256(),
 * so a dropped or reordered input shows.  The file under test has no
 * module state and is compiled into this module.
 */
#include <kunit/test.h>
#include <linux/module.h>
#include <linux/string.h>

#include "../../crypto/collector_core.c"

#define T_POOLS	3

static void pool_init(struct cpurng_cr_pool *p)
{
	memset(p, 0, sizeof(*p));
	p->v[0] = 0x736f6d6570736575ULL;
	p->v[1] = 0x646f72616e646f6dULL;
	p->v[2] = 0x6c7967656e657261ULL;
	p->v[3] = 0x7465646279746573ULL;
}

/* Every input of an event changes the pool, and equal events agree. */
static void collector_mix_uses_every_input(struct kunit *test)
{
	static const u64 in[5] = { 4294967296ULL, 0x1234567890ULL,
				   0xffffffff81234567ULL,
				   0xffff888012345678ULL,
				   0xffffc90000123ff8ULL };
	struct cpurng_cr_pool ref, p;
	unsigned int which;

	pool_init(&ref);
	cpurng_cr_mix(&ref, in[0], in[1], in[2], in[3], in[4]);
	pool_init(&p);
	cpurng_cr_mix(&p, in[0], in[1], in[2], in[3], in[4]);
	KUNIT_EXPECT_EQ(test, memcmp(p.v, ref.v, sizeof(p.v)), 0);

	for (which = 0; which < 5; which++) {
		u64 x[5];

		memcpy(x, in, sizeof(x));
		x[which] ^= 1;	/* one bit of one input */
		pool_init(&p);
		cpurng_cr_mix(&p, x[0], x[1], x[2], x[3], x[4]);
		KUNIT_EXPECT_NE_MSG(test, memcmp(p.v, ref.v, sizeof(p.v)), 0,
				    "input %u does not reach the pool", which);
	}
}

/* Events compound: the same two events in the other order differ. */
static void collector_mix_is_order_dependent(struct kunit *test)
{
	struct cpurng_cr_pool a, b;

	pool_init(&a);
	pool_init(&b);
	cpurng_cr_mix(&a, 1, 2, 3, 4, 5);
	cpurng_cr_mix(&a, 6, 7, 8, 9, 10);
	cpurng_cr_mix(&b, 6, 7, 8, 9, 10);
	cpurng_cr_mix(&b, 1, 2, 3, 4, 5);
	KUNIT_EXPECT_NE(test, memcmp(a.v, b.v, sizeof(a.v)), 0);
}

static void collector_rol64_edges(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, cpurng_cr_rol64(0x8000000000000001ULL, 0),
			0x8000000000000001ULL);
	KUNIT_EXPECT_EQ(test, cpurng_cr_rol64(0x8000000000000001ULL, 1), 3ULL);
	KUNIT_EXPECT_EQ(test, cpurng_cr_rol64(0x8000000000000001ULL, 64),
			0x8000000000000001ULL);
	KUNIT_EXPECT_EQ(test, cpurng_cr_rol64(1, 63), 0x8000000000000000ULL);
}

/* The budget is spent by exactly its n-th event, once per period. */
static void collector_budget_spent_by_nth_event(struct kunit *test)
{
	u32 hundred = 100, one = 1;
	struct cpurng_cr_pool p;
	unsigned int i, spent = 0, at = 0;

	pool_init(&p);
	for (i = 1; i <= 3 * 100; i++) {
		if (cpurng_cr_budget_take(&p, 7, &hundred)) {
			spent++;
			at = i;
		}
	}
	KUNIT_EXPECT_EQ(test, spent, 1U);
	KUNIT_EXPECT_EQ(test, at, 100U);
	/* the next period refills it */
	for (i = 1; i < 100; i++)
		KUNIT_EXPECT_FALSE(test, cpurng_cr_budget_take(&p, 8, &hundred));
	KUNIT_EXPECT_TRUE(test, cpurng_cr_budget_take(&p, 8, &hundred));
	KUNIT_EXPECT_EQ(test, p.budget_period, 8U);
	/* a budget of 1: the first event of each period */
	KUNIT_EXPECT_TRUE(test, cpurng_cr_budget_take(&p, 9, &one));
	KUNIT_EXPECT_FALSE(test, cpurng_cr_budget_take(&p, 9, &one));
}

static void collector_budget_zero_is_unlimited(struct kunit *test)
{
	struct cpurng_cr_pool p;
	unsigned int i;
	u32 zero = 0;

	pool_init(&p);
	for (i = 0; i < 200000; i++)
		if (cpurng_cr_budget_take(&p, 1, &zero))
			break;
	KUNIT_EXPECT_EQ(test, i, 200000U);
}

struct t_pools {
	struct cpurng_cr_pool p[T_POOLS];
};

static const struct cpurng_cr_pool *t_pool_at(void *ctx, unsigned int i)
{
	return &((struct t_pools *)ctx)->p[i];
}

/* SHA-256(domain || key || counter || v[] of each pool || extra) */
static void reference_digest(u8 *out, u8 domain, const u8 *key, u64 counter,
			     const struct t_pools *pools, const void *extra,
			     unsigned int extra_len)
{
	u8 buf[1 + CPURNG_CR_DIGEST_BYTES + 8 + T_POOLS * 32 + 16];
	unsigned int n = 0, i;

	buf[n++] = domain;
	memcpy(buf + n, key, CPURNG_CR_DIGEST_BYTES);
	n += CPURNG_CR_DIGEST_BYTES;
	memcpy(buf + n, &counter, 8);	/* CPU byte order, as hashed */
	n += 8;
	for (i = 0; i < T_POOLS; i++) {
		memcpy(buf + n, pools->p[i].v, 32);
		n += 32;
	}
	memcpy(buf + n, extra, extra_len);
	sha256(buf, n + extra_len, out);
}

static void collector_digest_hashes_documented_input(struct kunit *test)
{
	u8 key[CPURNG_CR_DIGEST_BYTES], got[32], want[32];
	static const char extra[16] = "seed from caller";
	struct t_pools pools;
	unsigned int i;

	for (i = 0; i < sizeof(key); i++)
		key[i] = i * 7 + 1;
	for (i = 0; i < T_POOLS; i++) {
		pool_init(&pools.p[i]);
		cpurng_cr_mix(&pools.p[i], i, i + 1, i + 2, i + 3, i + 4);
		/* counters are not hashed */
		pools.p[i].events[0] = 1000 + i;
	}
	cpurng_cr_digest(got, CPURNG_CR_DOMAIN_FLUSH, key, 42, t_pool_at,
			 &pools, T_POOLS, NULL, 0);
	reference_digest(want, CPURNG_CR_DOMAIN_FLUSH, key, 42, &pools, NULL, 0);
	KUNIT_EXPECT_EQ(test, memcmp(got, want, 32), 0);

	cpurng_cr_digest(got, CPURNG_CR_DOMAIN_SEED, key, 43, t_pool_at,
			 &pools, T_POOLS, extra, sizeof(extra));
	reference_digest(want, CPURNG_CR_DOMAIN_SEED, key, 43, &pools, extra,
			 sizeof(extra));
	KUNIT_EXPECT_EQ(test, memcmp(got, want, 32), 0);

	/* every pool is read: a change in the last one shows */
	pools.p[T_POOLS - 1].v[3] ^= 1;
	cpurng_cr_digest(got, CPURNG_CR_DOMAIN_SEED, key, 43, t_pool_at,
			 &pools, T_POOLS, extra, sizeof(extra));
	KUNIT_EXPECT_NE(test, memcmp(got, want, 32), 0);
}

/* out = SHA-256(0x01 || digest), next key = SHA-256(0x02 || digest). */
static void collector_rekey_separates_output_and_key(struct kunit *test)
{
	u8 digest[32], key[32], out[32], want[33], h[32];
	unsigned int i;

	for (i = 0; i < sizeof(digest); i++)
		digest[i] = 0xa0 ^ i;
	memset(key, 0x55, sizeof(key));
	cpurng_cr_rekey(out, key, digest);

	want[0] = CPURNG_CR_DOMAIN_OUTPUT;
	memcpy(want + 1, digest, 32);
	sha256(want, sizeof(want), h);
	KUNIT_EXPECT_EQ(test, memcmp(out, h, 32), 0);
	want[0] = CPURNG_CR_DOMAIN_CHAIN;
	sha256(want, sizeof(want), h);
	KUNIT_EXPECT_EQ(test, memcmp(key, h, 32), 0);
	KUNIT_EXPECT_NE(test, memcmp(out, key, 32), 0);

	/* without an output block only the key moves */
	memset(key, 0x55, sizeof(key));
	cpurng_cr_rekey(NULL, key, digest);
	KUNIT_EXPECT_EQ(test, memcmp(key, h, 32), 0);
}

static struct kunit_case cpurng_collector_core_cases[] = {
	KUNIT_CASE(collector_mix_uses_every_input),
	KUNIT_CASE(collector_mix_is_order_dependent),
	KUNIT_CASE(collector_rol64_edges),
	KUNIT_CASE(collector_budget_spent_by_nth_event),
	KUNIT_CASE(collector_budget_zero_is_unlimited),
	KUNIT_CASE(collector_digest_hashes_documented_input),
	KUNIT_CASE(collector_rekey_separates_output_and_key),
	{}
};

static struct kunit_suite cpurng_collector_core_suite = {
	.name = "cpurng_collector_core",
	.test_cases = cpurng_collector_core_cases,
};

kunit_test_suite(cpurng_collector_core_suite);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit tests for the cpurng collector's mixing, budget and extraction");
