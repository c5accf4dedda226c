/* SPDX-License-Identifier: GPL-2.0 */
/*
 * CPU Jitter RNG (cpurng_jitter.ko): interfaces between the module's objects.
 *
 *   jitter_noise.c     timed workloads, -O0, kernel-agnostic
 *   jitter_health.c    SP800-90B health tests, kernel-agnostic
 *   jitter_timer.c     the timer the noise core reads
 *   jitter_pool.c      SHA-256 conditioning into 256-bit blocks
 *   jitter_instance.c  one noise source per crypto tfm: sampling, blocks
 *   jitter_status.c    counters and sysfs status
 *   jitter_kcapi.c     module parameters, crypto_rng registration
 *   jitter_capture.c   raw-noise capture in debugfs (raw_capture=1 only)
 *   jitter_estimate.c  integer SP800-90B estimates, kernel-agnostic
 *   jitter_assess.c    the estimate at load and on request; osr=auto
 *   jitter_test.c      test-only hooks (CONFIG_CRYPTO_CPURNG_TESTING)
 */
#ifndef CPURNG_JITTER_H
#define CPURNG_JITTER_H

#include <linux/atomic.h>
#include <linux/mutex.h>
#include <linux/types.h>

#include "fork_watch.h"
#include "jitter_estimate.h"
#include "jitter_health.h"
#include "jitter_noise.h"

#define CPURNG_JENT_NAME	"jitterentropy_rng"
#define CPURNG_JENT_DRIVER	"jitterentropy_rng-cpurng"
/* The testing build's name beside a built-in stock jitter RNG. */
#define CPURNG_JENT_TEST_NAME	"jitterentropy_rng_test"

/* Output block: the SHA-256 digest size. */
#define CPURNG_JENT_BLOCK_BYTES	32
#define CPURNG_JENT_BLOCK_BITS	(CPURNG_JENT_BLOCK_BYTES * 8)

/*
 * SP800-90B 3.1.5.1.2: a vetted conditioning function yields full entropy
 * output of n bits when it receives at least n + 64 bits of entropy.
 */
#define CPURNG_JENT_SAFETY_BITS	64

/* Samples hashed together: 32 samples of two 64-bit deltas (512 bytes). */
#define CPURNG_JENT_BATCH	32

/**
 * struct cpurng_jent_config - parameters shared by all instances
 * @osr: oversampling rate; each credited sample counts 1/@osr bit
 * @mem_size: memory buffer per instance in bytes, a power of two
 * @mem_loops: memory accesses per sample
 * @fold_loops: timestamp foldings per sample
 */
struct cpurng_jent_config {
	u32 osr;
	u32 mem_size;
	u32 mem_loops;
	u32 fold_loops;
};

extern struct cpurng_jent_config cpurng_jent_config;

/*
 * Defaults (the module's parameters) and bounds.  The evidence report
 * (Documentation/entropy-evidence.rst) is where the defaults must be
 * justified.  osr 6 claims 1/6 bit per sample: the lowest SP800-90B
 * estimate measured under load was 0.452 bits/sample, which would carry
 * osr 3, but the module's own load-time check (twice the credit, from
 * one block of 8192 samples) read as low as 0.344 there, and osr 6 is the
 * smallest that check passes with on the machine the evidence comes from.
 * A 64 KiB buffer is larger than the L1 data cache of common CPUs, so the
 * walk keeps reaching into L2.
 */
#define CPURNG_JENT_DEFAULT_OSR		6U
#define CPURNG_JENT_DEFAULT_MEM_SIZE	(64U << 10)
#define CPURNG_JENT_DEFAULT_MEM_LOOPS	128U
#define CPURNG_JENT_DEFAULT_FOLD_LOOPS	1U
#define CPURNG_JENT_MEM_MIN		256U
#define CPURNG_JENT_MEM_MAX		(64U << 20)
#define CPURNG_JENT_LOOPS_MAX		65536U
#define CPURNG_JENT_FOLDS_MAX		64U

/* 0, or -EINVAL after logging which parameter is out of its bounds. */
int cpurng_jent_check_config(const struct cpurng_jent_config *c);

/**
 * struct cpurng_jent_pool - conditioning state of one instance
 * @desc: running SHA-256 over raw samples since the last block
 */
struct cpurng_jent_pool {
	struct shash_desc *desc;
};

int cpurng_jent_pool_init(struct cpurng_jent_pool *pool);
void cpurng_jent_pool_free(struct cpurng_jent_pool *pool);
int cpurng_jent_pool_absorb(struct cpurng_jent_pool *pool, const void *data,
			    unsigned int len);
int cpurng_jent_pool_extract(struct cpurng_jent_pool *pool,
			     u8 out[CPURNG_JENT_BLOCK_BYTES]);
int cpurng_jent_pool_setup(void);
void cpurng_jent_pool_teardown(void);

/**
 * struct cpurng_jent - one noise source instance, owned by one crypto tfm
 * @lock: serialises users of the instance (several AF_ALG sockets may share
 *	  a tfm); never held across more than one output block
 * @noise: noise core state
 * @health: health test state
 * @pool: conditioning state
 * @batch: raw samples waiting to be hashed
 * @batched: entries used in @batch
 * @dead: a permanent health failure or a failed (re)start; only a reset
 *	  revives the instance
 * @test_seq: sample counter for the test-only forced patterns
 * @reported_samples: health.samples already added to the global statistics
 * @reported_stuck: health.stuck already added to the global statistics
 * @fork_gen: generation of cpurng_jent_forks the pool has taken fresh
 *	  input for
 */
struct cpurng_jent {
	struct mutex lock;	/* see @lock above */
	struct cpurng_noise noise;
	struct cpurng_health health;
	struct cpurng_jent_pool pool;
	u64 batch[2 * CPURNG_JENT_BATCH];
	unsigned int batched;
	bool dead;
	u64 test_seq;
	u64 reported_samples;
	u64 reported_stuck;
	unsigned int fork_gen;
};

/* VM forks and resumes (jitter_kcapi.c starts the watch). */
extern struct cpurng_fork_watch cpurng_jent_forks;

int cpurng_jent_init(struct cpurng_jent *j);
void cpurng_jent_free(struct cpurng_jent *j);
int cpurng_jent_generate(struct cpurng_jent *j, const u8 *addtl,
			 unsigned int addtl_len, u8 *out, unsigned int len);
int cpurng_jent_reset(struct cpurng_jent *j, const u8 *seed,
		      unsigned int len);
int cpurng_jent_platform_check(void);
/*
 * @n raw deltas from a throw-away noise instance in the module's
 * configuration (no health tests, no conditioning): for the estimate.
 */
int cpurng_jent_raw_deltas(u64 *out, u32 n);

/*
 * The claim checked on this machine (jitter_assess.c).  The in-kernel
 * estimate must reach CPURNG_JENT_ASSESS_MARGIN times the credited 1/osr
 * bit per sample: the estimate covers three of the ten SP800-90B 6.3
 * estimators on one block and no restart test, and the noise varies with
 * load (Documentation/entropy-evidence.rst), so equality would be no check.
 */
#define CPURNG_JENT_ASSESS_MARGIN	2U
/* Samples per estimate (module parameter assess_samples; 0: no check). */
#define CPURNG_JENT_ASSESS_SAMPLES	8192U

/**
 * struct cpurng_jent_assessment - the latest in-kernel estimate
 * @est: its result (valid when @runs > 0)
 * @runs: estimates taken (at load and on request)
 * @low: estimates below CPURNG_JENT_ASSESS_MARGIN times the credit
 * @osr_needed: the smallest osr the latest estimate supports with the
 *	margin (CPURNG_OSR_MAX + 1: none)
 */
struct cpurng_jent_assessment {
	struct cpurng_estimate est;
	u32 runs;
	u32 low;
	u32 osr_needed;
};

int cpurng_jent_assess_at_load(bool osr_auto);
/* A new estimate; @out (may be NULL) receives the assessment it made. */
int cpurng_jent_assess_now(struct cpurng_jent_assessment *out);
void cpurng_jent_assessment_get(struct cpurng_jent_assessment *a);
extern bool cpurng_jent_osr_auto;

/* Global statistics, exported through sysfs by jitter_status.c. */
void cpurng_jent_stats_instance(int delta);
void cpurng_jent_stats_failed_instance(int delta);
void cpurng_jent_stats_samples(u64 samples, u64 stuck);
void cpurng_jent_stats_failure(enum cpurng_health_test test, bool permanent);
void cpurng_jent_stats_output(unsigned int blocks, unsigned int bytes);
void cpurng_jent_stats_startup(enum cpurng_startup_error err);
int cpurng_jent_status_init(void);
void cpurng_jent_status_exit(void);

/* Timer (jitter_timer.c). */
const char *cpurng_jent_timer_name(void);

/* Raw-noise capture (jitter_capture.c). */
int cpurng_jent_capture_init(void);
void cpurng_jent_capture_exit(void);
bool cpurng_jent_capture_enabled(void);
bool cpurng_jent_capture_recording(void);

/* True when FIPS semantics apply: fips=1, or the test-only switch. */
bool cpurng_jent_fips(void);

#if IS_ENABLED(CONFIG_CRYPTO_CPURNG_TESTING)
void cpurng_jent_test_sample(struct cpurng_jent *j,
			     struct cpurng_noise_sample *s);
bool cpurng_jent_test_fips(void);
bool cpurng_jent_test_coarse_timer(void);
bool cpurng_jent_test_skip_startup(void);
bool cpurng_jent_test_rename(void);
#else
static inline void cpurng_jent_test_sample(struct cpurng_jent *j,
					   struct cpurng_noise_sample *s)
{
}

static inline bool cpurng_jent_test_fips(void)
{
	return false;
}

static inline bool cpurng_jent_test_coarse_timer(void)
{
	return false;
}

static inline bool cpurng_jent_test_skip_startup(void)
{
	return false;
}

static inline bool cpurng_jent_test_rename(void)
{
	return false;
}
#endif

#endif /* CPURNG_JITTER_H */
