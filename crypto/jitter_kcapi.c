// SPDX-License-Identifier: GPL-2.0
/*
 * CPU Jitter RNG: module parameters and the crypto API glue.
 *
 * The algorithm is registered as "jitterentropy_rng", the name the kernel's
 * DRBG asks for, with its own driver name and a priority above the stock
 * module's.  The crypto API refuses an algorithm whose cra_name equals the
 * driver name of one already registered, and the stock module's driver name
 * is "jitterentropy_rng": whichever module comes first keeps the name.  When
 * the stock module (loaded, or built into the kernel) holds it, this module
 * refuses to load and names the holder; it offers no alternative name,
 * because callers ask for "jitterentropy_rng" and would not find it.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <crypto/internal/rng.h>
#include <linux/fips.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/string.h>

#include "../include/cpurng/jitter.h"
#include "../include/cpurng/module_util.h"

/* Stock jitterentropy_rng registers with priority 100. */
#define CPURNG_JENT_PRIORITY	200

/*
 * Memory buffer bounds.  256 bytes is the smallest buffer the stride of the
 * memory walk (67 bytes) crosses more than a few times per sample; 64 MiB
 * exceeds the last-level cache of current CPUs, for experiments that want
 * every access to miss it.
 */
/* The defaults are in jitter.h, shared with the native build. */
struct cpurng_jent_config cpurng_jent_config = {
	.osr = CPURNG_JENT_DEFAULT_OSR,
	.mem_size = CPURNG_JENT_DEFAULT_MEM_SIZE,
	.mem_loops = CPURNG_JENT_DEFAULT_MEM_LOOPS,
	.fold_loops = CPURNG_JENT_DEFAULT_FOLD_LOOPS,
};

bool cpurng_jent_osr_auto;

/* osr=N, or osr=auto: the smallest osr the estimate at load supports. */
static int cpurng_jent_osr_set(const char *val, const struct kernel_param *kp)
{
	unsigned int osr;

	if (sysfs_streq(val, "auto")) {
		cpurng_jent_osr_auto = true;
		return 0;
	}
	if (kstrtouint(val, 10, &osr)) {
		pr_err("osr: '%.*s' is neither a number nor auto\n",
		       (int)strcspn(val, "\n"), val);
		return -EINVAL;
	}
	/* the bounds are checked with the other parameters at load */
	cpurng_jent_osr_auto = false;
	cpurng_jent_config.osr = osr;
	return 0;
}

static int cpurng_jent_osr_get(char *buf, const struct kernel_param *kp)
{
	return scnprintf(buf, PAGE_SIZE, "%u\n", cpurng_jent_config.osr);
}

static const struct kernel_param_ops cpurng_jent_osr_ops = {
	.set = cpurng_jent_osr_set,
	.get = cpurng_jent_osr_get,
};
module_param_cb(osr, &cpurng_jent_osr_ops, NULL, 0444);
MODULE_PARM_DESC(osr, "Oversampling rate: each sample is credited 1/osr bit (1-8, default 6), or auto: the smallest osr the min-entropy estimate at load supports");
module_param_named(mem_size, cpurng_jent_config.mem_size, uint, 0444);
MODULE_PARM_DESC(mem_size, "Memory buffer per instance in bytes, a power of two (256 - 64 MiB, default 64 KiB)");
module_param_named(mem_loops, cpurng_jent_config.mem_loops, uint, 0444);
MODULE_PARM_DESC(mem_loops, "Memory accesses per sample (1-65536, default 128)");
module_param_named(fold_loops, cpurng_jent_config.fold_loops, uint, 0444);
MODULE_PARM_DESC(fold_loops, "Timestamp foldings per sample (1-64, default 1)");

bool cpurng_jent_fips(void)
{
	return fips_enabled || cpurng_jent_test_fips();
}

static int cpurng_jent_kcapi_init(struct crypto_tfm *tfm)
{
	return cpurng_jent_init(crypto_tfm_ctx(tfm));
}

static void cpurng_jent_kcapi_exit(struct crypto_tfm *tfm)
{
	cpurng_jent_free(crypto_tfm_ctx(tfm));
}

static int cpurng_jent_kcapi_generate(struct crypto_rng *tfm, const u8 *src,
				      unsigned int slen, u8 *dst,
				      unsigned int dlen)
{
	return cpurng_jent_generate(crypto_rng_ctx(tfm), src, slen, dst, dlen);
}

/*
 * crypto_rng_reset(): the instance starts over, start-up test included, and
 * mixes the seed in without credit.  This is how a caller revives an
 * instance after a permanent health failure.
 */
static int cpurng_jent_kcapi_seed(struct crypto_rng *tfm, const u8 *seed,
				  unsigned int slen)
{
	if (slen > CPURNG_MAX_SEED_INPUT)
		return -EINVAL;
	return cpurng_jent_reset(crypto_rng_ctx(tfm), seed, slen);
}

static struct rng_alg cpurng_jent_alg = {
	.generate = cpurng_jent_kcapi_generate,
	.seed = cpurng_jent_kcapi_seed,
	.seedsize = 0,
	.base = {
		.cra_name = CPURNG_JENT_NAME,
		.cra_driver_name = CPURNG_JENT_DRIVER,
		.cra_priority = CPURNG_JENT_PRIORITY,
		.cra_ctxsize = sizeof(struct cpurng_jent),
		.cra_module = THIS_MODULE,
		.cra_init = cpurng_jent_kcapi_init,
		.cra_exit = cpurng_jent_kcapi_exit,
	},
};

/*
 * After -EEXIST, say who holds the name.  CRYPTO_NOLOAD keeps the lookup
 * from loading any module: the diagnosis must not change what is loaded.
 */
static void cpurng_jent_report_conflict(void)
{
	struct crypto_rng *other;
	struct crypto_alg *alg;

	other = crypto_alloc_rng(CPURNG_JENT_NAME, 0, CRYPTO_NOLOAD);
	if (IS_ERR(other)) {
		pr_err("cannot register: the name %s is taken by another algorithm\n",
		       CPURNG_JENT_NAME);
		return;
	}
	alg = crypto_rng_tfm(other)->__crt_alg;
	if (alg->cra_module)
		pr_err("cannot register: %s is already provided by driver %s of module %s; unload it (rmmod %s) or blacklist it, then load this module again\n",
		       CPURNG_JENT_NAME, alg->cra_driver_name,
		       module_name(alg->cra_module),
		       module_name(alg->cra_module));
	else
		pr_err("cannot register: %s is already provided by driver %s, built into the kernel; boot with initcall_blacklist=jent_mod_init to keep it from registering, then load this module\n",
		       CPURNG_JENT_NAME, alg->cra_driver_name);
	crypto_free_rng(other);
}

struct cpurng_fork_watch cpurng_jent_forks;

static int __init cpurng_jent_mod_init(void)
{
	int ret;

	ret = cpurng_jent_check_config(&cpurng_jent_config);
	if (ret)
		return ret;

	ret = cpurng_jent_pool_setup();
	if (ret)
		return ret;
	ret = cpurng_jent_status_init();
	if (ret)
		goto err_pool;
	/* Before the start-up test: the boot capture takes the first samples. */
	ret = cpurng_jent_capture_init();
	if (ret)
		goto err_status;

	ret = cpurng_jent_test_skip_startup() ? 0 :
	      cpurng_jent_platform_check();
	if (ret) {
		pr_err("not registering %s: this platform fails the start-up test\n",
		       CPURNG_JENT_NAME);
		goto err_capture;
	}
	/* Before any instance exists: osr=auto sets the osr they size for. */
	ret = cpurng_jent_assess_at_load(cpurng_jent_osr_auto);
	if (ret)
		goto err_capture;

	ret = cpurng_fork_watch_start(&cpurng_jent_forks,
				      "every instance mixes fresh kernel RNG output into its pool before its next block");
	if (ret)
		goto err_capture;

	if (cpurng_jent_test_rename())
		strscpy(cpurng_jent_alg.base.cra_name, CPURNG_JENT_TEST_NAME,
			sizeof(cpurng_jent_alg.base.cra_name));
	ret = crypto_register_rng(&cpurng_jent_alg);
	if (ret == -EEXIST) {
		cpurng_jent_report_conflict();
		/*
		 * A module's init must not return -EEXIST: [f]init_module()
		 * returns that for "already loaded", which modprobe takes for
		 * success.  Linux 7.x makes it -EBUSY itself; say -EBUSY on
		 * every kernel.
		 */
		ret = -EBUSY;
	}
	if (ret)
		goto err_forks;

	pr_info("registered %s as %s: osr %u%s, buffer %u bytes, per sample %u accesses and %u foldings\n",
		CPURNG_JENT_DRIVER, cpurng_jent_alg.base.cra_name,
		cpurng_jent_config.osr, cpurng_jent_osr_auto ? " (auto)" : "",
		cpurng_jent_config.mem_size, cpurng_jent_config.mem_loops,
		cpurng_jent_config.fold_loops);
	return 0;

err_forks:
	cpurng_fork_watch_stop(&cpurng_jent_forks);
err_capture:
	cpurng_jent_capture_exit();
err_status:
	cpurng_jent_status_exit();
err_pool:
	cpurng_jent_pool_teardown();
	return ret;
}

static void __exit cpurng_jent_mod_exit(void)
{
	crypto_unregister_rng(&cpurng_jent_alg);
	cpurng_fork_watch_stop(&cpurng_jent_forks);
	cpurng_jent_capture_exit();
	cpurng_jent_status_exit();
	cpurng_jent_pool_teardown();
}

module_init(cpurng_jent_mod_init);
module_exit(cpurng_jent_mod_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("cpurng CPU Jitter RNG with SP800-90B health tests");
MODULE_ALIAS_CRYPTO(CPURNG_JENT_NAME);
MODULE_ALIAS_CRYPTO(CPURNG_JENT_DRIVER);
