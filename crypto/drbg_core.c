// SPDX-License-Identifier: GPL-2.0
/*
 * SP800-90A DRBG core: the functions of section 9 around the mechanisms of
 * section 10, the reseed policy and the seed levels.
 *
 * Seeding.  An instantiation asks the seed sources for security strength
 * plus half of it for the nonce in credited entropy (SP800-90A 8.6.7 and
 * 10.x); a reseed asks for the security strength.  Whatever the sources
 * deliver is mixed in, credited or not; the seed level says how much was
 * credited: unseeded (nothing), partial, or full.  A level never drops: a
 * reseed with less entropy does not take away what the state already has.
 *
 * Reseeding.  Until an instance is fully seeded it reseeds before every
 * request, so it reaches full seeding as soon as a source can deliver, and
 * it serves output meanwhile (as the kernel's own RNG does before it is
 * initialised) unless require_full is set or FIPS semantics apply, in
 * which case requests fail with -EAGAIN until it is fully seeded.  Once
 * fully seeded it reseeds after reseed_requests requests or reseed_seconds
 * seconds.  Prediction-resistant instances reseed before every request.
 * Entropy set through set_ent() (testmgr, CAVP) replaces the sources and
 * stops automatic reseeds, so known-answer tests see exactly the inputs
 * they specify.
 *
 * VM forks and resumes (include/cpurng/fork_watch.h).  After one, the
 * state may be running in another clone too, so no instance produces
 * output before it has reseeded: from its sources, plus fresh output of
 * get_random_bytes(), which random.c reseeds from the new VM generation ID
 * before it tells us.  Only what that reseed credits counts afterwards (the
 * other clone knows the rest), so the seed level is set, not raised.  If
 * the sources deliver nothing the request fails and the next one tries
 * again: a clone never serves the output of the state it was cloned with.
 * Known-answer instances (set_ent) are exempt: their output is meant to
 * depend on nothing but their inputs.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <kunit/visibility.h>
#include <linux/atomic.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/minmax.h>
#include <linux/random.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>

#include "../include/cpurng/drbg.h"

/*
 * SP800-90A 10.1 Tables 2 and 3 allow up to 2^48 requests between
 * reseeds; like the kernel's own DRBG we reseed far sooner.
 */
unsigned int cpurng_drbg_reseed_requests = BIT(20);
unsigned int cpurng_drbg_reseed_seconds = 300;
bool cpurng_drbg_require_full;

/* Strengths: SP800-57 part 1 rev 5, tables 3 and 4; seedlen: SP800-90A
 * 10.1 Table 2 (Hash_DRBG) and 10.2.1 Table 3 (CTR_DRBG).
 */
const struct cpurng_drbg_mech cpurng_drbg_mechs[] = {
	{ "ctr_aes128", "aes", &cpurng_drbg_ctr_ops, 128, 16, 32, 16 },
	{ "ctr_aes192", "aes", &cpurng_drbg_ctr_ops, 192, 16, 40, 24 },
	{ "ctr_aes256", "aes", &cpurng_drbg_ctr_ops, 256, 16, 48, 32 },
	{ "sha1", "sha1", &cpurng_drbg_hash_ops, 128, 20, 55, 0 },
	{ "sha384", "sha384", &cpurng_drbg_hash_ops, 256, 48, 111, 0 },
	{ "sha512", "sha512", &cpurng_drbg_hash_ops, 256, 64, 111, 0 },
	{ "sha256", "sha256", &cpurng_drbg_hash_ops, 256, 32, 55, 0 },
	{ "hmac_sha1", "sha1", &cpurng_drbg_hmac_ops, 128, 20, 20, 0 },
	{ "hmac_sha384", "sha384", &cpurng_drbg_hmac_ops, 256, 48, 48, 0 },
	{ "hmac_sha512", "sha512", &cpurng_drbg_hmac_ops, 256, 64, 64, 0 },
	{ "hmac_sha256", "sha256", &cpurng_drbg_hmac_ops, 256, 32, 32, 0 },
};
EXPORT_SYMBOL_IF_KUNIT(cpurng_drbg_mechs);
const unsigned int cpurng_drbg_nmechs = ARRAY_SIZE(cpurng_drbg_mechs);
EXPORT_SYMBOL_IF_KUNIT(cpurng_drbg_nmechs);

/* Instances, for the status. */
static LIST_HEAD(cpurng_drbg_instances);
static DEFINE_MUTEX(cpurng_drbg_instances_lock);
static unsigned int cpurng_drbg_next_id;
static bool cpurng_drbg_announced_full;

/* Every (re)seed of any instance, and what the latest one achieved. */
static atomic64_t cpurng_drbg_seed_count;
static DEFINE_SPINLOCK(cpurng_drbg_last_lock);
static struct {
	enum cpurng_drbg_level level;
	u32 bits;
	const struct cpurng_drbg_mech *mech;
	bool pr;
} cpurng_drbg_last;

u64 cpurng_drbg_seeds(void)
{
	return atomic64_read(&cpurng_drbg_seed_count);
}

/* "<level> <bits credited> <driver>" of the latest (re)seed. */
int cpurng_drbg_last_seed(char *buf, size_t size)
{
	int len;

	spin_lock(&cpurng_drbg_last_lock);
	if (!cpurng_drbg_last.mech)
		len = scnprintf(buf, size, "none\n");
	else
		len = scnprintf(buf, size, "%s %u drbg_%s_%s-cpurng\n",
				cpurng_drbg_level_name(cpurng_drbg_last.level),
				cpurng_drbg_last.bits,
				cpurng_drbg_last.pr ? "pr" : "nopr",
				cpurng_drbg_last.mech->name);
	spin_unlock(&cpurng_drbg_last_lock);
	return len;
}

size_t cpurng_drbg_cat_len(const struct cpurng_drbg_cat *cat)
{
	size_t len = 0;
	unsigned int i;

	for (i = 0; cat && i < cat->n; i++)
		len += cat->part[i].len;
	return len;
}

const char *cpurng_drbg_level_name(enum cpurng_drbg_level level)
{
	switch (level) {
	case CPURNG_DRBG_UNSEEDED:
		return "unseeded";
	case CPURNG_DRBG_PARTIAL:
		return "partial";
	case CPURNG_DRBG_FULL:
		return "full";
	case CPURNG_DRBG_TEST:
		return "test";
	}
	return "?";
}

int cpurng_drbg_init(struct cpurng_drbg *d, const struct cpurng_drbg_mech *m,
		     bool pr)
{
	int ret;

	memset(d, 0, sizeof(*d));
	mutex_init(&d->lock);
	d->mech = m;
	d->pr = pr;
	ret = m->ops->alloc(d);
	if (ret)
		return ret;

	mutex_lock(&cpurng_drbg_instances_lock);
	d->id = cpurng_drbg_next_id++;
	list_add_tail(&d->node, &cpurng_drbg_instances);
	mutex_unlock(&cpurng_drbg_instances_lock);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(cpurng_drbg_init);

/* SP800-90A 9.4 Uninstantiate: the state is wiped with the handles. */
void cpurng_drbg_fini(struct cpurng_drbg *d)
{
	mutex_lock(&cpurng_drbg_instances_lock);
	list_del(&d->node);
	mutex_unlock(&cpurng_drbg_instances_lock);

	d->mech->ops->free(d);
	kfree_sensitive(d->test_entropy);
	d->test_entropy = NULL;
	d->instantiated = false;
	mutex_destroy(&d->lock);
}
EXPORT_SYMBOL_IF_KUNIT(cpurng_drbg_fini);

void cpurng_drbg_for_each(void (*fn)(struct cpurng_drbg *d, void *ctx),
			  void *ctx)
{
	struct cpurng_drbg *d;

	mutex_lock(&cpurng_drbg_instances_lock);
	list_for_each_entry(d, &cpurng_drbg_instances, node)
		fn(d, ctx);
	mutex_unlock(&cpurng_drbg_instances_lock);
}

int cpurng_drbg_set_test_entropy(struct cpurng_drbg *d, const u8 *buf,
				 unsigned int len)
{
	u8 *copy = NULL;

	if (len > CPURNG_DRBG_MAX_SEED)
		return -EINVAL;
	if (len) {
		copy = kmemdup(buf, len, GFP_KERNEL);
		if (!copy)
			return -ENOMEM;
	}
	mutex_lock(&d->lock);
	kfree_sensitive(d->test_entropy);
	d->test_entropy = copy;
	d->test_entropy_len = len;
	mutex_unlock(&d->lock);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(cpurng_drbg_set_test_entropy);

/*
 * Record a (re)seed: counter, time, credited bits and the level, which a
 * reseed after a fork sets instead of raising.
 */
static void cpurng_drbg_seeded(struct cpurng_drbg *d,
			       enum cpurng_drbg_level level, u32 bits,
			       bool forked)
{
	d->reseed_ctr = 1;
	d->seeded_at = jiffies;
	d->last_bits = bits;
	d->reseeds++;
	if (level == CPURNG_DRBG_FULL && d->level < CPURNG_DRBG_FULL &&
	    !cpurng_drbg_announced_full) {
		cpurng_drbg_announced_full = true;
		pr_info("instance %u (%s%s) fully seeded: %u bits credited\n",
			d->id, d->pr ? "pr_" : "", d->mech->name, bits);
	}
	d->level = forked ? level : max(d->level, level);

	atomic64_inc(&cpurng_drbg_seed_count);
	spin_lock(&cpurng_drbg_last_lock);
	cpurng_drbg_last.level = level;
	cpurng_drbg_last.bits = bits;
	cpurng_drbg_last.mech = d->mech;
	cpurng_drbg_last.pr = d->pr;
	spin_unlock(&cpurng_drbg_last_lock);
}

/*
 * Gather seed material for a (re)seed and apply it: instantiate with
 * pieces (material, @in) or reseed with (material, @in), or after a fork
 * (material, fresh kernel RNG output, @in).  @need is the credited
 * entropy in bits that makes the seed full.
 */
static int cpurng_drbg_do_seed(struct cpurng_drbg *d, bool reseed,
			       bool forked, const u8 *in, size_t in_len)
{
	const struct cpurng_drbg_mech *m = d->mech;
	u32 need = reseed ? m->strength : m->strength * 3 / 2;
	/* Read first: an event during the gathering forces another reseed. */
	unsigned int gen = cpurng_fork_gen(&cpurng_drbg_forks);
	unsigned int src_gen = atomic_read(&cpurng_drbg_sources_gen);
	u8 fresh[CPURNG_FORK_FRESH_BYTES];
	struct cpurng_drbg_gathered *g;
	struct cpurng_drbg_cat cat = { .n = 2 };
	enum cpurng_drbg_level level;
	int ret;

	if (d->test_entropy) {
		cat.part[0].buf = d->test_entropy;
		cat.part[0].len = d->test_entropy_len;
		cat.part[1].buf = in;
		cat.part[1].len = in_len;
		ret = reseed ? m->ops->reseed(d, &cat) :
			       m->ops->instantiate(d, &cat);
		if (!ret) {
			d->fork_gen = gen;
			cpurng_drbg_seeded(d, CPURNG_DRBG_TEST, 0, false);
		}
		return ret;
	}

	g = kmalloc(sizeof(*g), GFP_KERNEL);
	if (!g)
		return -ENOMEM;
	ret = cpurng_drbg_sources_gather(need, g);
	if (ret)
		goto out;

	level = g->credited_bits >= need ? CPURNG_DRBG_FULL :
		g->credited_bits ? CPURNG_DRBG_PARTIAL : CPURNG_DRBG_UNSEEDED;
	cat.part[0].buf = g->buf;
	cat.part[0].len = g->len;
	if (forked) {
		/* Differs between clones: uncredited, it only separates them. */
		get_random_bytes(fresh, sizeof(fresh));
		cat.part[1].buf = fresh;
		cat.part[1].len = sizeof(fresh);
		cat.n++;
	}
	cat.part[cat.n - 1].buf = in;
	cat.part[cat.n - 1].len = in_len;
	ret = reseed ? m->ops->reseed(d, &cat) : m->ops->instantiate(d, &cat);
	if (!ret) {
		d->fork_gen = gen;
		d->src_gen = src_gen;
		cpurng_drbg_seeded(d, level, g->credited_bits, forked);
	}
	memzero_explicit(fresh, sizeof(fresh));
out:
	kfree_sensitive(g);
	return ret;
}

/* Whether a request may be served at the current seed level. */
static bool cpurng_drbg_level_ok(struct cpurng_drbg *d)
{
	if (d->level >= CPURNG_DRBG_FULL)
		return true;
	return !cpurng_drbg_require_full && !cpurng_drbg_fips();
}

/* A VM fork or a resume since the last (re)seed; see the top of the file. */
static bool cpurng_drbg_forked(struct cpurng_drbg *d)
{
	return d->level != CPURNG_DRBG_TEST &&
	       d->fork_gen != cpurng_fork_gen(&cpurng_drbg_forks);
}

/*
 * crypto_rng_reset(): the first one instantiates (9.1) with @in as the
 * personalization string, later ones reseed (9.2) with @in as additional
 * input.
 */
int cpurng_drbg_seed(struct cpurng_drbg *d, const u8 *in, unsigned int len)
{
	int ret;

	if (len > CPURNG_DRBG_MAX_INPUT)
		return -EINVAL;
	mutex_lock(&d->lock);
	ret = cpurng_drbg_do_seed(d, d->instantiated,
				  d->instantiated && cpurng_drbg_forked(d),
				  in, len);
	if (!ret)
		d->instantiated = true;
	mutex_unlock(&d->lock);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(cpurng_drbg_seed);

static bool cpurng_drbg_reseed_due(struct cpurng_drbg *d)
{
	if (d->pr)
		return true;
	if (d->level == CPURNG_DRBG_TEST)
		return false;
	if (d->level < CPURNG_DRBG_FULL)
		return true;
	return d->reseed_ctr > cpurng_drbg_reseed_requests ||
	       time_after(jiffies, d->seeded_at +
			  (unsigned long)cpurng_drbg_reseed_seconds * HZ);
}

/*
 * A credited source the last seed went without while it was loading is
 * ready (drbg_sources.c): reseed to take its material.
 */
static bool cpurng_drbg_source_joined(struct cpurng_drbg *d)
{
	return d->level == CPURNG_DRBG_FULL &&
	       d->src_gen != atomic_read(&cpurng_drbg_sources_gen);
}

/* One request of at most CPURNG_DRBG_MAX_REQUEST bytes (9.3.1). */
static int cpurng_drbg_generate_one(struct cpurng_drbg *d, u8 *out,
				    unsigned int len, const u8 *addtl,
				    unsigned int addtl_len)
{
	struct cpurng_drbg_input a = { addtl, addtl_len };
	bool forked = cpurng_drbg_forked(d);
	int ret;

	if (forked || cpurng_drbg_reseed_due(d)) {
		/* 9.3.1 steps 7.1-7.4: reseed with the additional input */
		ret = cpurng_drbg_do_seed(d, true, forked, addtl, addtl_len);
		if (ret) {
			if (forked)
				pr_warn_ratelimited("instance %u: no reseed after a VM fork or resume (%d): request refused\n",
						    d->id, ret);
			return ret;
		}
		if (forked) {
			d->fork_reseeds++;
			cpurng_fork_reseeded(&cpurng_drbg_forks);
		}
		a.len = 0;
	} else if (cpurng_drbg_source_joined(d)) {
		/*
		 * The instance is seeded already: a failure only leaves the
		 * source's material to the next due reseed.
		 */
		if (cpurng_drbg_do_seed(d, true, false, addtl, addtl_len))
			d->src_gen = atomic_read(&cpurng_drbg_sources_gen);
		else
			a.len = 0;
	}
	if (!cpurng_drbg_level_ok(d))
		return -EAGAIN;
	ret = d->mech->ops->generate(d, out, len, &a);
	if (!ret)
		d->reseed_ctr++;
	return ret;
}

int cpurng_drbg_generate(struct cpurng_drbg *d, const u8 *addtl,
			 unsigned int addtl_len, u8 *out, unsigned int len)
{
	unsigned int done = 0, n;
	int ret = 0;

	if (addtl_len > CPURNG_DRBG_MAX_INPUT)
		return -EINVAL;
	while (done < len) {
		n = min(len - done, CPURNG_DRBG_MAX_REQUEST);
		mutex_lock(&d->lock);
		ret = d->instantiated ?
		      cpurng_drbg_generate_one(d, out + done, n, addtl,
					       addtl_len) : -EINVAL;
		mutex_unlock(&d->lock);
		if (ret)
			break;
		done += n;
		if (done < len)
			cond_resched();
	}
	if (ret) {
		if (!d->instantiated)
			pr_warn_ratelimited("generate before instantiation: call crypto_rng_reset() first\n");
		memzero_explicit(out, len);
	}
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(cpurng_drbg_generate);

/*
 * Explicit-input entry points for the self-tests: SP800-90A 11.3 known
 * answers with given entropy, nonce, personalization and additional input.
 */
int cpurng_drbg_instantiate_raw(struct cpurng_drbg *d,
				const struct cpurng_drbg_input *entropy,
				const struct cpurng_drbg_input *nonce,
				const struct cpurng_drbg_input *pers)
{
	struct cpurng_drbg_cat cat = {
		.part = { *entropy, *nonce, *pers },
		.n = 3,
	};
	int ret;

	if (pers->len > CPURNG_DRBG_MAX_INPUT)
		return -EINVAL;
	ret = d->mech->ops->instantiate(d, &cat);
	if (!ret) {
		d->instantiated = true;
		d->reseed_ctr = 1;
	}
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(cpurng_drbg_instantiate_raw);

int cpurng_drbg_reseed_raw(struct cpurng_drbg *d, const u8 *entropy,
			   size_t entropy_len, const u8 *addtl,
			   size_t addtl_len)
{
	struct cpurng_drbg_cat cat = {
		.part = { { entropy, entropy_len }, { addtl, addtl_len } },
		.n = 2,
	};
	int ret;

	if (!d->instantiated || addtl_len > CPURNG_DRBG_MAX_INPUT)
		return -EINVAL;
	ret = d->mech->ops->reseed(d, &cat);
	if (!ret)
		d->reseed_ctr = 1;
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(cpurng_drbg_reseed_raw);

int cpurng_drbg_generate_raw(struct cpurng_drbg *d, u8 *out, unsigned int len,
			     const u8 *addtl, size_t addtl_len)
{
	struct cpurng_drbg_input a = { addtl, addtl_len };
	int ret;

	if (!d->instantiated || !len || len > CPURNG_DRBG_MAX_REQUEST ||
	    addtl_len > CPURNG_DRBG_MAX_INPUT)
		return -EINVAL;
	ret = d->mech->ops->generate(d, out, len, &a);
	if (!ret)
		d->reseed_ctr++;
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(cpurng_drbg_generate_raw);
