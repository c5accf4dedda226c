// SPDX-License-Identifier: GPL-2.0
/*
 * CPU Jitter RNG instance: one noise source, with its own memory buffer,
 * health state and conditioning pool, per crypto tfm.
 *
 * An output block of 256 bits is assembled from
 * (256 + 64) * osr credited samples (each credited with 1/osr bit, plus the
 * SP800-90B 3.1.5.1.2 safety margin), so the block carries full entropy
 * under the claimed min-entropy.  Every sample goes through the continuous
 * health tests before it counts; stuck samples are hashed but not counted.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/log2.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/random.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "../include/cpurng/jitter.h"
#include "../include/cpurng/module_util.h"

int cpurng_jent_check_config(const struct cpurng_jent_config *c)
{
	int ret;

	ret = cpurng_param_check("osr", c->osr, CPURNG_OSR_MIN,
				 CPURNG_OSR_MAX) ?:
	      cpurng_param_check("mem_size", c->mem_size, CPURNG_JENT_MEM_MIN,
				 CPURNG_JENT_MEM_MAX) ?:
	      cpurng_param_check("mem_loops", c->mem_loops, 1,
				 CPURNG_JENT_LOOPS_MAX) ?:
	      cpurng_param_check("fold_loops", c->fold_loops, 1,
				 CPURNG_JENT_FOLDS_MAX);
	if (ret)
		return ret;
	if (!is_power_of_2(c->mem_size)) {
		pr_err("mem_size=%u is not a power of two\n", c->mem_size);
		return -EINVAL;
	}
	return 0;
}

static void cpurng_jent_sample(struct cpurng_jent *j,
			       struct cpurng_noise_sample *s)
{
	cpurng_noise_measure(&j->noise, s);
	cpurng_jent_test_sample(j, s);
}

static void cpurng_jent_startup_sampler(void *ctx,
					struct cpurng_noise_sample *s)
{
	cpurng_jent_sample(ctx, s);
}

static void cpurng_jent_report_samples(struct cpurng_jent *j)
{
	cpurng_jent_stats_samples(j->health.samples - j->reported_samples,
				  j->health.stuck - j->reported_stuck);
	j->reported_samples = j->health.samples;
	j->reported_stuck = j->health.stuck;
}

/* The one place that changes @dead, so the failed-instance count follows. */
static void cpurng_jent_set_dead(struct cpurng_jent *j, bool dead)
{
	if (j->dead != dead)
		cpurng_jent_stats_failed_instance(dead ? 1 : -1);
	j->dead = dead;
}

/*
 * The one place where health results become errnos: intermittent failures
 * give -EAGAIN (the instance recovers by itself), permanent ones -EFAULT
 * until the instance is reset.  With FIPS semantics a permanent failure is
 * a module failure, as in the kernel's own jitterentropy.
 */
static int cpurng_jent_health_errno(struct cpurng_jent *j,
				    enum cpurng_health_verdict v)
{
	enum cpurng_health_test test = j->health.last_failure;

	if (v == CPURNG_HEALTH_INTERMITTENT) {
		cpurng_jent_stats_failure(test, false);
		pr_warn_ratelimited("intermittent %s health test failure, output discarded\n",
				    cpurng_health_test_name(test));
		return -EAGAIN;
	}

	cpurng_jent_stats_failure(test, true);
	cpurng_jent_set_dead(j, true);
	if (cpurng_jent_fips())
		panic(KBUILD_MODNAME ": permanent %s health test failure in FIPS mode\n",
		      cpurng_health_test_name(test));
	pr_err("permanent %s health test failure, instance disabled until reset\n",
	       cpurng_health_test_name(test));
	return -EFAULT;
}

/* Start-up failures: timer problems and health failures differ in errno. */
static int cpurng_jent_startup_errno(enum cpurng_startup_error err)
{
	cpurng_jent_stats_startup(err);
	if (err == CPURNG_STARTUP_OK)
		return 0;

	if (cpurng_jent_fips())
		panic(KBUILD_MODNAME ": start-up health test failed in FIPS mode: %s\n",
		      cpurng_startup_reason(err));
	pr_err("start-up health test failed: %s\n", cpurng_startup_reason(err));

	switch (err) {
	case CPURNG_STARTUP_NOTIME:
	case CPURNG_STARTUP_COARSE:
	case CPURNG_STARTUP_NONMONOTONIC:
		return -EOPNOTSUPP;
	default:
		return -EFAULT;
	}
}

/* (Re)start the instance: fresh health state, then the start-up test. */
static int cpurng_jent_restart(struct cpurng_jent *j)
{
	enum cpurng_startup_error err;
	int ret;

	cpurng_health_init(&j->health, cpurng_jent_config.osr);
	j->reported_samples = 0;
	j->reported_stuck = 0;
	j->batched = 0;

	err = cpurng_health_startup(&j->health, cpurng_jent_startup_sampler, j);
	cpurng_jent_report_samples(j);
	ret = cpurng_jent_startup_errno(err);
	cpurng_jent_set_dead(j, ret != 0);
	return ret;
}

static int cpurng_jent_flush(struct cpurng_jent *j)
{
	int ret = 0;

	if (j->batched)
		ret = cpurng_jent_pool_absorb(&j->pool, j->batch,
					      j->batched * sizeof(j->batch[0]));
	j->batched = 0;
	return ret;
}

static int cpurng_jent_block(struct cpurng_jent *j,
			     u8 out[CPURNG_JENT_BLOCK_BYTES])
{
	u32 need = (CPURNG_JENT_BLOCK_BITS + CPURNG_JENT_SAFETY_BITS) *
		   cpurng_jent_config.osr;
	struct cpurng_noise_sample s;
	u32 credited = 0;
	int ret;

	while (credited < need) {
		enum cpurng_health_verdict v;

		cpurng_jent_sample(j, &s);
		v = cpurng_health_feed(&j->health, s.delta);
		if (v >= CPURNG_HEALTH_INTERMITTENT)
			return cpurng_jent_health_errno(j, v);
		if (v == CPURNG_HEALTH_OK)
			credited++;

		j->batch[j->batched++] = s.fold_delta;
		j->batch[j->batched++] = s.mem_delta;
		if (j->batched == ARRAY_SIZE(j->batch)) {
			ret = cpurng_jent_flush(j);
			if (ret)
				return ret;
			/* A block takes thousands of samples: stay preemptible. */
			cond_resched();
		}
	}

	return cpurng_jent_flush(j) ?:
	       cpurng_jent_pool_absorb(&j->pool, &j->noise.fold_acc,
				       sizeof(j->noise.fold_acc)) ?:
	       cpurng_jent_pool_extract(&j->pool, out);
}

/*
 * After a VM fork or a resume the pool may be running in another clone
 * too.  Every block collects fresh noise anyway, but two clones on one
 * emulated timer could collect the same; fresh output of the kernel RNG,
 * which random.c reseeds from the new VM generation ID before telling us,
 * separates them for certain.  Mixed in, never credited.
 */
static int cpurng_jent_after_fork(struct cpurng_jent *j)
{
	unsigned int gen = cpurng_fork_gen(&cpurng_jent_forks);
	u8 fresh[CPURNG_FORK_FRESH_BYTES];
	int ret;

	if (likely(j->fork_gen == gen))
		return 0;
	get_random_bytes(fresh, sizeof(fresh));
	ret = cpurng_jent_pool_absorb(&j->pool, fresh, sizeof(fresh));
	memzero_explicit(fresh, sizeof(fresh));
	if (!ret) {
		j->fork_gen = gen;
		cpurng_fork_reseeded(&cpurng_jent_forks);
	}
	return ret;
}

int cpurng_jent_generate(struct cpurng_jent *j, const u8 *addtl,
			 unsigned int addtl_len, u8 *out, unsigned int len)
{
	u8 block[CPURNG_JENT_BLOCK_BYTES];
	unsigned int done = 0;
	int ret = 0;

	while (done < len) {
		unsigned int n = min_t(unsigned int, len - done, sizeof(block));

		/* The lock covers one block, so readers of one tfm take turns. */
		mutex_lock(&j->lock);
		if (j->dead) {
			ret = -EFAULT;
		} else {
			ret = cpurng_jent_after_fork(j);
			/* Caller's additional input: mixed in, never credited. */
			if (!ret && addtl_len)
				ret = cpurng_jent_pool_absorb(&j->pool, addtl,
							      addtl_len);
			addtl_len = 0;
			if (!ret)
				ret = cpurng_jent_block(j, block);
		}
		cpurng_jent_report_samples(j);
		mutex_unlock(&j->lock);
		if (ret)
			break;

		memcpy(out + done, block, n);
		done += n;
		cpurng_jent_stats_output(1, n);
		cond_resched();
	}

	memzero_explicit(block, sizeof(block));
	/* Never hand out a partial request that a careless caller might use. */
	if (ret)
		memzero_explicit(out, len);
	return ret;
}

int cpurng_jent_reset(struct cpurng_jent *j, const u8 *seed, unsigned int len)
{
	int ret;

	mutex_lock(&j->lock);
	ret = cpurng_jent_restart(j);
	/* A seed is mixed in like additional input: it carries no credit. */
	if (!ret && len)
		ret = cpurng_jent_pool_absorb(&j->pool, seed, len);
	mutex_unlock(&j->lock);
	return ret;
}

/* The noise core in the module's configuration, with a buffer of its own. */
static int cpurng_jent_noise_init(struct cpurng_noise *n)
{
	const struct cpurng_jent_config *cfg = &cpurng_jent_config;

	n->mem = kvzalloc(cfg->mem_size, GFP_KERNEL);
	if (!n->mem)
		return -ENOMEM;
	n->mem_mask = cfg->mem_size - 1;
	n->mem_loops = cfg->mem_loops;
	n->fold_loops = cfg->fold_loops;
	n->paths = CPURNG_NOISE_ALL;
	return 0;
}

/* The buffer's contents follow the timing history: wiped before freeing. */
static void cpurng_jent_noise_free(struct cpurng_noise *n)
{
	if (!n->mem)
		return;
	memzero_explicit(n->mem, cpurng_jent_config.mem_size);
	kvfree(n->mem);
	n->mem = NULL;
}

int cpurng_jent_init(struct cpurng_jent *j)
{
	int ret;

	mutex_init(&j->lock);
	j->fork_gen = cpurng_fork_gen(&cpurng_jent_forks);
	ret = cpurng_jent_noise_init(&j->noise);
	if (ret)
		return ret;

	ret = cpurng_jent_pool_init(&j->pool);
	if (ret)
		goto err_mem;
	ret = cpurng_jent_restart(j);
	if (ret)
		goto err_pool;
	cpurng_jent_stats_instance(1);
	return 0;

err_pool:
	cpurng_jent_set_dead(j, false);
	cpurng_jent_pool_free(&j->pool);
err_mem:
	cpurng_jent_noise_free(&j->noise);
	return ret;
}

void cpurng_jent_free(struct cpurng_jent *j)
{
	if (!j->noise.mem)
		return;
	cpurng_jent_set_dead(j, false);
	cpurng_jent_stats_instance(-1);
	cpurng_jent_pool_free(&j->pool);
	cpurng_jent_noise_free(&j->noise);
	memzero_explicit(j->batch, sizeof(j->batch));
	memzero_explicit(&j->noise.fold_acc, sizeof(j->noise.fold_acc));
	mutex_destroy(&j->lock);
}

int cpurng_jent_raw_deltas(u64 *out, u32 n)
{
	struct cpurng_noise_sample s;
	struct cpurng_jent *j;
	u32 i;
	int ret;

	j = kzalloc(sizeof(*j), GFP_KERNEL);
	if (!j)
		return -ENOMEM;
	ret = cpurng_jent_noise_init(&j->noise);
	for (i = 0; !ret && i < n; i++) {
		cpurng_jent_sample(j, &s);
		out[i] = s.delta;
		if (!(i % 256))
			cond_resched();
	}
	cpurng_jent_noise_free(&j->noise);
	kfree_sensitive(j);
	return ret;
}

/*
 * Run the start-up test once on a throw-away instance before registering,
 * so a platform without a usable timer, or a deterministic one, never
 * offers the algorithm at all.
 */
int cpurng_jent_platform_check(void)
{
	struct cpurng_jent *j;
	int ret;

	j = kzalloc(sizeof(*j), GFP_KERNEL);
	if (!j)
		return -ENOMEM;
	ret = cpurng_jent_init(j);
	if (!ret)
		cpurng_jent_free(j);
	kfree_sensitive(j);
	return ret;
}
