// SPDX-License-Identifier: GPL-2.0
/*
 * afalg_suite <cra_name> <driver_name> <jitter|collector|drbg>
 *
 * The AF_ALG surface of one of our RNGs, used as an attacker or a careless
 * caller would use it:
 *   - bind by cra_name and by driver name; an unknown name gives ENOENT;
 *   - seeding through ALG_SET_KEY: zero length, the DRBG's usual sizes,
 *     and an oversized seed (64 KiB + 1) refused with EINVAL without
 *     changing anything (the DRBG's seed count stays, reads still work);
 *   - reads of 0, 1, 127, 128, 129 (AF_ALG returns at most 128 per call)
 *     and 65536 bytes (looping);
 *   - several operation sockets accepted from one tfm give distinct output;
 *   - an unprivileged process (uid 65534) can read.
 * The oversized seed needs net.core.optmem_max above 64 KiB (the calling
 * case raises it); otherwise AF_ALG refuses it before the RNG sees it.
 */
#include <sys/wait.h>

#include "../../lib/afalg.h"
#include "../../lib/ktap.h"

#define OVERSIZE	(65536 + 1)

static const char *kind;

static long long drbg_seeds(void)
{
	FILE *f = fopen("/sys/kernel/cpurng_drbg/seeds", "r");
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
	if (ret) {
		close(*tfm);
		return ret;
	}
	ret = afalg_rng_accept(*tfm);
	if (ret < 0)
		close(*tfm);
	return ret;
}

static void test_bind(const char *cra, const char *drv)
{
	int fd;

	fd = afalg_rng_bind(cra);
	ktap_check(fd >= 0, "bind_by_cra_name");
	if (fd >= 0)
		close(fd);
	fd = afalg_rng_bind(drv);
	ktap_check(fd >= 0, "bind_by_driver_name");
	if (fd >= 0)
		close(fd);
	fd = afalg_rng_bind("no_such_rng_cpurng");
	ktap_check(fd == -ENOENT, "bind_unknown_name_gives_enoent");
	if (fd >= 0)
		close(fd);
}

static void test_seed(const char *cra)
{
	static unsigned char big[OVERSIZE], buf[32];
	int tfm = afalg_rng_bind(cra), op, ret;
	long long seeds;

	ktap_check(tfm >= 0 && afalg_rng_seed(tfm, NULL, 0) == 0,
		   "seed_zero_length");
	if (!strcmp(kind, "drbg")) {
		/* A later seed reseeds with it as additional input. */
		ktap_check(afalg_rng_seed(tfm, big, 32) == 0 &&
			   afalg_rng_seed(tfm, big, 48) == 0,
			   "seed_32_and_48_bytes");
	} else {
		ktap_skip("seed_32_and_48_bytes", "not a DRBG");
	}
	seeds = drbg_seeds();
	ret = afalg_rng_seed(tfm, big, OVERSIZE);
	if (!ktap_check(ret == -EINVAL, "oversized_seed_refused_with_einval"))
		ktap_diag("ALG_SET_KEY of %d bytes: %s", OVERSIZE,
			  ret ? strerror(-ret) : "accepted");
	op = afalg_rng_accept(tfm);
	ktap_check(op >= 0 && drbg_seeds() == seeds &&
		   afalg_rng_read(op, buf, sizeof(buf)) == sizeof(buf),
		   "refused_seed_changed_nothing");
	if (op >= 0)
		close(op);
	if (tfm >= 0)
		close(tfm);
}

static void test_reads(const char *cra)
{
	static const size_t sizes[] = { 0, 1, 127, 128 };
	static unsigned char buf[65536];
	int tfm, op = open_rng(cra, &tfm), ok = op >= 0;
	unsigned int i;

	for (i = 0; ok && i < sizeof(sizes) / sizeof(sizes[0]); i++)
		if (afalg_rng_read(op, buf, sizes[i]) != (ssize_t)sizes[i])
			ok = 0;
	ktap_check(ok, "reads_of_0_1_127_128_bytes_exact");
	ktap_check(ok && afalg_rng_read(op, buf, 129) == 128,
		   "read_of_129_bytes_returns_128");
	ktap_check(ok && afalg_rng_read_full(op, buf, sizeof(buf)) ==
		   sizeof(buf), "read_of_65536_bytes_in_a_loop");
	if (op >= 0) {
		close(op);
		close(tfm);
	}
}

static void test_fds_one_tfm(const char *cra)
{
	unsigned char out[4][32];
	int tfm, fds[4], i, j, ok = 1;

	fds[0] = open_rng(cra, &tfm);
	if (fds[0] < 0) {
		ktap_fail("four_sockets_from_one_tfm_distinct");
		return;
	}
	for (i = 1; i < 4; i++)
		fds[i] = afalg_rng_accept(tfm);
	for (i = 0; i < 4; i++)
		if (fds[i] < 0 ||
		    afalg_rng_read(fds[i], out[i], 32) != 32)
			ok = 0;
	for (i = 0; ok && i < 4; i++)
		for (j = i + 1; j < 4; j++)
			if (!memcmp(out[i], out[j], 32))
				ok = 0;
	ktap_check(ok, "four_sockets_from_one_tfm_distinct");
	for (i = 0; i < 4; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	close(tfm);
}

static void test_unprivileged(const char *cra)
{
	int status = 1;
	pid_t pid = fork();

	if (pid == 0) {
		unsigned char buf[32];
		int tfm, op;

		if (setgid(65534) || setuid(65534))
			_exit(2);
		op = open_rng(cra, &tfm);
		_exit(op >= 0 && afalg_rng_read(op, buf, 32) == 32 ? 0 : 1);
	}
	if (pid > 0)
		waitpid(pid, &status, 0);
	ktap_check(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		   "unprivileged_user_reads");
}

int main(int argc, char **argv)
{
	if (argc != 4) {
		fprintf(stderr, "usage: %s <cra_name> <driver> <jitter|collector|drbg>\n",
			argv[0]);
		return 2;
	}
	kind = argv[3];
	ktap_plan(12);
	test_bind(argv[1], argv[2]);
	test_seed(argv[1]);
	test_reads(argv[1]);
	test_fds_one_tfm(argv[1]);
	test_unprivileged(argv[1]);
	return ktap_exit();
}
