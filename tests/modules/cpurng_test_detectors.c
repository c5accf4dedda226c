// SPDX-License-Identifier: GPL-2.0
/*
 * Test-only module: positive controls for the debug lane.  A clean run on
 * the debug kernel means something only if the checkers would have spoken,
 * so this module commits each kind of bug on request and the VM harness
 * must see the checker's report (groups detect-*, make check-debug).
 *
 * Files under /sys/kernel/debug/cpurng_test_detectors/, each written with a
 * decimal number:
 *   leak <n>        allocate n small objects, write a marker in each and
 *                   forget them (kmemleak; several, because a stale stack
 *                   slot may still point at one of them)
 *   oob-read <i>    read byte i of a 16-byte kmalloc object (KASAN for
 *                   i >= 16)
 *   index <i>       read element i of a 4-element array (UBSAN bounds for
 *                   i >= 4)
 *   lock-order <n>  take two mutexes in one order, then (n != 0) in the
 *                   other: lockdep's circular dependency report, without
 *                   an actual deadlock since one thread does both
 *
 * Never load this on a kernel that matters.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/string.h>

#define DETECTORS_MAX_LEAKS	64
#define DETECTORS_OBJ_SIZE	16
#define DETECTORS_LEAK_MARKER	"cpurng-test-leak"
/*
 * A whole kmalloc-32 object, zeroed: left-over free-list pointers in the
 * unrequested tail would chain the leaked objects together, and one stale
 * stack reference to the first would then hide them all.
 */
#define DETECTORS_LEAK_SIZE	32

static struct dentry *detectors_dir;
static DEFINE_MUTEX(detectors_lock_a);
static DEFINE_MUTEX(detectors_lock_b);
/* Where results go, so the compiler keeps the faulting reads. */
static u8 detectors_sink;

static noinline void detectors_leak(unsigned int n)
{
	unsigned int i;
	char *p;

	BUILD_BUG_ON(sizeof(DETECTORS_LEAK_MARKER) > DETECTORS_LEAK_SIZE);
	for (i = 0; i < n; i++) {
		p = kzalloc(DETECTORS_LEAK_SIZE, GFP_KERNEL);
		if (!p)
			return;
		memcpy(p, DETECTORS_LEAK_MARKER, sizeof(DETECTORS_LEAK_MARKER));
		/* Deliberately dropped: kmemleak must report it. */
	}
	pr_info("leaked %u objects on purpose\n", n);
}

static noinline void detectors_oob_read(unsigned int i)
{
	u8 *p = kzalloc(DETECTORS_OBJ_SIZE, GFP_KERNEL);

	if (!p)
		return;
	pr_info("reading byte %u of a %u-byte object\n", i, DETECTORS_OBJ_SIZE);
	WRITE_ONCE(detectors_sink, p[i]);
	kfree(p);
}

static noinline void detectors_index(unsigned int i)
{
	u32 a[4] = { 1, 2, 3, 4 };

	pr_info("reading element %u of a 4-element array\n", i);
	WRITE_ONCE(detectors_sink, a[i]);
}

static noinline void detectors_lock_order(unsigned int invert)
{
	mutex_lock(&detectors_lock_a);
	mutex_lock(&detectors_lock_b);
	mutex_unlock(&detectors_lock_b);
	mutex_unlock(&detectors_lock_a);
	if (!invert)
		return;
	pr_info("taking the two locks in the other order\n");
	mutex_lock(&detectors_lock_b);
	mutex_lock(&detectors_lock_a);
	mutex_unlock(&detectors_lock_a);
	mutex_unlock(&detectors_lock_b);
}

struct detectors_file {
	const char *name;
	void (*fn)(unsigned int n);
	unsigned int max;
};

static const struct detectors_file detectors_files[] = {
	{ "leak", detectors_leak, DETECTORS_MAX_LEAKS },
	{ "oob-read", detectors_oob_read, UINT_MAX },
	{ "index", detectors_index, UINT_MAX },
	{ "lock-order", detectors_lock_order, 1 },
};

static ssize_t detectors_write(struct file *file, const char __user *ubuf,
			       size_t len, loff_t *ppos)
{
	const struct detectors_file *f = file_inode(file)->i_private;
	unsigned int n;
	int ret;

	ret = kstrtouint_from_user(ubuf, len, 10, &n);
	if (ret)
		return ret;
	if (n > f->max)
		return -EINVAL;
	f->fn(n);
	return len;
}

static const struct file_operations detectors_fops = {
	.owner = THIS_MODULE,
	.write = detectors_write,
	.llseek = noop_llseek,
};

static int __init detectors_init(void)
{
	unsigned int i;

	detectors_dir = debugfs_create_dir(KBUILD_MODNAME, NULL);
	for (i = 0; i < ARRAY_SIZE(detectors_files); i++)
		debugfs_create_file(detectors_files[i].name, 0200, detectors_dir,
				    (void *)&detectors_files[i], &detectors_fops);
	return 0;
}

static void __exit detectors_exit(void)
{
	debugfs_remove_recursive(detectors_dir);
}

module_init(detectors_init);
module_exit(detectors_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("cpurng test: deliberate bugs for the debug kernel's checkers");
