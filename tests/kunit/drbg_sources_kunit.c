// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for the DRBG's seed-source selection and credit accounting
 * (crypto/drbg_sources.c): parsing "name[@driver][:credit],..." with its
 * defaults and refusals, the credit in force for a source, and how many
 * bytes a seed reads from a source for the entropy it needs.  Reading the
 * sources and seeding need the crypto API and stay VM tests (group drbg).
 */
#include <kunit/test.h>
#include <linux/module.h>
#include <linux/string.h>

#include "../../include/cpurng/drbg.h"
#include "../../include/cpurng/drbg_sources.h"

CPURNG_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

static struct cpurng_src *parse(struct kunit *test, const char *spec,
				unsigned int *n, int *ret)
{
	struct cpurng_src *s = kunit_kcalloc(test, CPURNG_DRBG_MAX_SOURCES,
					     sizeof(*s), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, s);
	*ret = cpurng_src_parse(spec, s, n, false);
	return s;
}

static void sources_defaults_per_name(struct kunit *test)
{
	unsigned int n;
	int ret;
	struct cpurng_src *s = parse(test,
		"jitterentropy_rng,cpu_randomness,get_random_bytes,my_rng", &n, &ret);

	KUNIT_ASSERT_EQ(test, ret, 0);
	KUNIT_ASSERT_EQ(test, n, 4U);
	/* the jitter RNG and the kernel RNG are trusted fully, others not */
	KUNIT_EXPECT_EQ(test, s[0].credit, 8);
	KUNIT_EXPECT_EQ(test, s[1].credit, 0);
	KUNIT_EXPECT_EQ(test, s[2].credit, 8);
	KUNIT_EXPECT_EQ(test, s[3].credit, 0);
	/* credit goes to a driver: ours for our names, the name otherwise */
	KUNIT_EXPECT_STREQ(test, s[0].expect, "jitterentropy_rng-cpurng");
	KUNIT_EXPECT_STREQ(test, s[1].expect, "cpu_randomness-cpurng");
	KUNIT_EXPECT_STREQ(test, s[2].expect, "");
	KUNIT_EXPECT_STREQ(test, s[3].expect, "my_rng");
	KUNIT_EXPECT_FALSE(test, s[0].explicit);
}

static void sources_explicit_driver_and_credit(struct kunit *test)
{
	unsigned int n;
	int ret;
	struct cpurng_src *s = parse(test,
		" jitterentropy_rng@jitterentropy_rng:8 , my_rng:3,cpu_randomness:0 ",
		&n, &ret);

	KUNIT_ASSERT_EQ(test, ret, 0);
	KUNIT_ASSERT_EQ(test, n, 3U);
	KUNIT_EXPECT_STREQ(test, s[0].name, "jitterentropy_rng");
	KUNIT_EXPECT_STREQ(test, s[0].expect, "jitterentropy_rng");
	KUNIT_EXPECT_TRUE(test, s[0].explicit);
	KUNIT_EXPECT_EQ(test, s[0].credit, 8);
	KUNIT_EXPECT_STREQ(test, s[1].name, "my_rng");
	KUNIT_EXPECT_EQ(test, s[1].credit, 3);
	KUNIT_EXPECT_EQ(test, s[2].credit, 0);
}

static const char *const bad_specs[] = {
	"",				/* nothing */
	",",				/* an empty name */
	"a:9",				/* credit above 8 bits per byte */
	"a:x",
	"a:-1",
	"a:8:3",
	"stdrng",			/* a DRBG would seed a DRBG */
	"drbg_nopr_hmac_sha256",
	"a,b,a",			/* listed twice */
	"a@",				/* '@' without a driver */
	"get_random_bytes@x",		/* not a crypto_rng */
	"a,b,c,d,e,f,g,h,i",		/* CPURNG_DRBG_MAX_SOURCES is 8 */
};

static void spec_desc(const char *const *spec, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "'%.40s'", *spec);
}

KUNIT_ARRAY_PARAM(bad_spec, bad_specs, spec_desc);

static void sources_bad_spec_refused(struct kunit *test)
{
	const char *spec = *(const char *const *)test->param_value;
	unsigned int n;
	int ret;

	parse(test, spec, &n, &ret);
	KUNIT_EXPECT_EQ(test, ret, -EINVAL);
}

/* A name must fit a crypto_alg name (CRYPTO_MAX_ALG_NAME with its NUL). */
static void sources_name_too_long_refused(struct kunit *test)
{
	char name[CRYPTO_MAX_ALG_NAME + 1];
	unsigned int n;
	int ret;

	memset(name, 'a', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	parse(test, name, &n, &ret);
	KUNIT_EXPECT_EQ(test, ret, -EINVAL);
	name[CRYPTO_MAX_ALG_NAME - 1] = '\0';	/* the longest that fits */
	parse(test, name, &n, &ret);
	KUNIT_EXPECT_EQ(test, ret, 0);
}

/* Eight is the most, and they may all be named. */
static void sources_eight_accepted(struct kunit *test)
{
	unsigned int n;
	int ret;

	parse(test, "a,b,c,d,e,f,g,h", &n, &ret);
	KUNIT_EXPECT_EQ(test, ret, 0);
	KUNIT_EXPECT_EQ(test, n, 8U);
}

/* At runtime a name must exist; the kernel RNG needs no lookup. */
static void sources_runtime_names_must_exist(struct kunit *test)
{
	struct cpurng_src *s = kunit_kcalloc(test, CPURNG_DRBG_MAX_SOURCES,
					     sizeof(*s), GFP_KERNEL);
	unsigned int n;

	KUNIT_ASSERT_NOT_NULL(test, s);
	KUNIT_EXPECT_EQ(test, cpurng_src_parse("cpurng_kunit_no_such_rng", s,
					       &n, true), -EINVAL);
	KUNIT_EXPECT_EQ(test, cpurng_src_parse("get_random_bytes:8", s, &n,
					       true), 0);
	KUNIT_EXPECT_EQ(test, n, 1U);
}

static void sources_credit_in_force(struct kunit *test)
{
	struct cpurng_src s = { .name = "get_random_bytes", .credit = 8 };

	/* the kernel RNG earns its credit only once it is initialised */
	KUNIT_EXPECT_EQ(test, cpurng_src_credit(&s, false), 0);
	KUNIT_EXPECT_EQ(test, cpurng_src_credit(&s, true), 8);
	/* a name that resolved to another driver than expected: none */
	strscpy(s.name, "jitterentropy_rng", sizeof(s.name));
	s.foreign = true;
	KUNIT_EXPECT_EQ(test, cpurng_src_credit(&s, true), 0);
	s.foreign = false;
	KUNIT_EXPECT_EQ(test, cpurng_src_credit(&s, false), 8);
}

static void sources_bytes_read_per_seed(struct kunit *test)
{
	/* enough for the need alone: ceil(need / credit) */
	KUNIT_EXPECT_EQ(test, cpurng_src_want(8, 384), (size_t)48);
	KUNIT_EXPECT_EQ(test, cpurng_src_want(8, 256), (size_t)32);
	KUNIT_EXPECT_EQ(test, cpurng_src_want(6, 256), (size_t)43);
	KUNIT_EXPECT_EQ(test, cpurng_src_want(3, 192), (size_t)64);
	/* capped at 64 bytes; an uncredited source gives 32 */
	KUNIT_EXPECT_EQ(test, cpurng_src_want(1, 384), (size_t)64);
	KUNIT_EXPECT_EQ(test, cpurng_src_want(8, 1000), (size_t)64);
	KUNIT_EXPECT_EQ(test, cpurng_src_want(0, 384), (size_t)32);
}

/*
 * What a credited source delivers covers the need of every mechanism's
 * instantiate (1.5 x strength, SP800-90A 8.6.7) and reseed, unless the cap
 * stops it, and then it is a full 64 bytes.
 */
static void sources_credit_covers_need(struct kunit *test)
{
	static const u32 needs[] = { 128, 192, 256, 384 };
	unsigned int i;
	u8 credit;

	for (credit = 1; credit <= CPURNG_DRBG_CREDIT_MAX; credit++) {
		for (i = 0; i < ARRAY_SIZE(needs); i++) {
			size_t want = cpurng_src_want(credit, needs[i]);

			if (want < 64)
				KUNIT_EXPECT_GE(test, want * credit, (size_t)needs[i]);
			KUNIT_EXPECT_LE(test, want, (size_t)64);
			/* never more than one byte past the need */
			if (want < 64)
				KUNIT_EXPECT_LT(test, (want - 1) * credit,
						(size_t)needs[i]);
		}
	}
}

static struct kunit_case cpurng_drbg_sources_cases[] = {
	KUNIT_CASE(sources_defaults_per_name),
	KUNIT_CASE(sources_explicit_driver_and_credit),
	KUNIT_CASE_PARAM(sources_bad_spec_refused, bad_spec_gen_params),
	KUNIT_CASE(sources_name_too_long_refused),
	KUNIT_CASE(sources_eight_accepted),
	KUNIT_CASE(sources_runtime_names_must_exist),
	KUNIT_CASE(sources_credit_in_force),
	KUNIT_CASE(sources_bytes_read_per_seed),
	KUNIT_CASE(sources_credit_covers_need),
	{}
};

static struct kunit_suite cpurng_drbg_sources_suite = {
	.name = "cpurng_drbg_sources",
	.test_cases = cpurng_drbg_sources_cases,
};

kunit_test_suite(cpurng_drbg_sources_suite);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit tests for the cpurng DRBG's seed-source parsing and credit");
