// SPDX-License-Identifier: GPL-2.0
/*
 * afalg_threads <alg> <threads> <reads> <shared|separate>
 *
 * Many concurrent AF_ALG readers of one crypto_rng: with "shared" every
 * thread accepts its own operation socket from one tfm (one instance, its
 * lock contended), with "separate" every thread binds a tfm of its own.
 * A tfm is seeded (ALG_SET_KEY with no key: a DRBG's instantiation) before
 * any accept.  Each thread reads <reads> times 32 bytes.  Passes when no
 * read fails and no two 32-byte outputs are equal.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../lib/afalg.h"
#include "../../lib/ktap.h"

#define OUT	32

static const char *alg;
static int shared_tfm = -1;
static unsigned int reads;
static unsigned char *outputs;

struct worker {
	pthread_t thread;
	unsigned int index;
	int err;
	unsigned int done;
};

static int open_tfm(void)
{
	int fd = afalg_rng_bind(alg), ret;

	if (fd < 0)
		return fd;
	ret = afalg_rng_seed(fd, NULL, 0);
	if (ret && ret != -ENOPROTOOPT) {
		close(fd);
		return ret;
	}
	return fd;
}

static void *work(void *arg)
{
	struct worker *w = arg;
	int tfm = shared_tfm >= 0 ? shared_tfm : open_tfm();
	int op = tfm < 0 ? tfm : afalg_rng_accept(tfm);
	unsigned int i;

	if (op < 0) {
		w->err = op;
		return NULL;
	}
	for (i = 0; i < reads; i++) {
		ssize_t n = afalg_rng_read_full(op, outputs +
				((size_t)w->index * reads + i) * OUT, OUT);

		if (n != OUT) {
			w->err = n < 0 ? (int)n : -EIO;
			break;
		}
		w->done++;
	}
	close(op);
	if (shared_tfm < 0)
		close(tfm);
	return NULL;
}

static int cmp(const void *a, const void *b)
{
	return memcmp(a, b, OUT);
}

int main(int argc, char **argv)
{
	unsigned int threads, i, done = 0, dups = 0;
	struct worker *w;
	int errors = 0;

	if (argc != 5) {
		fprintf(stderr, "usage: %s <alg> <threads> <reads> <shared|separate>\n",
			argv[0]);
		return 2;
	}
	alg = argv[1];
	threads = atoi(argv[2]);
	reads = atoi(argv[3]);
	outputs = calloc((size_t)threads * reads, OUT);
	w = calloc(threads, sizeof(*w));
	if (!outputs || !w)
		return 2;
	ktap_plan(2);
	if (!strcmp(argv[4], "shared")) {
		shared_tfm = open_tfm();
		if (shared_tfm < 0) {
			ktap_diag("%s: %s", alg, strerror(-shared_tfm));
			ktap_fail("tfm");
			ktap_skip("outputs_distinct", "no tfm");
			return ktap_exit();
		}
	}
	for (i = 0; i < threads; i++) {
		w[i].index = i;
		pthread_create(&w[i].thread, NULL, work, &w[i]);
	}
	for (i = 0; i < threads; i++) {
		pthread_join(w[i].thread, NULL);
		done += w[i].done;
		if (w[i].err) {
			if (!errors++)
				ktap_diag("thread %u: %s", i, strerror(-w[i].err));
		}
	}
	ktap_diag("%s, %s tfm: %u threads x %u reads, %u reads done, %d threads failed",
		  alg, argv[4], threads, reads, done, errors);
	ktap_check(!errors && done == threads * reads, "all_reads_succeed");
	qsort(outputs, (size_t)threads * reads, OUT, cmp);
	for (i = 1; i < threads * reads; i++)
		if (!memcmp(outputs + (size_t)(i - 1) * OUT,
			    outputs + (size_t)i * OUT, OUT))
			dups++;
	if (dups)
		ktap_diag("%u repeated 32-byte outputs", dups);
	ktap_check(!dups, "no_two_outputs_equal");
	return ktap_exit();
}
