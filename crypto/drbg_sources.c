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
 * The crypto_rng handles are shared by all DRBG instances.  They are
 * allocated in the background as soon as a selection is installed (during
 * module load, which loads the source modules: after the self-tests when
 * the first seed will wait for them, at its end otherwise), or at the latest when a
 * seed needs them.  A seed takes what the sources that are ready
 * deliver, and waits for one still loading only when the ready ones fall
 * short of full seeding, or with FIPS semantics: with the kernel RNG
 * initialised, the first instance is fully seeded without waiting for the
 * jitter RNG's start-up test and entropy check (about 100 ms in a VM).
 * When a credited source skipped that way becomes ready, every instance
 * reseeds before its next output (cpurng_drbg_sources_gen), so its
 * material reaches them all within one request.
 *
 * A source that fails (a jitter RNG health failure) is retried and reset
 * once, then skipped for that seed, and reported in the status and the
 * log; its output is never used silently.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <crypto/rng.h>
#include <kunit/visibility.h>
#include <linux/crypto.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/workqueue.h>

#include "../include/cpurng/collector.h"
#include "../include/cpurng/drbg.h"
#include "../include/cpurng/drbg_sources.h"
#include "../include/cpurng/jitter.h"

/* Transient failures (-EAGAIN) are retried this often. */
#define CPURNG_SRC_RETRIES	3

static struct cpurng_src cpurng_srcs[CPURNG_DRBG_MAX_SOURCES];
static unsigned int cpurng_nsrcs;
static DEFINE_MUTEX(cpurng_srcs_lock);
/* After module init, new selections must name existing algorithms. */
static bool cpurng_srcs_live;
/* Counts installed selections, so a stale background allocation is dropped. */
static unsigned int cpurng_srcs_selection;
atomic_t cpurng_drbg_sources_gen = ATOMIC_INIT(0);

static void cpurng_src_prefetch(struct work_struct *work);
static DECLARE_WORK(cpurng_src_prefetch_work, cpurng_src_prefetch);

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
VISIBLE_IF_KUNIT int cpurng_src_parse(const char *spec, struct cpurng_src *out,
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

		/* blanks around each part are not part of it */
		if (credit) {
			*credit++ = '\0';
			credit = strim(credit);
		}
		driver = strchr(item, '@');
		if (driver) {
			*driver++ = '\0';
			driver = strim(driver);
		}
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
EXPORT_SYMBOL_IF_KUNIT(cpurng_src_parse);

static void cpurng_src_release(struct cpurng_src *s, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		if (!IS_ERR_OR_NULL(s[i].rng))
			crypto_free_rng(s[i].rng);
		s[i].rng = NULL;
	}
}

/*
 * Allocate the handles in the background.  Only once the module is
 * initialised: a selection given at load is parsed before init, and a
 * load that fails before init would free the work's code under it.
 */
static void cpurng_src_start_prefetch(void)
{
	unsigned int i;

	mutex_lock(&cpurng_srcs_lock);
	for (i = 0; i < cpurng_nsrcs; i++)
		cpurng_srcs[i].loading = !cpurng_src_is_random(&cpurng_srcs[i]) &&
					 !cpurng_srcs[i].rng;
	mutex_unlock(&cpurng_srcs_lock);
	schedule_work(&cpurng_src_prefetch_work);
}

/* Install a new selection; handles are allocated in the background. */
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
		cpurng_srcs_selection++;
		mutex_unlock(&cpurng_srcs_lock);
		if (READ_ONCE(cpurng_srcs_live))
			cpurng_src_start_prefetch();
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
	return ret;
}

void cpurng_drbg_sources_start(ktime_t init)
{
	cpurng_drbg_sources_at_ns = ktime_to_ns(ktime_sub(ktime_get(), init));
	WRITE_ONCE(cpurng_srcs_live, true);
	cpurng_src_start_prefetch();
}

void cpurng_drbg_sources_exit(void)
{
	cancel_work_sync(&cpurng_src_prefetch_work);
	mutex_lock(&cpurng_srcs_lock);
	cpurng_src_release(cpurng_srcs, cpurng_nsrcs);
	cpurng_nsrcs = 0;
	mutex_unlock(&cpurng_srcs_lock);
}

/*
 * Give a crypto_rng source its handle; notes (and logs, once per handle)
 * a driver other than the one the credit is for.
 */
static void cpurng_src_install(struct cpurng_src *s, struct crypto_rng *rng)
{
	const char *driver = crypto_tfm_alg_driver_name(crypto_rng_tfm(rng));

	s->rng = rng;
	s->foreign = strcmp(driver, s->expect);
	if (s->foreign && s->credit)
		pr_warn("seed source %s is driver %s, not %s: credited 0 (name it as %s@%s to credit it)\n",
			s->name, driver, s->expect, s->name, driver);
}

/* The handle of a crypto_rng source, allocated now if it has none yet. */
static int cpurng_src_get_rng(struct cpurng_src *s)
{
	struct crypto_rng *rng;

	if (s->rng)
		return 0;
	rng = crypto_alloc_rng(s->name, 0, 0);
	if (IS_ERR(rng))
		return PTR_ERR(rng);
	cpurng_src_install(s, rng);
	return 0;
}

/*
 * Background allocation of every crypto_rng source's handle, without the
 * lock (a source module may take long to load); installed unless the
 * selection changed or a seed was faster.  A credited source that joins
 * this way makes every instance reseed before its next output.
 */
static void cpurng_src_prefetch(struct work_struct *work)
{
	char name[CRYPTO_MAX_ALG_NAME];
	struct crypto_rng *rng;
	unsigned int i, selection;
	ktime_t start;
	bool joined;

	for (i = 0; i < CPURNG_DRBG_MAX_SOURCES; i++) {
		mutex_lock(&cpurng_srcs_lock);
		if (i >= cpurng_nsrcs) {
			mutex_unlock(&cpurng_srcs_lock);
			break;
		}
		selection = cpurng_srcs_selection;
		strscpy(name, cpurng_srcs[i].name, sizeof(name));
		joined = !cpurng_srcs[i].loading;
		mutex_unlock(&cpurng_srcs_lock);
		if (joined)
			continue;

		start = ktime_get();
		rng = crypto_alloc_rng(name, 0, 0);
		mutex_lock(&cpurng_srcs_lock);
		joined = false;
		if (selection == cpurng_srcs_selection) {
			/* counted and logged as a seed would; seeds retry it */
			if (IS_ERR(rng) && !cpurng_srcs[i].rng &&
			    cpurng_srcs[i].err != PTR_ERR(rng)) {
				pr_warn("seed source %s failed (%ld), skipped\n",
					name, PTR_ERR(rng));
				cpurng_srcs[i].err = PTR_ERR(rng);
				cpurng_srcs[i].failures++;
			}
			if (!IS_ERR(rng) && !cpurng_srcs[i].rng) {
				cpurng_src_install(&cpurng_srcs[i], rng);
				cpurng_srcs[i].load_ns =
					ktime_to_ns(ktime_sub(ktime_get(), start));
				joined = cpurng_srcs[i].skipped &&
					 cpurng_srcs[i].credit &&
					 !cpurng_srcs[i].foreign;
				rng = NULL;
			}
			cpurng_srcs[i].loading = false;
		}
		mutex_unlock(&cpurng_srcs_lock);
		if (!IS_ERR_OR_NULL(rng))
			crypto_free_rng(rng);
		if (joined)
			atomic_inc(&cpurng_drbg_sources_gen);
	}
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
VISIBLE_IF_KUNIT u8 cpurng_src_credit(const struct cpurng_src *s,
				      bool random_ready)
{
	if (cpurng_src_is_random(s) ? !random_ready : s->foreign)
		return 0;
	return s->credit;
}
EXPORT_SYMBOL_IF_KUNIT(cpurng_src_credit);

/*
 * Bytes to read from a source credited @credit bits per byte for a seed
 * that needs @need_bits: enough to cover them alone, a fixed amount from
 * an uncredited one, never more than CPURNG_SRC_MAX_BYTES.
 */
VISIBLE_IF_KUNIT size_t cpurng_src_want(u8 credit, u32 need_bits)
{
	size_t want = credit ? DIV_ROUND_UP(need_bits, credit) :
			       CPURNG_SRC_UNCREDITED_BYTES;

	return min_t(size_t, want, CPURNG_SRC_MAX_BYTES);
}
EXPORT_SYMBOL_IF_KUNIT(cpurng_src_want);

/*
 * Read one source into @g.  Returns false if @g is full; a failure is
 * counted, logged on change and skipped.
 */
static bool cpurng_src_gather_one(struct cpurng_src *s, u32 need_bits,
				  bool random_ready,
				  struct cpurng_drbg_gathered *g)
{
	bool random = cpurng_src_is_random(s);
	ktime_t start = ktime_get();
	int got = random ? 0 : cpurng_src_get_rng(s);
	u8 credit = cpurng_src_credit(s, random_ready);
	size_t want = cpurng_src_want(credit, need_bits);
	int ret;

	if (want > sizeof(g->buf) - g->len)
		return false;
	if (random) {
		get_random_bytes(g->buf + g->len, want);
		ret = 0;
	} else {
		ret = got ?: cpurng_src_read_rng(s, g->buf + g->len, want);
	}
	s->last_ns = ktime_to_ns(ktime_sub(ktime_get(), start));
	if (ret) {
		if (s->err != ret)
			pr_warn("seed source %s failed (%d), skipped\n",
				s->name, ret);
		s->err = ret;
		s->failures++;
		memzero_explicit(g->buf + g->len, want);
		return true;
	}
	s->err = 0;
	s->bytes += want;
	g->len += want;
	g->credited_bits += want * credit;
	if (credit)
		g->usable_sources++;
	return true;
}

/*
 * Called with cpurng_srcs_lock held; drops it while the background
 * allocation finishes.  A seed must not allocate a source that is still
 * loading itself: both would request the module, and the second modprobe
 * finds it already in the kernel (still in its init) and returns at once,
 * so that allocation fails with -ENOENT (seen under load without RDRAND).
 * Returns false when the selection changed meanwhile.
 */
static bool cpurng_src_wait_prefetch(void)
{
	unsigned int selection = cpurng_srcs_selection;

	/* never from the background allocation itself */
	if (current_work() == &cpurng_src_prefetch_work)
		return true;
	mutex_unlock(&cpurng_srcs_lock);
	flush_work(&cpurng_src_prefetch_work);
	mutex_lock(&cpurng_srcs_lock);
	return selection == cpurng_srcs_selection;
}

static bool cpurng_src_any_loading(void)
{
	unsigned int i;

	for (i = 0; i < cpurng_nsrcs; i++)
		if (cpurng_srcs[i].loading && !cpurng_srcs[i].rng)
			return true;
	return false;
}

int cpurng_drbg_sources_gather(u32 need_bits, struct cpurng_drbg_gathered *g)
{
	bool random_ready = rng_is_initialized();
	bool wait_all = cpurng_drbg_fips();
	unsigned long pending = 0;
	unsigned int i;

	g->len = 0;
	g->credited_bits = 0;
	g->usable_sources = 0;

	mutex_lock(&cpurng_srcs_lock);
	/* every source under FIPS: wait for all, again for a new selection */
	while (wait_all && cpurng_src_any_loading() &&
	       !cpurng_src_wait_prefetch())
		;
	/* First the sources that are ready; see the top of the file. */
	for (i = 0; i < cpurng_nsrcs; i++) {
		struct cpurng_src *s = &cpurng_srcs[i];

		if (!wait_all && s->loading && !s->rng) {
			pending |= BIT(i);
			continue;
		}
		if (!cpurng_src_gather_one(s, need_bits, random_ready, g))
			break;
	}
	if (pending && g->credited_bits >= need_bits) {
		pr_info_once("seeded fully from the sources ready; the others join at the next request once loaded\n");
		for (i = 0; i < cpurng_nsrcs; i++)
			if (pending & BIT(i))
				cpurng_srcs[i].skipped = true;
		pending = 0;
	}
	/* a new selection's sources seed the next time */
	if (pending && !cpurng_src_wait_prefetch())
		pending = 0;
	for (i = 0; i < cpurng_nsrcs; i++)
		if ((pending & BIT(i)) &&
		    !cpurng_src_gather_one(&cpurng_srcs[i], need_bits,
					   random_ready, g))
			break;
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
 * One line per source: its name, how long its last read took and how long
 * the background allocation of its handle took (us).
 */
int cpurng_drbg_sources_timing(char *buf, size_t size)
{
	unsigned int i;
	int len = 0;

	mutex_lock(&cpurng_srcs_lock);
	for (i = 0; i < cpurng_nsrcs; i++)
		len += scnprintf(buf + len, size - len, "%s %llu load %llu\n",
				 cpurng_srcs[i].name,
				 div_u64(cpurng_srcs[i].last_ns, NSEC_PER_USEC),
				 div_u64(cpurng_srcs[i].load_ns, NSEC_PER_USEC));
	mutex_unlock(&cpurng_srcs_lock);
	return len;
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
				 s->loading ? "loading" : "unused",
				 s->bytes, s->failures,
				 s->rng ? crypto_tfm_alg_driver_name(crypto_rng_tfm(s->rng)) :
				 "-", note);
	}
	mutex_unlock(&cpurng_srcs_lock);
	return len;
}
