// SPDX-License-Identifier: GPL-2.0
/*
 * DRBG seed sources: which sources feed the DRBG, and how much each is
 * trusted.
 *
 * The selection is the "sources" module parameter, a list of
 * name[@driver][:credit] with the credit in bits per byte, 0 (mixed in,
 * trusted for nothing) to 8 (full entropy):
 *
 *   jitterentropy_rng:8   health-tested full-entropy blocks (default 8)
 *   cpu_randomness:0      the collector: nobody can measure its entropy
 *                         (default 0, the verdict of the 2014 seed debate)
 *   get_random_bytes:8    the kernel RNG, credited only once it reports
 *                         itself initialised (default 8)
 *   <any crypto_rng>:N    by cra_name or driver name (default 0)
 *
 * Credit goes to a driver, not to a name.  A name is looked up by the
 * crypto API, which may find another driver than the administrator meant:
 * on Debian's 6.12 "jitterentropy_rng" is the kernel's built-in jitter RNG
 * unless it is kept off at boot, and that one ignores its own health-test
 * failures outside fips=1.  So each source expects one driver: ours for
 * our two names (jitterentropy_rng-cpurng, cpu_randomness-cpurng), the
 * name itself for any other, or the one given after '@'.  A source that
 * resolves to a different driver still feeds the seed but is credited 0,
 * and says so in the log and in source_state; crediting another driver
 * takes naming it, as in jitterentropy_rng@jitterentropy_rng:8.
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

#include "../include/cpurng/collector.h"
#include "../include/cpurng/drbg.h"
#include "../include/cpurng/jitter.h"

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
 * @expect: the only driver the credit applies to ("" for get_random_bytes)
 * @explicit: @expect was given after '@' (shown back in the selection)
 * @credit: bits of entropy credited per byte, if @name resolves to @expect
 * @rng: crypto_rng handle, allocated on first use
 * @foreign: @rng's driver is not @expect: credited 0
 * @err: outcome of the last use (0, or the errno that made us skip it)
 * @bytes: bytes delivered
 * @failures: times skipped
 */
struct cpurng_src {
	char name[CRYPTO_MAX_ALG_NAME];
	char expect[CRYPTO_MAX_ALG_NAME];
	bool explicit;
	u8 credit;
	struct crypto_rng *rng;
	bool foreign;
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

/* The driver a source's credit is meant for, unless named after '@'. */
static const char *cpurng_src_default_driver(const char *name)
{
	if (!strcmp(name, CPURNG_JENT_NAME))
		return CPURNG_JENT_DRIVER;
	if (!strcmp(name, CPURNG_CR_NAME))
		return CPURNG_CR_DRIVER;
	if (!strcmp(name, CPURNG_SRC_RANDOM))
		return "";
	return name;
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
		char *driver;
		struct cpurng_src *s;
		unsigned int c;

		if (credit)
			*credit++ = '\0';
		driver = strchr(item, '@');
		if (driver)
			*driver++ = '\0';
		item = strim(item);
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
		} else if (driver && (!*driver ||
				      strlen(driver) >= CRYPTO_MAX_ALG_NAME ||
				      !strcmp(item, CPURNG_SRC_RANDOM))) {
			pr_err("sources: %s@%s: a crypto_rng and a driver name expected\n",
			       item, driver);
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
		strscpy(s->expect, driver ?: cpurng_src_default_driver(item),
			sizeof(s->expect));
		s->explicit = driver;
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

/*
 * The handle of a crypto_rng source, allocated on first use; notes (and
 * logs, once per handle) a driver other than the one the credit is for.
 */
static int cpurng_src_get_rng(struct cpurng_src *s)
{
	const char *driver;
	int ret;

	if (s->rng)
		return 0;
	s->rng = crypto_alloc_rng(s->name, 0, 0);
	if (IS_ERR(s->rng)) {
		ret = PTR_ERR(s->rng);
		s->rng = NULL;
		return ret;
	}
	driver = crypto_tfm_alg_driver_name(crypto_rng_tfm(s->rng));
	s->foreign = strcmp(driver, s->expect);
	if (s->foreign && s->credit)
		pr_warn("seed source %s is driver %s, not %s: credited 0 (name it as %s@%s to credit it)\n",
			s->name, driver, s->expect, s->name, driver);
	return 0;
}

/* Read from a crypto_rng source: retry transient failures, reset once. */
static int cpurng_src_read_rng(struct cpurng_src *s, u8 *buf, size_t len)
{
	int ret = -EAGAIN, tries;

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

/* The credit in force: none before the kernel RNG is up, or for a foreign driver. */
static u8 cpurng_src_credit(const struct cpurng_src *s, bool random_ready)
{
	if (cpurng_src_is_random(s) ? !random_ready : s->foreign)
		return 0;
	return s->credit;
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
		int got = random ? 0 : cpurng_src_get_rng(s);
		u8 credit = cpurng_src_credit(s, random_ready);
		size_t want = credit ? DIV_ROUND_UP(need_bits, credit) :
				       CPURNG_SRC_UNCREDITED_BYTES;

		want = min_t(size_t, want, CPURNG_SRC_MAX_BYTES);
		if (want > sizeof(g->buf) - g->len)
			break;
		if (random) {
			get_random_bytes(g->buf + g->len, want);
			ret = 0;
		} else {
			ret = got ?: cpurng_src_read_rng(s, g->buf + g->len, want);
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
 * The selection ("name[@driver]:credit,...") or, with @state, one line per
 * source: name, credit in force now, state, bytes delivered, failures, the
 * driver the name resolved to ("-" before first use and for
 * get_random_bytes), then why the credit in force is not the configured
 * one, if it is not.
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
		char note[CRYPTO_MAX_ALG_NAME + 32] = "";

		if (!state) {
			len += scnprintf(buf + len, size - len, "%s%s%s%s:%u",
					 i ? "," : "", s->name,
					 s->explicit ? "@" : "",
					 s->explicit ? s->expect : "", s->credit);
			continue;
		}
		if (s->credit && random && !random_ready)
			strscpy(note, " (kernel RNG not initialised)", sizeof(note));
		else if (s->credit && s->foreign)
			snprintf(note, sizeof(note), " (credit only for driver %s)",
				 s->expect);
		len += scnprintf(buf + len, size - len,
				 "%s credit %u %s bytes %llu failures %llu driver %s%s\n",
				 s->name, cpurng_src_credit(s, random_ready),
				 s->err ? "failed" : (s->rng || random) ? "ok" :
				 "unused",
				 s->bytes, s->failures,
				 s->rng ? crypto_tfm_alg_driver_name(crypto_rng_tfm(s->rng)) :
				 "-", note);
	}
	mutex_unlock(&cpurng_srcs_lock);
	return len;
}
