/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Raw AF_ALG access to crypto_rng algorithms for guest tests that must see
 * exact errnos (libkcapi folds some of them).  Functions return a file
 * descriptor or a byte count, or -errno.
 */
#ifndef CPURNG_TEST_AFALG_H
#define CPURNG_TEST_AFALG_H

#include <errno.h>
#include <limits.h>
#include <linux/if_alg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#ifndef SOL_ALG
#define SOL_ALG 279
#endif

/*
 * Whether module @name is in the kernel (/sys/module/<name>: our modules
 * have parameters, so the directory is there when built in, too).  A test
 * may skip an algorithm only when its module is absent: a module that is
 * loaded and still does not serve its name is a failure.
 */
static inline bool module_present(const char *name)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "/sys/module/%s", name);
	return access(path, F_OK) == 0;
}

/* Bind a new tfm to @name; returns the tfm socket. */
static inline int afalg_rng_bind(const char *name)
{
	struct sockaddr_alg sa = { .salg_family = AF_ALG };
	int fd = socket(AF_ALG, SOCK_SEQPACKET, 0);

	if (fd < 0)
		return -errno;
	strncpy((char *)sa.salg_type, "rng", sizeof(sa.salg_type));
	strncpy((char *)sa.salg_name, name, sizeof(sa.salg_name) - 1);
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		int err = -errno;

		close(fd);
		return err;
	}
	return fd;
}

/* An operation socket on a bound tfm. */
static inline int afalg_rng_accept(int tfmfd)
{
	int fd = accept(tfmfd, NULL, 0);

	return fd < 0 ? -errno : fd;
}

/* crypto_rng_reset() through ALG_SET_KEY. */
static inline int afalg_rng_seed(int tfmfd, const void *seed, socklen_t len)
{
	return setsockopt(tfmfd, SOL_ALG, ALG_SET_KEY, seed, len) < 0 ?
	       -errno : 0;
}

/* One read; AF_ALG returns at most 128 bytes per call. */
static inline ssize_t afalg_rng_read(int opfd, void *buf, size_t len)
{
	ssize_t n = read(opfd, buf, len);

	return n < 0 ? -errno : n;
}

/* Read exactly @len bytes, looping over short reads. */
static inline ssize_t afalg_rng_read_full(int opfd, void *buf, size_t len)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = afalg_rng_read(opfd, (char *)buf + done,
					   len - done);

		if (n <= 0)
			return n ? n : -EIO;
		done += n;
	}
	return done;
}

#endif /* CPURNG_TEST_AFALG_H */
