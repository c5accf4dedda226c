// SPDX-License-Identifier: GPL-2.0
/*
 * afalg_bench <alg> <threads> <bytes per thread> [<read size>]
 *
 * Throughput of concurrent AF_ALG readers, each with a tfm of its own
 * (seeded first: a DRBG's instantiation) and its operation socket, all
 * released together once every one is ready.  Reads are at most 128 bytes
 * (algif_rng's limit; default 128).
 *
 * Prints "ret=<0 or -errno> bytes=<total> ns=<from release to the last
 * reader done>".
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../../lib/afalg.h"

static const char *alg;
static size_t per_thread, chunk = 128;
static pthread_barrier_t ready;

struct reader {
	pthread_t thread;
	int err;
};

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void *read_all(void *arg)
{
	struct reader *r = arg;
	unsigned char buf[128];
	int tfm = afalg_rng_bind(alg), op = -1;
	size_t done = 0;

	if (tfm >= 0) {
		r->err = afalg_rng_seed(tfm, NULL, 0);
		if (r->err == -ENOPROTOOPT)
			r->err = 0;
		op = r->err ? -1 : afalg_rng_accept(tfm);
		if (!r->err && op < 0)
			r->err = op;
	} else {
		r->err = tfm;
	}
	pthread_barrier_wait(&ready);
	while (!r->err && done < per_thread) {
		ssize_t n = afalg_rng_read_full(op, buf, chunk);

		if (n != (ssize_t)chunk)
			r->err = n < 0 ? (int)n : -EIO;
		done += chunk;
	}
	if (op >= 0)
		close(op);
	if (tfm >= 0)
		close(tfm);
	return NULL;
}

int main(int argc, char **argv)
{
	unsigned int threads, i;
	struct reader *r;
	long long start;
	int err = 0;

	if (argc < 4 || argc > 5) {
		fprintf(stderr, "usage: %s <alg> <threads> <bytes per thread> [<read size>]\n",
			argv[0]);
		return 2;
	}
	alg = argv[1];
	threads = strtoul(argv[2], NULL, 0);
	per_thread = strtoull(argv[3], NULL, 0);
	if (argc == 5)
		chunk = strtoul(argv[4], NULL, 0);
	if (!threads || threads > 64 || !chunk || chunk > 128 ||
	    !per_thread || per_thread % chunk) {
		fprintf(stderr, "%s: 1-64 threads, reads of 1-128 bytes, bytes a multiple of it\n",
			argv[0]);
		return 2;
	}
	r = calloc(threads, sizeof(*r));
	if (!r || pthread_barrier_init(&ready, NULL, threads + 1))
		return 2;
	for (i = 0; i < threads; i++)
		pthread_create(&r[i].thread, NULL, read_all, &r[i]);
	pthread_barrier_wait(&ready);
	start = now_ns();
	for (i = 0; i < threads; i++) {
		pthread_join(r[i].thread, NULL);
		if (r[i].err && !err)
			err = r[i].err;
	}
	printf("ret=%d bytes=%llu ns=%lld\n", err,
	       err ? 0ULL : (unsigned long long)threads * per_thread,
	       now_ns() - start);
	return err ? 1 : 0;
}
