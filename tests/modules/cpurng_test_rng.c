// SPDX-License-Identifier: GPL-2.0
/*
 * Test-only module: a kernel consumer of crypto_rng algorithms, driven from
 * the VM test cases through debugfs.
 *
 *   echo "get <alg> <bytes>" > /sys/kernel/debug/cpurng_test_rng/ctl
 *   cat /sys/kernel/debug/cpurng_test_rng/ctl
 *     driver=<cra_driver_name> ret=<errno> hex=<output>
 *
 *   echo "reset-get <alg> <bytes>" > .../ctl
 *     the same after crypto_rng_reset(tfm, NULL, seedsize), which is how
 *     kernel users instantiate a DRBG (see crypto_get_default_rng())
 *
 *   echo "bench <alg> <request bytes> <total bytes>" > .../ctl
 *     driver=<name> ret=<errno> bytes=<n> ns=<elapsed>
 *
 * Each command allocates its own tfm with crypto_alloc_rng(), as a kernel
 * user would, so two "get" commands exercise two instances.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <crypto/rng.h>
#include <linux/debugfs.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#define CPURNG_TEST_GET_MAX	4096
#define CPURNG_TEST_REQ_MAX	SZ_1M
#define CPURNG_TEST_CMD_MAX	256
#define CPURNG_TEST_RESULT_MAX	(2 * CPURNG_TEST_GET_MAX + 256)

static DEFINE_MUTEX(cpurng_test_lock);
static char *cpurng_test_result;
static struct dentry *cpurng_test_dir;

static struct crypto_rng *cpurng_test_alloc(const char *alg, int *ret)
{
	struct crypto_rng *rng = crypto_alloc_rng(alg, 0, 0);

	if (IS_ERR(rng)) {
		*ret = PTR_ERR(rng);
		scnprintf(cpurng_test_result, CPURNG_TEST_RESULT_MAX,
			  "driver=none ret=%d\n", *ret);
		return NULL;
	}
	*ret = 0;
	return rng;
}

static int cpurng_test_get(const char *alg, unsigned int len, bool reset)
{
	struct crypto_rng *rng;
	size_t pos;
	u8 *buf;
	int ret;

	if (!len || len > CPURNG_TEST_GET_MAX)
		return -EINVAL;
	buf = kzalloc(len, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;

	rng = cpurng_test_alloc(alg, &ret);
	if (rng) {
		ret = reset ? crypto_rng_reset(rng, NULL,
					       crypto_rng_seedsize(rng)) : 0;
		if (!ret)
			ret = crypto_rng_get_bytes(rng, buf, len);
		pos = scnprintf(cpurng_test_result, CPURNG_TEST_RESULT_MAX,
				"driver=%s ret=%d hex=",
				crypto_tfm_alg_driver_name(crypto_rng_tfm(rng)),
				ret);
		if (!ret) {
			bin2hex(cpurng_test_result + pos, buf, len);
			pos += 2 * len;
		}
		scnprintf(cpurng_test_result + pos,
			  CPURNG_TEST_RESULT_MAX - pos, "\n");
		crypto_free_rng(rng);
	}
	kfree_sensitive(buf);
	return 0;
}

static int cpurng_test_bench(const char *alg, unsigned int req, u64 total)
{
	struct crypto_rng *rng;
	u64 done = 0;
	ktime_t start;
	u8 *buf;
	int ret;

	if (!req || req > CPURNG_TEST_REQ_MAX || !total)
		return -EINVAL;
	buf = kvmalloc(req, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;

	rng = cpurng_test_alloc(alg, &ret);
	if (rng) {
		start = ktime_get();
		while (done < total) {
			ret = crypto_rng_get_bytes(rng, buf, req);
			if (ret)
				break;
			done += req;
			cond_resched();
		}
		scnprintf(cpurng_test_result, CPURNG_TEST_RESULT_MAX,
			  "driver=%s ret=%d bytes=%llu ns=%lld\n",
			  crypto_tfm_alg_driver_name(crypto_rng_tfm(rng)), ret,
			  done, ktime_to_ns(ktime_sub(ktime_get(), start)));
		crypto_free_rng(rng);
	}
	kvfree_sensitive(buf, req);
	return 0;
}

static ssize_t cpurng_test_write(struct file *file, const char __user *ubuf,
				 size_t count, loff_t *ppos)
{
	char cmd[CPURNG_TEST_CMD_MAX], alg[CRYPTO_MAX_ALG_NAME];
	unsigned int a;
	u64 b;
	int ret;

	if (count >= sizeof(cmd))
		return -EINVAL;
	if (copy_from_user(cmd, ubuf, count))
		return -EFAULT;
	cmd[count] = '\0';

	mutex_lock(&cpurng_test_lock);
	if (sscanf(cmd, "get %63s %u", alg, &a) == 2)
		ret = cpurng_test_get(alg, a, false);
	else if (sscanf(cmd, "reset-get %63s %u", alg, &a) == 2)
		ret = cpurng_test_get(alg, a, true);
	else if (sscanf(cmd, "bench %63s %u %llu", alg, &a, &b) == 3)
		ret = cpurng_test_bench(alg, a, b);
	else
		ret = -EINVAL;
	mutex_unlock(&cpurng_test_lock);
	return ret ? ret : count;
}

static ssize_t cpurng_test_read(struct file *file, char __user *ubuf,
				size_t count, loff_t *ppos)
{
	ssize_t ret;

	mutex_lock(&cpurng_test_lock);
	ret = simple_read_from_buffer(ubuf, count, ppos, cpurng_test_result,
				      strlen(cpurng_test_result));
	mutex_unlock(&cpurng_test_lock);
	return ret;
}

static const struct file_operations cpurng_test_fops = {
	.owner = THIS_MODULE,
	.read = cpurng_test_read,
	.write = cpurng_test_write,
	.llseek = default_llseek,
};

static int __init cpurng_test_init(void)
{
	cpurng_test_result = kzalloc(CPURNG_TEST_RESULT_MAX, GFP_KERNEL);
	if (!cpurng_test_result)
		return -ENOMEM;
	cpurng_test_dir = debugfs_create_dir(KBUILD_MODNAME, NULL);
	debugfs_create_file("ctl", 0600, cpurng_test_dir, NULL,
			    &cpurng_test_fops);
	return 0;
}

static void __exit cpurng_test_exit(void)
{
	debugfs_remove_recursive(cpurng_test_dir);
	kfree_sensitive(cpurng_test_result);
}

module_init(cpurng_test_init);
module_exit(cpurng_test_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("cpurng test helper: kernel consumer of crypto_rng");
