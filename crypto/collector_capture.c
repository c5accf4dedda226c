// SPDX-License-Identifier: GPL-2.0
/*
 * CPU-randomness collector raw capture, for the entropy evidence tools.
 *
 * Off unless the module is loaded with raw_capture=1.  Then every event's
 * raw inputs go into a ring buffer per CPU *instead of* the pools, so a
 * recorded event never contributes to any output, and
 * /sys/kernel/debug/cpurng_collector/raw returns them: records of six
 * little-endian u64, jiffies, cycles, call site, per-call value, stack
 * address, and (probe << 32 | cpu).  A read blocks until at least one
 * record is there.  Events in NMI context, and events that find their ring
 * full, are dropped and counted.  The status file "recording" says 1.
 *
 * The probes test a static key, so the capture costs nothing while off.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/moduleparam.h>
#include <linux/percpu.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/uaccess.h>

#include "../include/cpurng/collector.h"

#define CPURNG_CR_CAP_WORDS	6
#define CPURNG_CR_CAP_RECORD	(CPURNG_CR_CAP_WORDS * sizeof(u64))
/* Records per CPU: 48 KiB each. */
#define CPURNG_CR_CAP_RING	1024
/* One read() returns at most this many records (48 KiB). */
#define CPURNG_CR_CAP_READ	1024

static bool raw_capture;
module_param(raw_capture, bool, 0444);
MODULE_PARM_DESC(raw_capture, "Record raw event inputs in debugfs instead of mixing them (default 0)");

DEFINE_STATIC_KEY_FALSE(cpurng_cr_capture_key);

struct cpurng_cr_ring {
	raw_spinlock_t lock;	/* writer on its CPU vs. the reader */
	unsigned int head;	/* next record to write */
	unsigned int tail;	/* next record to read */
	u64 dropped;
	u64 rec[CPURNG_CR_CAP_RING][CPURNG_CR_CAP_WORDS];
};

static struct cpurng_cr_ring * __percpu *cpurng_cr_rings;
static struct dentry *cpurng_cr_cap_dir;
static atomic64_t cpurng_cr_cap_nmi_dropped;

void cpurng_cr_capture_record(enum cpurng_cr_probe probe, u64 jiffies,
			      u64 cycles, u64 site, u64 value, u64 stack)
{
	struct cpurng_cr_ring *r;
	unsigned long flags;
	u64 *rec;

	if (in_nmi()) {
		atomic64_inc(&cpurng_cr_cap_nmi_dropped);
		return;
	}
	r = *this_cpu_ptr(cpurng_cr_rings);
	raw_spin_lock_irqsave(&r->lock, flags);
	if (r->head - r->tail == CPURNG_CR_CAP_RING) {
		r->dropped++;
	} else {
		rec = r->rec[r->head % CPURNG_CR_CAP_RING];
		rec[0] = jiffies;
		rec[1] = cycles;
		rec[2] = site;
		rec[3] = value;
		rec[4] = stack;
		rec[5] = (u64)probe << 32 | smp_processor_id();
		r->head++;
	}
	raw_spin_unlock_irqrestore(&r->lock, flags);
}

/* Move up to @max records of every CPU into @out; returns the count. */
static unsigned int cpurng_cr_cap_drain(u64 (*out)[CPURNG_CR_CAP_WORDS],
					unsigned int max)
{
	unsigned int n = 0;
	unsigned long flags;
	int cpu;

	for_each_possible_cpu(cpu) {
		struct cpurng_cr_ring *r = *per_cpu_ptr(cpurng_cr_rings, cpu);

		raw_spin_lock_irqsave(&r->lock, flags);
		while (n < max && r->tail != r->head) {
			memcpy(out[n++], r->rec[r->tail % CPURNG_CR_CAP_RING],
			       CPURNG_CR_CAP_RECORD);
			r->tail++;
		}
		raw_spin_unlock_irqrestore(&r->lock, flags);
	}
	return n;
}

static ssize_t cpurng_cr_cap_read(struct file *file, char __user *ubuf,
				  size_t count, loff_t *ppos)
{
	unsigned int max = min_t(size_t, count / CPURNG_CR_CAP_RECORD,
				 CPURNG_CR_CAP_READ), n;
	u64 (*buf)[CPURNG_CR_CAP_WORDS];
	ssize_t ret;

	if (!max)
		return -EINVAL;
	buf = kvmalloc_array(max, CPURNG_CR_CAP_RECORD, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	/* Block until events arrive; they come with any activity. */
	while (!(n = cpurng_cr_cap_drain(buf, max))) {
		if (msleep_interruptible(10) || signal_pending(current)) {
			ret = -ERESTARTSYS;
			goto out;
		}
	}
	ret = copy_to_user(ubuf, buf, n * CPURNG_CR_CAP_RECORD) ? -EFAULT :
	      n * CPURNG_CR_CAP_RECORD;
out:
	kvfree(buf);
	return ret;
}

static const struct file_operations cpurng_cr_cap_fops = {
	.owner = THIS_MODULE,
	.read = cpurng_cr_cap_read,
};

u64 cpurng_cr_capture_dropped(void)
{
	u64 dropped = atomic64_read(&cpurng_cr_cap_nmi_dropped);
	int cpu;

	if (!cpurng_cr_rings)
		return 0;
	for_each_possible_cpu(cpu)
		dropped += READ_ONCE((*per_cpu_ptr(cpurng_cr_rings, cpu))->dropped);
	return dropped;
}

bool cpurng_cr_capture_enabled(void)
{
	return raw_capture;
}

static void cpurng_cr_cap_free_rings(void)
{
	int cpu;

	if (!cpurng_cr_rings)
		return;
	for_each_possible_cpu(cpu)
		kvfree(*per_cpu_ptr(cpurng_cr_rings, cpu));
	free_percpu(cpurng_cr_rings);
	cpurng_cr_rings = NULL;
}

/* Before the probes attach: they read the key and the rings. */
int cpurng_cr_capture_init(void)
{
	int cpu;

	if (!raw_capture)
		return 0;
	cpurng_cr_rings = alloc_percpu(struct cpurng_cr_ring *);
	if (!cpurng_cr_rings)
		return -ENOMEM;
	for_each_possible_cpu(cpu) {
		struct cpurng_cr_ring *r = kvzalloc(sizeof(*r), GFP_KERNEL);

		if (!r) {
			cpurng_cr_cap_free_rings();
			return -ENOMEM;
		}
		raw_spin_lock_init(&r->lock);
		*per_cpu_ptr(cpurng_cr_rings, cpu) = r;
	}
	cpurng_cr_cap_dir = debugfs_create_dir(KBUILD_MODNAME, NULL);
	debugfs_create_file("raw", 0400, cpurng_cr_cap_dir, NULL,
			    &cpurng_cr_cap_fops);
	static_branch_enable(&cpurng_cr_capture_key);
	pr_warn("raw capture enabled: events are recorded in debugfs and not mixed into the pools\n");
	return 0;
}

/* After the probes are gone. */
void cpurng_cr_capture_exit(void)
{
	if (!raw_capture)
		return;
	debugfs_remove_recursive(cpurng_cr_cap_dir);
	cpurng_cr_cap_dir = NULL;
	cpurng_cr_cap_free_rings();
}
