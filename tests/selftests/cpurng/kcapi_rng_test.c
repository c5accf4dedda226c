// SPDX-License-Identifier: GPL-2.0
/*
 * libkcapi's own RNG calls against the cpurng algorithms: kcapi_rng_init,
 * kcapi_rng_seedsize, kcapi_rng_seed (with and without a personalization
 * string), kcapi_rng_generate (more than AF_ALG's 128 bytes per read) and
 * kcapi_rng_destroy for each name, and kcapi_rng_get_bytes (which uses
 * stdrng).  A name is skipped only when its module is not in the kernel; a
 * loaded module that does not serve its name fails.
 */
#include <errno.h>
#include <kcapi.h>
#include <string.h>

#include "afalg.h"
#include "kselftest_harness.h"

FIXTURE(kcapi) {
	struct kcapi_handle *h;
};

FIXTURE_VARIANT(kcapi) {
	const char *name;
	const char *module;
};

FIXTURE_VARIANT_ADD(kcapi, stdrng) {
	.name = "stdrng", .module = "cpurng_drbg",
};

FIXTURE_VARIANT_ADD(kcapi, ctr_aes256) {
	.name = "drbg_nopr_ctr_aes256-cpurng", .module = "cpurng_drbg",
};

FIXTURE_VARIANT_ADD(kcapi, collector) {
	.name = "cpu_randomness", .module = "cpurng_collector",
};

FIXTURE_VARIANT_ADD(kcapi, jitter) {
	.name = "jitterentropy_rng", .module = "cpurng_jitter",
};

FIXTURE_SETUP(kcapi)
{
	int fd = afalg_rng_bind(variant->name);

	self->h = NULL;
	if (fd == -ENOENT && !module_present(variant->module))
		SKIP(return, "module %s not in this kernel", variant->module);
	ASSERT_LE(0, fd) TH_LOG("bind %s: %s", variant->name, strerror(-fd));
	close(fd);
	ASSERT_EQ(0, kcapi_rng_init(&self->h, variant->name, 0));
}

FIXTURE_TEARDOWN(kcapi)
{
	kcapi_rng_destroy(self->h);
}

TEST_F(kcapi, init_seed_generate_destroy)
{
	static uint8_t a[300], b[300];

	/* our RNGs take any seed length: libkcapi reports 0 */
	EXPECT_EQ(0, kcapi_rng_seedsize(self->h));
	ASSERT_EQ(0, kcapi_rng_seed(self->h, NULL, 0));
	ASSERT_EQ(sizeof(a), kcapi_rng_generate(self->h, a, sizeof(a)));
	ASSERT_EQ(sizeof(b), kcapi_rng_generate(self->h, b, sizeof(b)));
	EXPECT_NE(0, memcmp(a, b, sizeof(a)));
}

TEST_F(kcapi, seed_with_personalization)
{
	uint8_t a[64];

	ASSERT_EQ(0, kcapi_rng_seed(self->h, (uint8_t *)"cpurng test", 11));
	EXPECT_EQ(sizeof(a), kcapi_rng_generate(self->h, a, sizeof(a)));
}

TEST(kcapi_rng_get_bytes_from_stdrng)
{
	uint8_t a[64], b[64];

	ASSERT_EQ(sizeof(a), kcapi_rng_get_bytes(a, sizeof(a)));
	ASSERT_EQ(sizeof(b), kcapi_rng_get_bytes(b, sizeof(b)));
	EXPECT_NE(0, memcmp(a, b, sizeof(a)));
}

TEST_HARNESS_MAIN
