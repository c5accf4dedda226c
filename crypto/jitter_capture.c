// SPDX-License-Identifier: GPL-2.0
/*
 * CPU Jitter RNG raw-noise capture, for the entropy evidence tools.
 *
 * Off unless the module is loaded with raw_capture=1.  Then
 * /sys/kernel/debug/cpurng_jitter/ offers:
 *
 *   mode     the isolation mode of the next samples (read/write):
 *              normal      as the RNG runs
 *              irqoff      interrupts disabled around each sample
 *              preemptoff  preemption disabled around each sample
 *              l1          memory walk over 4 KiB, which stays in L1
 *              llc         memory walk over 64 MiB, beyond the LLC
 *              fold        folding only, no memory access
 *              mem         memory access only, no folding
 *   raw      each read() measures as many samples as fit and returns them:
 *            records of four little-endian u64, the sample's delta, its
 *            folding and memory parts and its start timestamp (struct
 *            cpurng_noise_sample); blocks while measuring
 *   restart  like raw, but every read() starts a fresh noise instance
 *            (new buffer, no history): the first samples after a
 *            restart, for SP800-90B 3.1.4 restart tests
 *   boot     the first raw_boot_samples samples measured when the module
 *            was loaded, before the start-up test
 *
 * The samples come from instances of their own, never from an instance
 * that produces output: nothing recorded is ever RNG output.  While a
 * capture file is open, /sys/kernel/cpurng_jitter/recording says 1.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/irqflags.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/preempt.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "../include/cpurng/jitter.h"

#define CPURNG_CAP_RECORD	(CPURNG_NOISE_RECORD_WORDS * sizeof(u64))
/* One read() measures at most this many samples (64 KiB of records). */
#define CPURNG_CAP_MAX		(65536 / CPURNG_CAP_RECORD)
#define CPURNG_CAP_L1_BYTES	4096U
#define CPURNG_CAP_LLC_BYTES	(64U << 20)
#define CPURNG_CAP_BOOT_MAX	100000U

enum cpurng_cap_mode {
	CPURNG_CAP_NORMAL,
	CPURNG_CAP_IRQOFF,
	CPURNG_CAP_PREEMPTOFF,
	CPURNG_CAP_L1,
	CPURNG_CAP_LLC,
	CPURNG_CAP_FOLD,
	CPURNG_CAP_MEM,
	CPURNG_CAP_MODES,
};

static const char * const cpurng_cap_names[] = {
	[CPURNG_CAP_NORMAL] = "normal",
	[CPURNG_CAP_IRQOFF] = "irqoff",
	[CPURNG_CAP_PREEMPTOFF] = "preemptoff",
	[CPURNG_CAP_L1] = "l1",
	[CPURNG_CAP_LLC] = "llc",
	[CPURNG_CAP_FOLD] = "fold",
	[CPURNG_CAP_MEM] = "mem",
};

static bool raw_capture;
module_param(raw_capture, bool, 0444);
MODULE_PARM_DESC(raw_capture, "Offer raw, unconditioned noise samples in debugfs for analysis (default 0)");

static unsigned int raw_boot_samples;
module_param(raw_boot_samples, uint, 0444);
MODULE_PARM_DESC(raw_boot_samples, "With raw_capture: keep the first N samples measured at load (0-100000)");

static struct dentry *cpurng_cap_dir;
static DEFINE_MUTEX(cpurng_cap_lock);
static enum cpurng_cap_mode cpurng_cap_mode;
static atomic_t cpurng_cap_open;
static u64 *cpurng_cap_boot;
static unsigned int cpurng_cap_boot_n;

/* A capture instance, set up for a mode; see cpurng_cap_free(). */
struct cpurng_cap {
	struct cpurng_noise noise;
	u32 size;
	enum cpurng_cap_mode mode;
};

static int cpurng_cap_init(struct cpurng_cap *c, enum cpurng_cap_mode mode)
{
	const struct cpurng_jent_config *cfg = &cpurng_jent_config;

	memset(c, 0, sizeof(*c));
	c->mode = mode;
	c->size = mode == CPURNG_CAP_L1 ? CPURNG_CAP_L1_BYTES :
		  mode == CPURNG_CAP_LLC ? CPURNG_CAP_LLC_BYTES : cfg->mem_size;
	c->noise.mem = kvzalloc(c->size, GFP_KERNEL);
	if (!c->noise.mem)
		return -ENOMEM;
	c->noise.mem_mask = c->size - 1;
	c->noise.mem_loops = cfg->mem_loops;
	c->noise.fold_loops = cfg->fold_loops;
	c->noise.paths = mode == CPURNG_CAP_FOLD ? CPURNG_NOISE_FOLD :
			 mode == CPURNG_CAP_MEM ? CPURNG_NOISE_MEM :
			 CPURNG_NOISE_ALL;
	return 0;
}

static void cpurng_cap_free(struct cpurng_cap *c)
{
	kvfree(c->noise.mem);
	c->noise.mem = NULL;
}

/* Measure @n samples into @out (one record each) in the instance's mode. */
static void cpurng_cap_measure(struct cpurng_cap *c, u64 *out, unsigned int n)
{
	struct cpurng_noise_sample s;
	unsigned long flags;
	unsigned int i;

	for (i = 0; i < n; i++) {
		if (c->mode == CPURNG_CAP_IRQOFF) {
			local_irq_save(flags);
			cpurng_noise_measure(&c->noise, &s);
			local_irq_restore(flags);
		} else if (c->mode == CPURNG_CAP_PREEMPTOFF) {
			preempt_disable();
			cpurng_noise_measure(&c->noise, &s);
			preempt_enable();
		} else {
			cpurng_noise_measure(&c->noise, &s);
		}
		out[4 * i] = s.delta;
		out[4 * i + 1] = s.fold_delta;
		out[4 * i + 2] = s.mem_delta;
		out[4 * i + 3] = s.t_start;
		if (!(i & 255))
			cond_resched();
	}
}

static ssize_t cpurng_cap_copy(char __user *ubuf, const u64 *rec,
			       unsigned int n)
{
	size_t bytes = n * CPURNG_CAP_RECORD;

	return copy_to_user(ubuf, rec, bytes) ? -EFAULT : bytes;
}

/* raw and restart: measure one sample per record that fits (64 KiB max). */
static ssize_t cpurng_cap_read(struct file *file, char __user *ubuf,
			       size_t count, loff_t *ppos, bool restart)
{
	struct cpurng_cap *c = file->private_data;
	unsigned int n = min_t(size_t, count / CPURNG_CAP_RECORD,
			       CPURNG_CAP_MAX);
	u64 *rec;
	ssize_t ret;

	if (!n)
		return -EINVAL;
	rec = kvmalloc_array(n, CPURNG_CAP_RECORD, GFP_KERNEL);
	if (!rec)
		return -ENOMEM;
	mutex_lock(&cpurng_cap_lock);
	if (restart || c->mode != cpurng_cap_mode) {
		cpurng_cap_free(c);
		ret = cpurng_cap_init(c, cpurng_cap_mode);
		if (ret)
			goto out;
	}
	cpurng_cap_measure(c, rec, n);
	ret = cpurng_cap_copy(ubuf, rec, n);
	if (ret > 0)
		*ppos += ret;
out:
	mutex_unlock(&cpurng_cap_lock);
	kvfree(rec);
	return ret;
}

static ssize_t cpurng_cap_read_raw(struct file *file, char __user *ubuf,
				   size_t count, loff_t *ppos)
{
	return cpurng_cap_read(file, ubuf, count, ppos, false);
}

static ssize_t cpurng_cap_read_restart(struct file *file, char __user *ubuf,
				       size_t count, loff_t *ppos)
{
	return cpurng_cap_read(file, ubuf, count, ppos, true);
}

static int cpurng_cap_open_file(struct inode *inode, struct file *file)
{
	struct cpurng_cap *c = kzalloc(sizeof(*c), GFP_KERNEL);
	int ret;

	if (!c)
		return -ENOMEM;
	mutex_lock(&cpurng_cap_lock);
	ret = cpurng_cap_init(c, cpurng_cap_mode);
	mutex_unlock(&cpurng_cap_lock);
	if (ret) {
		kfree(c);
		return ret;
	}
	file->private_data = c;
	atomic_inc(&cpurng_cap_open);
	return nonseekable_open(inode, file);
}

static int cpurng_cap_release(struct inode *inode, struct file *file)
{
	struct cpurng_cap *c = file->private_data;

	cpurng_cap_free(c);
	kfree(c);
	atomic_dec(&cpurng_cap_open);
	return 0;
}

static const struct file_operations cpurng_cap_raw_fops = {
	.owner = THIS_MODULE,
	.open = cpurng_cap_open_file,
	.read = cpurng_cap_read_raw,
	.release = cpurng_cap_release,
};

static const struct file_operations cpurng_cap_restart_fops = {
	.owner = THIS_MODULE,
	.open = cpurng_cap_open_file,
	.read = cpurng_cap_read_restart,
	.release = cpurng_cap_release,
};

static ssize_t cpurng_cap_read_boot(struct file *file, char __user *ubuf,
				    size_t count, loff_t *ppos)
{
	return simple_read_from_buffer(ubuf, count, ppos, cpurng_cap_boot,
				       cpurng_cap_boot_n * CPURNG_CAP_RECORD);
}

static const struct file_operations cpurng_cap_boot_fops = {
	.owner = THIS_MODULE,
	.read = cpurng_cap_read_boot,
	.llseek = default_llseek,
};

static ssize_t cpurng_cap_mode_read(struct file *file, char __user *ubuf,
				    size_t count, loff_t *ppos)
{
	char buf[16];
	int len;

	len = scnprintf(buf, sizeof(buf), "%s\n",
			cpurng_cap_names[READ_ONCE(cpurng_cap_mode)]);
	return simple_read_from_buffer(ubuf, count, ppos, buf, len);
}

static ssize_t cpurng_cap_mode_write(struct file *file,
				     const char __user *ubuf, size_t count,
				     loff_t *ppos)
{
	char buf[16];
	int mode;

	if (count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	mode = sysfs_match_string(cpurng_cap_names, buf);
	if (mode < 0)
		return -EINVAL;
	mutex_lock(&cpurng_cap_lock);
	cpurng_cap_mode = mode;
	mutex_unlock(&cpurng_cap_lock);
	return count;
}

static const struct file_operations cpurng_cap_mode_fops = {
	.owner = THIS_MODULE,
	.read = cpurng_cap_mode_read,
	.write = cpurng_cap_mode_write,
	.llseek = default_llseek,
};

bool cpurng_jent_capture_recording(void)
{
	return raw_capture && atomic_read(&cpurng_cap_open) > 0;
}

bool cpurng_jent_capture_enabled(void)
{
	return raw_capture;
}

/* The first samples after load, before anything else ran on this noise. */
static void cpurng_cap_boot_capture(void)
{
	struct cpurng_cap c;
	unsigned int n = min(raw_boot_samples, CPURNG_CAP_BOOT_MAX);

	if (!n || cpurng_cap_init(&c, CPURNG_CAP_NORMAL))
		return;
	cpurng_cap_boot = kvmalloc_array(n, CPURNG_CAP_RECORD, GFP_KERNEL);
	if (cpurng_cap_boot) {
		cpurng_cap_measure(&c, cpurng_cap_boot, n);
		cpurng_cap_boot_n = n;
	}
	cpurng_cap_free(&c);
}

int cpurng_jent_capture_init(void)
{
	if (!raw_capture)
		return 0;
	cpurng_cap_boot_capture();
	cpurng_cap_dir = debugfs_create_dir(KBUILD_MODNAME, NULL);
	debugfs_create_file("mode", 0600, cpurng_cap_dir, NULL,
			    &cpurng_cap_mode_fops);
	debugfs_create_file("raw", 0400, cpurng_cap_dir, NULL,
			    &cpurng_cap_raw_fops);
	debugfs_create_file("restart", 0400, cpurng_cap_dir, NULL,
			    &cpurng_cap_restart_fops);
	debugfs_create_file("boot", 0400, cpurng_cap_dir, NULL,
			    &cpurng_cap_boot_fops);
	pr_warn("raw noise capture enabled: /sys/kernel/debug/%s (samples recorded there are never RNG output)\n",
		KBUILD_MODNAME);
	return 0;
}

void cpurng_jent_capture_exit(void)
{
	debugfs_remove_recursive(cpurng_cap_dir);
	cpurng_cap_dir = NULL;
	kvfree(cpurng_cap_boot);
	cpurng_cap_boot = NULL;
}
