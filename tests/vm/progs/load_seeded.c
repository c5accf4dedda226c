// SPDX-License-Identifier: GPL-2.0
/*
 * load_seeded <module.ko> [<bytes>]
 *
 * Time from loading a DRBG module to the first output of a kernel
 * consumer, in one process: finit_module() of the file (what modprobe does
 * once it has found it; the dependencies must be loaded already), then
 * "default-get <bytes>" through the cpurng_test_rng debugfs file
 * (crypto_get_default_rng() and crypto_rng_get_bytes()).  Starting a
 * program costs about 30 ms under QEMU TCG, which a shell's "modprobe"
 * and "cat" would add to the figure.
 *
 * Prints "load_us=<finit_module> output_us=<load to output> <result>",
 * the result being the debugfs answer (driver= ret= hex=).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define CTL "/sys/kernel/debug/cpurng_test_rng/ctl"

static long long now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000LL + ts.tv_nsec / 1000;
}

int main(int argc, char **argv)
{
	char cmd[64], result[16384];
	long long t0, t1, t2;
	int fd, ctl;
	ssize_t n;

	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: load_seeded <module.ko> [<bytes>]\n");
		return 2;
	}
	snprintf(cmd, sizeof(cmd), "default-get %s", argc == 3 ? argv[2] : "32");
	fd = open(argv[1], O_RDONLY | O_CLOEXEC);
	ctl = open(CTL, O_RDWR | O_CLOEXEC);
	if (fd < 0 || ctl < 0) {
		fprintf(stderr, "load_seeded: %s: %s\n", fd < 0 ? argv[1] : CTL,
			strerror(errno));
		return 1;
	}
	t0 = now_us();
	if (syscall(SYS_finit_module, fd, "", 0)) {
		fprintf(stderr, "load_seeded: finit_module: %s\n", strerror(errno));
		return 1;
	}
	t1 = now_us();
	if (write(ctl, cmd, strlen(cmd)) < 0) {
		fprintf(stderr, "load_seeded: %s: %s\n", cmd, strerror(errno));
		return 1;
	}
	n = pread(ctl, result, sizeof(result) - 1, 0);
	t2 = now_us();
	if (n < 0) {
		fprintf(stderr, "load_seeded: reading %s: %s\n", CTL, strerror(errno));
		return 1;
	}
	result[n] = '\0';
	printf("load_us=%lld output_us=%lld %s", t1 - t0, t2 - t0, result);
	return 0;
}
