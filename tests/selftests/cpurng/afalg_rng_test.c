// SPDX-License-Identifier: GPL-2.0
/*
 * The AF_ALG surface of each cpurng RNG, used as an attacker or a careless
 * caller would use it:
 *   - bind by cra_name and by driver name; an unknown name gives ENOENT;
 *   - seeding through ALG_SET_KEY: zero length, the DRBG's usual sizes,
 *     and an oversized seed (64 KiB + 1) refused with EINVAL without
 *     changing anything (the DRBG's seed count stays, reads still work);
 *   - reads of 0, 1, 127, 128, 129 (AF_ALG returns at most 128 per call)
 *     and 65536 bytes (looping);
 *   - several operation sockets accepted from one tfm give distinct output;
 *   - an unprivileged process (uid 65534) can read.
 * One variant per RNG; a variant is skipped only when its module is not in
 * the kernel (the case that runs this loads them all, and fails first if a
 * load fails); a loaded module that does not serve its name fails.  The
 * oversized seed needs net.core.optmem_max above 64 KiB, else AF_ALG
 * refuses it before the RNG sees it (skipped then).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "afalg.h"
#include "kselftest_harness.h"

#define OVERSIZE	(65536 + 1)

static long long read_number(const char *path)
{
	FILE *f = fopen(path, "r");
	long long v = -1;

	if (f) {
		if (fscanf(f, "%lld", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v;
}

/* A seeded tfm (ALG_SET_KEY with no key) and one operation socket. */
static int open_rng(const char *name, int *tfm)
{
	int ret;

	*tfm = afalg_rng_bind(name);
	if (*tfm < 0)
		return *tfm;
	ret = afalg_rng_seed(*tfm, NULL, 0);
	if (!ret)
		ret = afalg_rng_accept(*tfm);
	if (ret < 0)
		close(*tfm);
	return ret;
}

FIXTURE(rng) {
	int tfm;
	int op;
};

FIXTURE_VARIANT(rng) {
	const char *cra;
	const char *driver;
	const char *module;
	bool drbg;
};

FIXTURE_VARIANT_ADD(rng, jitter) {
	.cra = "jitterentropy_rng",
	.driver = "jitterentropy_rng-cpurng",
	.module = "cpurng_jitter",
};

FIXTURE_VARIANT_ADD(rng, collector) {
	.cra = "cpu_randomness",
	.driver = "cpu_randomness-cpurng",
	.module = "cpurng_collector",
};

FIXTURE_VARIANT_ADD(rng, drbg) {
	.cra = "stdrng",
	.driver = "drbg_nopr_hmac_sha256-cpurng",
	.module = "cpurng_drbg",
	.drbg = true,
};

FIXTURE_SETUP(rng)
{
	int fd = afalg_rng_bind(variant->driver);

	self->tfm = -1;
	self->op = -1;
	if (fd == -ENOENT && !module_present(variant->module))
		SKIP(return, "module %s not in this kernel", variant->module);
	ASSERT_LE(0, fd) TH_LOG("bind %s: %s", variant->driver, strerror(-fd));
	close(fd);
}

FIXTURE_TEARDOWN(rng)
{
	if (self->op >= 0)
		close(self->op);
	if (self->tfm >= 0)
		close(self->tfm);
}

TEST_F(rng, bind_by_cra_name)
{
	self->tfm = afalg_rng_bind(variant->cra);
	ASSERT_LE(0, self->tfm);
}

TEST_F(rng, bind_by_driver_name)
{
	self->tfm = afalg_rng_bind(variant->driver);
	ASSERT_LE(0, self->tfm);
}

TEST_F(rng, bind_unknown_name_gives_enoent)
{
	self->tfm = afalg_rng_bind("no_such_rng_cpurng");
	ASSERT_EQ(-ENOENT, self->tfm);
}

TEST_F(rng, seed_zero_length)
{
	self->tfm = afalg_rng_bind(variant->cra);
	ASSERT_LE(0, self->tfm);
	ASSERT_EQ(0, afalg_rng_seed(self->tfm, NULL, 0));
}

/* A later seed reseeds with it as additional input. */
TEST_F(rng, seed_32_and_48_bytes)
{
	static const unsigned char seed[48];

	if (!variant->drbg)
		SKIP(return, "not a DRBG");
	self->tfm = afalg_rng_bind(variant->cra);
	ASSERT_LE(0, self->tfm);
	ASSERT_EQ(0, afalg_rng_seed(self->tfm, NULL, 0));
	ASSERT_EQ(0, afalg_rng_seed(self->tfm, seed, 32));
	ASSERT_EQ(0, afalg_rng_seed(self->tfm, seed, 48));
}

/* ALG_SET_KEY of 64 KiB + 1 on a seeded tfm; returns its result. */
static int seed_oversized(int tfm)
{
	static unsigned char big[OVERSIZE];

	return afalg_rng_seed(tfm, big, OVERSIZE);
}

#define OPTMEM_ENOUGH() \
	(read_number("/proc/sys/net/core/optmem_max") > OVERSIZE)
#define OPTMEM_SKIP_REASON \
	"net.core.optmem_max is not above 64 KiB + 1: AF_ALG would refuse the seed itself"

TEST_F(rng, oversized_seed_refused_with_einval)
{
	int ret;

	if (!OPTMEM_ENOUGH())
		SKIP(return, OPTMEM_SKIP_REASON);
	self->tfm = afalg_rng_bind(variant->cra);
	ASSERT_LE(0, self->tfm);
	ASSERT_EQ(0, afalg_rng_seed(self->tfm, NULL, 0));
	ret = seed_oversized(self->tfm);
	EXPECT_EQ(-EINVAL, ret) TH_LOG("ALG_SET_KEY of %d bytes: %s", OVERSIZE,
				       ret ? strerror(-ret) : "accepted");
}

/* After the refusal no seed was counted, and the tfm still serves. */
TEST_F(rng, refused_seed_changed_nothing)
{
	unsigned char buf[32];
	long long seeds;

	if (!OPTMEM_ENOUGH())
		SKIP(return, OPTMEM_SKIP_REASON);
	self->tfm = afalg_rng_bind(variant->cra);
	ASSERT_LE(0, self->tfm);
	ASSERT_EQ(0, afalg_rng_seed(self->tfm, NULL, 0));
	seeds = read_number("/sys/kernel/cpurng_drbg/seeds");
	ASSERT_LE(0, seeds) TH_LOG("no DRBG seed count to compare");
	ASSERT_NE(0, seed_oversized(self->tfm));
	EXPECT_EQ(seeds, read_number("/sys/kernel/cpurng_drbg/seeds"));
	self->op = afalg_rng_accept(self->tfm);
	ASSERT_LE(0, self->op);
	EXPECT_EQ(sizeof(buf), afalg_rng_read(self->op, buf, sizeof(buf)));
}

TEST_F(rng, reads_of_0_1_127_128_bytes_exact)
{
	static const size_t sizes[] = { 0, 1, 127, 128 };
	unsigned char buf[128];
	unsigned int i;

	self->op = open_rng(variant->cra, &self->tfm);
	ASSERT_LE(0, self->op);
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		EXPECT_EQ((ssize_t)sizes[i],
			  afalg_rng_read(self->op, buf, sizes[i]));
}

/* AF_ALG returns at most 128 bytes per read of an RNG. */
TEST_F(rng, read_of_129_bytes_returns_128)
{
	unsigned char buf[129];

	self->op = open_rng(variant->cra, &self->tfm);
	ASSERT_LE(0, self->op);
	EXPECT_EQ(128, afalg_rng_read(self->op, buf, sizeof(buf)));
}

TEST_F(rng, read_of_65536_bytes_in_a_loop)
{
	static unsigned char buf[65536];

	self->op = open_rng(variant->cra, &self->tfm);
	ASSERT_LE(0, self->op);
	EXPECT_EQ(sizeof(buf), afalg_rng_read_full(self->op, buf, sizeof(buf)));
}

TEST_F(rng, four_sockets_from_one_tfm_distinct)
{
	unsigned char out[4][32];
	int fds[4], i, j;

	fds[0] = open_rng(variant->cra, &self->tfm);
	ASSERT_LE(0, fds[0]);
	for (i = 1; i < 4; i++) {
		fds[i] = afalg_rng_accept(self->tfm);
		ASSERT_LE(0, fds[i]);
	}
	for (i = 0; i < 4; i++) {
		ASSERT_EQ(32, afalg_rng_read(fds[i], out[i], 32));
		close(fds[i]);
	}
	for (i = 0; i < 4; i++)
		for (j = i + 1; j < 4; j++)
			EXPECT_NE(0, memcmp(out[i], out[j], 32))
				TH_LOG("sockets %d and %d gave the same bytes", i, j);
}

TEST_F(rng, unprivileged_user_reads)
{
	int status = -1;
	pid_t pid = fork();

	ASSERT_LE(0, pid);
	if (pid == 0) {
		unsigned char buf[32];
		int tfm, op;

		if (setgid(65534) || setuid(65534))
			_exit(2);
		op = open_rng(variant->cra, &tfm);
		_exit(op >= 0 && afalg_rng_read(op, buf, 32) == 32 ? 0 : 1);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0)
		TH_LOG("child status %#x", status);
}

TEST_HARNESS_MAIN
