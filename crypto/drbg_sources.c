// SPDX-License-Identifier: GPL-2.0
/*
 * DRBG seed sources: which sources feed the DRBG, and how much each is
 * trusted.
 *
 * The selection is the "sources" module parameter, a list of
 * name[:credit] with the credit in bits per byte, 0 (mixed in, trusted for
 * nothing) to 8 (full entropy):
 *
 *   jitterentropy_rng:8   health-tested full-entropy blocks (default 8)
 *   cpu_randomness:0      the collector: nobody can measure its entropy
 *                         (default 0, the verdict of the 2014 seed debate)
 *   get_random_bytes:8    the kernel RNG, credited only once it reports
 *                         itself initialised (default 8)
 *   <any crypto_rng>:N    by cra_name or driver name (default 0)
 *
 * It can be changed at runtime through
 * /sys/module/cpurng_drbg/parameters/sources and takes effect at the next
 * (re)seed; a new value that does not parse, names a crypto_rng that does
 * not exist, repeats a source or names a DRBG (which would seed itself) is
 * refused and changes nothing.  At module load the names are taken as
 * given, since a source module may be unable to load on this machine (the
 * jitter RNG refuses deterministic machines): such a source is reported as
 * unavailable and skipped.
 *
 * The crypto_rng handles are shared by all DRBG instances and allocated on
 * first use.  A source that fails (a jitter RNG health failure) is retried
 * and reset once, then skipped for that seed, and reported in the status
 * and the log; its output is never used silently.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <crypto/rng.h>
#include <linux/crypto.h>
#include <linux/kernel.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "../include/cpurng/drbg.h"

#define CPURNG_SRC_RANDOM	"get_random_bytes"
/* Uncredited sources still contribute this much material per seed. */
#define CPURNG_SRC_UNCREDITED_BYTES	32
/* No source contributes more than this per seed (credit 8 covers 512 bits). */
#define CPURNG_SRC_MAX_BYTES	64
/* Transient failures (-EAGAIN) are retried this often. */
#define CPURNG_SRC_RETRIES	3

/**
 * struct cpurng_src - one configured source and its handle
 * @name: crypto_rng name, or "get_random_bytes"
 * @credit: bits of entropy credited per byte
 * @rng: crypto_rng handle, allocated on first use
 * @err: outcome of the last use (0, or the errno that made us skip it)
 * @bytes: bytes delivered
 * @failures: times skipped
 */
struct cpurng_src {
	char name[CRYPTO_MAX_ALG_NAME];
	u8 credit;
	struct crypto_rng *rng;
	int err;
	u64 bytes;
	u64 failures;
};

static struct cpurng_src cpurng_srcs[CPURNG_DRBG_MAX_SOURCES];
static unsigned int cpurng_nsrcs;
static DEFINE_MUTEX(cpurng_srcs_lock);
/* After module init, new selections must name existing algorithms. */
static bool cpurng_srcs_live;

static bool cpurng_src_is_random(const struct cpurng_src *s)
{
	return !strcmp(s->name, CPURNG_SRC_RANDOM);
}

static u8 cpurng_src_default_credit(const char *name)
{
	if (!strcmp(name, "jitterentropy_rng") ||
	    !strcmp(name, CPURNG_SRC_RANDOM))
		return CPURNG_DRBG_CREDIT_MAX;
	return 0;
}

/* A DRBG as a source of a DRBG would seed itself, possibly from itself. */
static bool cpurng_src_is_drbg(const char *name)
{
	return !strcmp(name, "stdrng") || !strncmp(name, "drbg_", 5);
}

/* Parse @spec into @out; on error log why and return -EINVAL. */
static int cpurng_src_parse(const char *spec, struct cpurng_src *out,
			    unsigned int *n, bool check_exists)
{
	char *copy, *p, *item;
	unsigned int i;
	int ret = 0;

	copy = kstrdup(spec, GFP_KERNEL);
	if (!copy)
		return -ENOMEM;
	*n = 0;
	p = strim(copy);
	while (!ret && (item = strsep(&p, ",")) != NULL) {
		char *credit = strchr(item, ':');
		struct cpurng_src *s;
		unsigned int c;

		item = strim(item);
		if (credit)
			*credit++ = '\0';
		if (!*item) {
			pr_err("sources: empty source name\n");
			ret = -EINVAL;
		} else if (*n == CPURNG_DRBG_MAX_SOURCES) {
			pr_err("sources: more than %d sources\n",
			       CPURNG_DRBG_MAX_SOURCES);
			ret = -EINVAL;
		} else if (strlen(item) >= CRYPTO_MAX_ALG_NAME) {
			pr_err("sources: name too long: %s\n", item);
			ret = -EINVAL;
		} else if (cpurng_src_is_drbg(item)) {
			pr_err("sources: %s is a DRBG and cannot seed a DRBG\n",
			       item);
			ret = -EINVAL;
		} else if (credit && (kstrtouint(credit, 10, &c) ||
				      c > CPURNG_DRBG_CREDIT_MAX)) {
			pr_err("sources: credit of %s must be 0-%d bits per byte, not '%s'\n",
			       item, CPURNG_DRBG_CREDIT_MAX, credit);
			ret = -EINVAL;
		}
		for (i = 0; !ret && i < *n; i++) {
			if (!strcmp(out[i].name, item)) {
				pr_err("sources: %s listed twice\n", item);
				ret = -EINVAL;
			}
		}
		if (!ret && check_exists && strcmp(item, CPURNG_SRC_RANDOM) &&
		    !crypto_has_alg(item, CRYPTO_ALG_TYPE_RNG, CRYPTO_ALG_TYPE_MASK)) {
			pr_err("sources: no crypto_rng named %s\n", item);
			ret = -EINVAL;
		}
		if (ret)
			break;
		s = &out[(*n)++];
		memset(s, 0, sizeof(*s));
		strscpy(s->name, item, sizeof(s->name));
		s->credit = credit ? c : cpurng_src_default_credit(item);
	}
	if (!ret && !*n) {
		pr_err("sources: no source given\n");
		ret = -EINVAL;
	}
	kfree(copy);
	return ret;
}

static void cpurng_src_release(struct cpurng_src *s, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		if (!IS_ERR_OR_NULL(s[i].rng))
			crypto_free_rng(s[i].rng);
		s[i].rng = NULL;
	}
}

/* Install a new selection; handles are allocated at the next seed. */
static int cpurng_src_apply(const char *spec, bool check_exists)
{
	struct cpurng_src *next;
	unsigned int n;
	int ret;

	next = kcalloc(CPURNG_DRBG_MAX_SOURCES, sizeof(*next), GFP_KERNEL);
	if (!next)
		return -ENOMEM;
	ret = cpurng_src_parse(spec, next, &n, check_exists);
	if (!ret) {
		mutex_lock(&cpurng_srcs_lock);
		cpurng_src_release(cpurng_srcs, cpurng_nsrcs);
		memcpy(cpurng_srcs, next, n * sizeof(*next));
		cpurng_nsrcs = n;
		mutex_unlock(&cpurng_srcs_lock);
	}
	kfree(next);
	return ret;
}

static int cpurng_src_param_set(const char *val, const struct kernel_param *kp)
{
	return cpurng_src_apply(val, READ_ONCE(cpurng_srcs_live));
}

static int cpurng_src_param_get(char *buf, const struct kernel_param *kp)
{
	int len = cpurng_drbg_sources_show(buf, PAGE_SIZE, false);

	return len + scnprintf(buf + len, PAGE_SIZE - len, "\n");
}

const struct kernel_param_ops cpurng_drbg_sources_param_ops = {
	.set = cpurng_src_param_set,
	.get = cpurng_src_param_get,
};

int cpurng_drbg_sources_init(const char *spec)
{
	int ret = 0;

	/* A "sources=" given at load has been applied already. */
	if (!cpurng_nsrcs)
		ret = cpurng_src_apply(spec, false);
	if (!ret)
		WRITE_ONCE(cpurng_srcs_live, true);
	return ret;
}

void cpurng_drbg_sources_exit(void)
{
	mutex_lock(&cpurng_srcs_lock);
	cpurng_src_release(cpurng_srcs, cpurng_nsrcs);
	cpurng_nsrcs = 0;
	mutex_unlock(&cpurng_srcs_lock);
}

/* Read from a crypto_rng source: retry transient failures, reset once. */
static int cpurng_src_read_rng(struct cpurng_src *s, u8 *buf, size_t len)
{
	int ret = -EAGAIN, tries;

	if (!s->rng) {
		s->rng = crypto_alloc_rng(s->name, 0, 0);
		if (IS_ERR(s->rng)) {
			ret = PTR_ERR(s->rng);
			s->rng = NULL;
			return ret;
		}
	}
	for (tries = 0; tries <= CPURNG_SRC_RETRIES; tries++) {
		ret = crypto_rng_get_bytes(s->rng, buf, len);
		if (ret == -EFAULT && tries == 0 &&
		    !crypto_rng_reset(s->rng, NULL, 0))
			continue;
		if (ret != -EAGAIN)
			break;
	}
	return ret;
}

int cpurng_drbg_sources_gather(u32 need_bits, struct cpurng_drbg_gathered *g)
{
	bool random_ready = rng_is_initialized();
	unsigned int i;
	int ret;

	g->len = 0;
	g->credited_bits = 0;
	g->usable_sources = 0;

	mutex_lock(&cpurng_srcs_lock);
	for (i = 0; i < cpurng_nsrcs; i++) {
		struct cpurng_src *s = &cpurng_srcs[i];
		bool random = cpurng_src_is_random(s);
		u8 credit = random && !random_ready ? 0 : s->credit;
		size_t want = credit ? DIV_ROUND_UP(need_bits, credit) :
				       CPURNG_SRC_UNCREDITED_BYTES;

		want = min_t(size_t, want, CPURNG_SRC_MAX_BYTES);
		if (want > sizeof(g->buf) - g->len)
			break;
		if (random) {
			get_random_bytes(g->buf + g->len, want);
			ret = 0;
		} else {
			ret = cpurng_src_read_rng(s, g->buf + g->len, want);
		}
		if (ret) {
			if (s->err != ret)
				pr_warn("seed source %s failed (%d), skipped\n",
					s->name, ret);
			s->err = ret;
			s->failures++;
			memzero_explicit(g->buf + g->len, want);
			continue;
		}
		s->err = 0;
		s->bytes += want;
		g->len += want;
		g->credited_bits += want * credit;
		if (credit)
			g->usable_sources++;
	}
	mutex_unlock(&cpurng_srcs_lock);

	if (!g->len) {
		pr_warn_ratelimited("no seed source delivered anything\n");
		return -EAGAIN;
	}
	if (!g->usable_sources)
		pr_warn_ratelimited("no credited seed source delivered: seeding without entropy credit\n");
	return 0;
}

/*
 * The selection ("name:credit,...") or, with @state, one line per source:
 * name, credit in force now, state, bytes delivered, failures.
 */
int cpurng_drbg_sources_show(char *buf, size_t size, bool state)
{
	bool random_ready = rng_is_initialized();
	unsigned int i;
	int len = 0;

	mutex_lock(&cpurng_srcs_lock);
	for (i = 0; i < cpurng_nsrcs; i++) {
		const struct cpurng_src *s = &cpurng_srcs[i];
		bool random = cpurng_src_is_random(s);

		if (!state) {
			len += scnprintf(buf + len, size - len, "%s%s:%u",
					 i ? "," : "", s->name, s->credit);
			continue;
		}
		len += scnprintf(buf + len, size - len,
				 "%s credit %u%s %s bytes %llu failures %llu\n",
				 s->name,
				 random && !random_ready ? 0 : s->credit,
				 random && !random_ready ? " (kernel RNG not initialised)" : "",
				 s->err ? "failed" : (s->rng || random) ? "ok" :
				 "unused",
				 s->bytes, s->failures);
	}
	mutex_unlock(&cpurng_srcs_lock);
	return len;
}
