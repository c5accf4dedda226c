// SPDX-License-Identifier: GPL-2.0
/*
 * The error contract of the jitter RNG under a forced health failure,
 * through AF_ALG: the testing build's test_force parameter makes the next
 * samples fail the RCT or the APT.  The first read after the fault gives
 * EAGAIN (intermittent failure), the next EFAULT (permanent), reads keep
 * failing after the fault is gone, and a reset (ALG_SET_KEY, i.e.
 * crypto_rng_reset) revives the instance; the status counters record each
 * step.  AF_ALG accepts a key only while no operation socket is open, so
 * the reset closes the operation socket and accepts a new one on the same
 * tfm.  Each test drives a fresh instance as far as it needs.
 *
 * permanent_failure_panics_in_fips_mode runs only with FIPS semantics on
 * (fips=1, or the testing build's test_fips): the permanent failure must
 * panic the kernel, which the VM harness checks by the panic message.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "afalg.h"
#include "kselftest_harness.h"

#define PARAM	"/sys/module/cpurng_jitter/parameters/test_force"
#define STATUS	"/sys/kernel/cpurng_jitter/"

static int write_file(const char *path, const char *value)
{
	FILE *f = fopen(path, "w");
	int ret;

	if (!f)
		return -errno;
	ret = fputs(value, f) < 0 ? -EIO : 0;
	return fclose(f) ? -errno : ret;
}

static long long read_status(const char *name)
{
	char path[256];
	long long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), STATUS "%s", name);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fscanf(f, "%lld", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

/* A 32-byte read: its byte count, or -errno. */
static ssize_t read32(int op)
{
	unsigned char buf[32];

	return afalg_rng_read(op, buf, sizeof(buf));
}

FIXTURE(fault) {
	int tfm;
	int op;
	char intermittent[64];
	char permanent[64];
};

FIXTURE_VARIANT(fault) {
	const char *test;
};

FIXTURE_VARIANT_ADD(fault, rct) { .test = "rct" };
FIXTURE_VARIANT_ADD(fault, apt) { .test = "apt" };

FIXTURE_SETUP(fault)
{
	self->tfm = -1;
	self->op = -1;
	if (access(PARAM, W_OK))
		SKIP(return, "cpurng_jitter not loaded, or built without "
		     "CONFIG_CRYPTO_CPURNG_TESTING");
	snprintf(self->intermittent, sizeof(self->intermittent),
		 "%s_intermittent", variant->test);
	snprintf(self->permanent, sizeof(self->permanent), "%s_permanent",
		 variant->test);
	self->tfm = afalg_rng_bind("jitterentropy_rng");
	ASSERT_LE(0, self->tfm) TH_LOG("bind: %s", strerror(-self->tfm));
	self->op = afalg_rng_accept(self->tfm);
	ASSERT_LE(0, self->op);
}

FIXTURE_TEARDOWN(fault)
{
	write_file(PARAM, "none");
	if (self->op >= 0)
		close(self->op);
	if (self->tfm >= 0)
		close(self->tfm);
}

/* Make the next samples fail health test @test ("rct" or "apt"). */
static void arm(struct __test_metadata *_metadata, const char *test)
{
	ASSERT_EQ(0, write_file(PARAM, test));
}

/* Arm the fault and read through the intermittent and permanent failure. */
static void fail_permanently(struct __test_metadata *_metadata, int op,
			     const char *test)
{
	arm(_metadata, test);
	ASSERT_EQ(-EAGAIN, read32(op));
	ASSERT_EQ(-EFAULT, read32(op));
}

TEST_F(fault, healthy_instance_reads)
{
	EXPECT_EQ(32, read32(self->op));
}

/*
 * The knob reads back what was armed, an unknown value is refused without
 * changing it, and arming alone counts no failure: the failure comes with
 * the next read (the tests below).
 */
TEST_F(fault, forced_fault_armed_and_read_back)
{
	char got[16] = "";
	long long before = read_status(self->intermittent);
	FILE *f;

	ASSERT_LE(0, before);
	arm(_metadata, variant->test);
	EXPECT_EQ(-EINVAL, write_file(PARAM, "no_such_test"));
	f = fopen(PARAM, "r");
	ASSERT_NE(NULL, f);
	ASSERT_NE(NULL, fgets(got, sizeof(got), f));
	fclose(f);
	got[strcspn(got, "\n")] = '\0';
	EXPECT_STREQ(variant->test, got);
	EXPECT_EQ(before, read_status(self->intermittent));
}

TEST_F(fault, intermittent_failure_gives_eagain)
{
	arm(_metadata, variant->test);
	EXPECT_EQ(-EAGAIN, read32(self->op));
}

TEST_F(fault, permanent_failure_gives_efault)
{
	arm(_metadata, variant->test);
	ASSERT_EQ(-EAGAIN, read32(self->op));
	EXPECT_EQ(-EFAULT, read32(self->op));
}

TEST_F(fault, permanent_failure_persists)
{
	fail_permanently(_metadata, self->op, variant->test);
	EXPECT_EQ(-EFAULT, read32(self->op));
}

TEST_F(fault, status_counts_one_intermittent_and_one_permanent)
{
	long long inter0 = read_status(self->intermittent);
	long long perm0 = read_status(self->permanent);

	ASSERT_LE(0, inter0);
	ASSERT_LE(0, perm0);
	fail_permanently(_metadata, self->op, variant->test);
	EXPECT_EQ(inter0 + 1, read_status(self->intermittent));
	EXPECT_EQ(perm0 + 1, read_status(self->permanent));
}

TEST_F(fault, status_shows_failed_instance)
{
	fail_permanently(_metadata, self->op, variant->test);
	EXPECT_EQ(1, read_status("failed_instances"));
}

TEST_F(fault, fault_gone_instance_still_failed_until_reset)
{
	fail_permanently(_metadata, self->op, variant->test);
	ASSERT_EQ(0, write_file(PARAM, "none"));
	EXPECT_EQ(-EFAULT, read32(self->op));
}

/*
 * Fail permanently, clear the fault and reset the tfm (AF_ALG takes a key
 * only with no operation socket open); returns the reset's result.
 */
static int fail_and_reset(struct __test_metadata *_metadata, int tfm, int *op,
			  const char *test)
{
	fail_permanently(_metadata, *op, test);
	ASSERT_EQ(0, write_file(PARAM, "none"));
	close(*op);
	*op = -1;
	return afalg_rng_seed(tfm, "reset", 5);
}

TEST_F(fault, reset_revives_instance)
{
	EXPECT_EQ(0, fail_and_reset(_metadata, self->tfm, &self->op,
				    variant->test));
	EXPECT_EQ(0, read_status("failed_instances"));
}

TEST_F(fault, revived_instance_reads)
{
	ASSERT_EQ(0, fail_and_reset(_metadata, self->tfm, &self->op,
				    variant->test));
	self->op = afalg_rng_accept(self->tfm);
	ASSERT_LE(0, self->op);
	EXPECT_EQ(32, read32(self->op));
}

/* Under FIPS semantics the permanent failure must not return at all. */
TEST_F(fault, permanent_failure_panics_in_fips_mode)
{
	if (read_status("fips") != 1)
		SKIP(return, "FIPS semantics off (fips=1 or the testing build's test_fips=1)");
	arm(_metadata, variant->test);
	ASSERT_EQ(-EAGAIN, read32(self->op));
	TH_LOG("next read must panic the kernel");
	fflush(stdout);
	read32(self->op);
	TH_LOG("still running: no panic");
	ASSERT_TRUE(false);
}

TEST_HARNESS_MAIN
