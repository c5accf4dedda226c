// SPDX-License-Identifier: GPL-2.0
/*
 * Many concurrent AF_ALG readers of one cpurng RNG.  "shared": every thread
 * accepts its own operation socket from one tfm (one instance, its lock
 * contended); "separate": every thread binds a tfm of its own.  A tfm is
 * seeded (ALG_SET_KEY with no key: a DRBG's instantiation) before any
 * accept, and each thread reads 32 bytes at a time.  No read may fail and
 * no two 32-byte outputs may be equal.
 *
 * The fixture's setup runs the readers; each test judges one property of
 * that run.  Variants name the RNG, the tfm sharing and threads x reads;
 * the VM tests pick theirs with -v (make check: userspace and drbg groups).
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "afalg.h"
#include "kselftest_harness.h"

#define OUT	32

struct readers {
	const char *alg;
	int shared_tfm;
	unsigned int reads;
	unsigned char *outputs;
};

struct worker {
	pthread_t thread;
	struct readers *r;
	unsigned int index;
	int err;
	unsigned int done;
};

static int open_tfm(const char *alg)
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
	struct readers *r = w->r;
	int tfm = r->shared_tfm >= 0 ? r->shared_tfm : open_tfm(r->alg);
	int op = tfm < 0 ? tfm : afalg_rng_accept(tfm);
	unsigned int i;

	if (op < 0) {
		w->err = op;
		return NULL;
	}
	for (i = 0; i < r->reads; i++) {
		ssize_t n = afalg_rng_read_full(op, r->outputs +
				((size_t)w->index * r->reads + i) * OUT, OUT);

		if (n != OUT) {
			w->err = n < 0 ? (int)n : -EIO;
			break;
		}
		w->done++;
	}
	close(op);
	if (r->shared_tfm < 0)
		close(tfm);
	return NULL;
}

static int cmp(const void *a, const void *b)
{
	return memcmp(a, b, OUT);
}

FIXTURE(readers) {
	struct readers r;
	unsigned int done;
	unsigned int failed_threads;
	int first_err;
};

FIXTURE_VARIANT(readers) {
	const char *alg;
	bool shared;
	unsigned int threads;
	unsigned int reads;
};

FIXTURE_VARIANT_ADD(readers, stdrng_shared_32x1000) {
	.alg = "stdrng", .shared = true, .threads = 32, .reads = 1000,
};

FIXTURE_VARIANT_ADD(readers, stdrng_separate_32x1000) {
	.alg = "stdrng", .threads = 32, .reads = 1000,
};

FIXTURE_VARIANT_ADD(readers, collector_shared_32x1000) {
	.alg = "cpu_randomness", .shared = true, .threads = 32, .reads = 1000,
};

FIXTURE_VARIANT_ADD(readers, collector_separate_32x1000) {
	.alg = "cpu_randomness", .threads = 32, .reads = 1000,
};

/* The jitter RNG makes about 6 KB/s under TCG: fewer reads per thread. */
FIXTURE_VARIANT_ADD(readers, jitter_separate_32x10) {
	.alg = "jitterentropy_rng", .threads = 32, .reads = 10,
};

FIXTURE_VARIANT_ADD(readers, stdrng_shared_16x500) {
	.alg = "stdrng", .shared = true, .threads = 16, .reads = 500,
};

FIXTURE_VARIANT_ADD(readers, ctr_aes256_separate_16x500) {
	.alg = "drbg_nopr_ctr_aes256-cpurng", .threads = 16, .reads = 500,
};

FIXTURE_SETUP(readers)
{
	struct worker *w;
	unsigned int i;

	self->r.alg = variant->alg;
	self->r.reads = variant->reads;
	self->r.shared_tfm = -1;
	self->r.outputs = calloc((size_t)variant->threads * variant->reads, OUT);
	w = calloc(variant->threads, sizeof(*w));
	ASSERT_NE(NULL, self->r.outputs);
	ASSERT_NE(NULL, w);
	if (variant->shared) {
		self->r.shared_tfm = open_tfm(variant->alg);
		ASSERT_LE(0, self->r.shared_tfm)
			TH_LOG("%s: %s", variant->alg, strerror(-self->r.shared_tfm));
	}
	for (i = 0; i < variant->threads; i++) {
		w[i].r = &self->r;
		w[i].index = i;
		ASSERT_EQ(0, pthread_create(&w[i].thread, NULL, work, &w[i]));
	}
	for (i = 0; i < variant->threads; i++) {
		pthread_join(w[i].thread, NULL);
		self->done += w[i].done;
		if (w[i].err && !self->failed_threads++)
			self->first_err = w[i].err;
	}
	free(w);
	TH_LOG("%s, %s tfm: %u threads x %u reads, %u reads done, %u threads failed",
	       variant->alg, variant->shared ? "shared" : "separate",
	       variant->threads, variant->reads, self->done,
	       self->failed_threads);
}

FIXTURE_TEARDOWN(readers)
{
	if (self->r.shared_tfm >= 0)
		close(self->r.shared_tfm);
	free(self->r.outputs);
}

TEST_F(readers, all_reads_succeed)
{
	EXPECT_EQ(0, self->failed_threads)
		TH_LOG("first failure: %s", strerror(-self->first_err));
	EXPECT_EQ(variant->threads * variant->reads, self->done);
}

TEST_F(readers, no_two_outputs_equal)
{
	size_t n = (size_t)variant->threads * variant->reads, i, dups = 0;

	ASSERT_EQ(n, self->done);
	qsort(self->r.outputs, n, OUT, cmp);
	for (i = 1; i < n; i++)
		if (!memcmp(self->r.outputs + (i - 1) * OUT,
			    self->r.outputs + i * OUT, OUT))
			dups++;
	EXPECT_EQ(0, dups) TH_LOG("%zu repeated 32-byte outputs", dups);
}

TEST_HARNESS_MAIN
