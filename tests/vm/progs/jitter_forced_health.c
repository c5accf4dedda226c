// SPDX-License-Identifier: GPL-2.0
/*
 * jitter_forced_health <rct|apt> [--until-panic]
 *
 * Drive one jitterentropy_rng instance through a forced health failure
 * using the testing build's test_force parameter, and check the error
 * contract: the first read after the fault gives EAGAIN (intermittent), the
 * next EFAULT (permanent), reads keep failing after the fault is gone, and
 * a reset (ALG_SET_KEY -> crypto_rng_reset) revives the instance.  AF_ALG
 * accepts a key only while no operation socket is open, so the reset
 * closes the operation socket and accepts a new one on the same tfm.  The
 * status counters must record each step.
 *
 * With --until-panic the program stops after arming the fault and keeps
 * reading: under FIPS semantics the permanent failure must panic the
 * kernel, which the harness checks by the panic message.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../lib/afalg.h"
#include "../../lib/ktap.h"

#define PARAM	"/sys/module/cpurng_jitter/parameters/test_force"
#define STATUS	"/sys/kernel/cpurng_jitter/"

static int write_file(const char *path, const char *value)
{
	FILE *f = fopen(path, "w");
	int ret;

	if (!f)
		return -1;
	ret = fputs(value, f) < 0 ? -1 : 0;
	return fclose(f) ? -1 : ret;
}

static long long read_counter(const char *name)
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

static void check_read(int opfd, int want, const char *name)
{
	unsigned char buf[32];
	ssize_t n = afalg_rng_read(opfd, buf, sizeof(buf));

	if (!ktap_check(want ? n == -want : n == (ssize_t)sizeof(buf), name))
		ktap_diag("read returned %zd (%s), wanted %s", n,
			  n < 0 ? strerror((int)-n) : "bytes",
			  want ? strerror(want) : "32 bytes");
}

int main(int argc, char **argv)
{
	char inter[64], perm[64];
	long long inter0, perm0;
	int tfmfd, opfd, ret;

	if (argc < 2 || (strcmp(argv[1], "rct") && strcmp(argv[1], "apt"))) {
		fprintf(stderr, "usage: %s <rct|apt> [--until-panic]\n", argv[0]);
		return 2;
	}
	snprintf(inter, sizeof(inter), "%s_intermittent", argv[1]);
	snprintf(perm, sizeof(perm), "%s_permanent", argv[1]);

	tfmfd = afalg_rng_bind("jitterentropy_rng");
	opfd = tfmfd < 0 ? tfmfd : afalg_rng_accept(tfmfd);
	if (opfd < 0) {
		ktap_plan(1);
		ktap_fail("bind_jitterentropy_rng");
		ktap_diag("AF_ALG: %s", strerror(-opfd));
		return ktap_exit();
	}

	if (argc > 2 && !strcmp(argv[2], "--until-panic")) {
		ktap_plan(1);
		write_file(PARAM, argv[1]);
		check_read(opfd, EAGAIN, "intermittent_failure_gives_eagain");
		ktap_diag("next read must panic the kernel");
		fflush(stdout);
		afalg_rng_read(opfd, inter, 32);
		ktap_diag("still running: no panic");
		return KTAP_EXIT_FAIL;
	}

	ktap_plan(10);
	inter0 = read_counter(inter);
	perm0 = read_counter(perm);
	check_read(opfd, 0, "healthy_instance_reads");

	ktap_check(!write_file(PARAM, argv[1]), "arm_forced_fault");
	check_read(opfd, EAGAIN, "intermittent_failure_gives_eagain");
	check_read(opfd, EFAULT, "permanent_failure_gives_efault");
	check_read(opfd, EFAULT, "permanent_failure_persists");
	ktap_check(read_counter(inter) == inter0 + 1 &&
		   read_counter(perm) == perm0 + 1,
		   "status_counts_one_intermittent_and_one_permanent");
	ktap_check(read_counter("failed_instances") == 1,
		   "status_shows_failed_instance");

	write_file(PARAM, "none");
	check_read(opfd, EFAULT, "fault_gone_instance_still_failed_until_reset");
	close(opfd);
	ret = afalg_rng_seed(tfmfd, "reset", 5);
	if (!ktap_check(ret == 0 && read_counter("failed_instances") == 0,
			"reset_revives_instance"))
		ktap_diag("ALG_SET_KEY: %s", strerror(-ret));
	opfd = afalg_rng_accept(tfmfd);
	check_read(opfd, 0, "revived_instance_reads");

	close(opfd);
	close(tfmfd);
	return ktap_exit();
}
