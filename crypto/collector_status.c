// SPDX-License-Identifier: GPL-2.0
/*
 * CPU-randomness collector status, under /sys/kernel/cpurng_collector/.
 * Totals are one value per file; per_cpu is a small table (one line per
 * possible CPU), like the per-CPU columns of /proc/interrupts.  "probes"
 * lists the tracepoints attached right now: after the boot phase that
 * changes within each period.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpumask.h>
#include <linux/kobject.h>
#include <linux/math64.h>
#include <linux/sysfs.h>

#include "../include/cpurng/collector.h"
#include "../include/cpurng/module_util.h"

static struct kobject *cpurng_cr_kobj;

static void cpurng_cr_sum(struct cpurng_cr_totals *t)
{
	int cpu;

	memset(t, 0, sizeof(*t));
	for_each_possible_cpu(cpu)
		cpurng_cr_totals(cpu, t);
}

/* Average cycles per sampled event, in tenths. */
static u64 cpurng_cr_cost_tenths(const struct cpurng_cr_totals *t)
{
	return t->cost_samples ?
	       div64_u64(t->cost_cycles * 10, t->cost_samples) : 0;
}

#define CPURNG_CR_EVENTS_ATTR(_name, _probe)				\
static ssize_t _name##_show(struct kobject *kobj,			\
			    struct kobj_attribute *attr, char *buf)	\
{									\
	struct cpurng_cr_totals t;					\
									\
	cpurng_cr_sum(&t);						\
	return sysfs_emit(buf, "%llu\n", t.events[_probe]);		\
}									\
static struct kobj_attribute _name##_attr = __ATTR_RO(_name)

CPURNG_CR_EVENTS_ATTR(events_sched_switch, CPURNG_CR_SCHED_SWITCH);
CPURNG_CR_EVENTS_ATTR(events_kmalloc, CPURNG_CR_KMALLOC);
CPURNG_CR_EVENTS_ATTR(events_kmem_cache_alloc, CPURNG_CR_KMEM_CACHE_ALLOC);

#define CPURNG_CR_U64_ATTR(_name, _expr)				\
static ssize_t _name##_show(struct kobject *kobj,			\
			    struct kobj_attribute *attr, char *buf)	\
{									\
	return sysfs_emit(buf, "%llu\n", (u64)(_expr));			\
}									\
static struct kobj_attribute _name##_attr = __ATTR_RO(_name)

CPURNG_CR_U64_ATTR(flushes, cpurng_cr_flushes());
CPURNG_CR_U64_ATTR(flushed_bytes, cpurng_cr_flushed_bytes());
CPURNG_CR_U64_ATTR(extracted_bytes, cpurng_cr_extracted_bytes());
CPURNG_CR_U64_ATTR(flush_ms, cpurng_cr_flush_ms);
CPURNG_CR_U64_ATTR(windows, cpurng_cr_windows());
CPURNG_CR_U64_ATTR(budget, cpurng_cr_budget);
CPURNG_CR_U64_ATTR(budget_stops, cpurng_cr_budget_stops());
/* 1 while events are recorded in debugfs instead of mixed into the pools. */
CPURNG_CR_U64_ATTR(recording, cpurng_cr_capture_enabled());
CPURNG_CR_U64_ATTR(capture_dropped, cpurng_cr_capture_dropped());
/* The collector credits nothing; consumers decide (see the DRBG). */
CPURNG_CR_U64_ATTR(entropy_credit, 0);

static ssize_t cost_cycles_show(struct kobject *kobj,
				struct kobj_attribute *attr, char *buf)
{
	struct cpurng_cr_totals t;
	u64 tenths;

	cpurng_cr_sum(&t);
	tenths = cpurng_cr_cost_tenths(&t);
	return sysfs_emit(buf, "%llu.%llu\n", tenths / 10, tenths % 10);
}

static struct kobj_attribute cost_cycles_attr = __ATTR_RO(cost_cycles);

static ssize_t cost_samples_show(struct kobject *kobj,
				 struct kobj_attribute *attr, char *buf)
{
	struct cpurng_cr_totals t;

	cpurng_cr_sum(&t);
	return sysfs_emit(buf, "%llu\n", t.cost_samples);
}

static struct kobj_attribute cost_samples_attr = __ATTR_RO(cost_samples);

static ssize_t per_cpu_show(struct kobject *kobj, struct kobj_attribute *attr,
			    char *buf)
{
	ssize_t len;
	int cpu;

	len = sysfs_emit(buf, "cpu sched_switch kmalloc kmem_cache_alloc cost_cycles\n");
	for_each_possible_cpu(cpu) {
		struct cpurng_cr_totals t = { };
		u64 tenths;

		cpurng_cr_totals(cpu, &t);
		tenths = cpurng_cr_cost_tenths(&t);
		len += sysfs_emit_at(buf, len, "%d %llu %llu %llu %llu.%llu\n",
				     cpu, t.events[CPURNG_CR_SCHED_SWITCH],
				     t.events[CPURNG_CR_KMALLOC],
				     t.events[CPURNG_CR_KMEM_CACHE_ALLOC],
				     tenths / 10, tenths % 10);
	}
	return len;
}

static struct kobj_attribute per_cpu_attr = __ATTR_RO(per_cpu);

static ssize_t probes_show(struct kobject *kobj, struct kobj_attribute *attr,
			   char *buf)
{
	ssize_t len = 0;
	unsigned int p;

	for (p = 0; p < CPURNG_CR_PROBES; p++)
		if (cpurng_cr_probe_attached(p))
			len += sysfs_emit_at(buf, len, "%s%s", len ? " " : "",
					     cpurng_cr_probe_name(p));
	len += sysfs_emit_at(buf, len, "\n");
	return len;
}

static struct kobj_attribute probes_attr = __ATTR_RO(probes);

static ssize_t phase_show(struct kobject *kobj, struct kobj_attribute *attr,
			  char *buf)
{
	if (cpurng_cr_in_boot_phase() || cpurng_cr_window_ms >= cpurng_cr_flush_ms)
		return sysfs_emit(buf, "full\n");
	return sysfs_emit(buf, "windowed %u/%u ms\n", cpurng_cr_window_ms,
			  cpurng_cr_flush_ms);
}

static struct kobj_attribute phase_attr = __ATTR_RO(phase);

static ssize_t timer_show(struct kobject *kobj, struct kobj_attribute *attr,
			  char *buf)
{
	return sysfs_emit(buf, "%s\n", cpurng_cr_test_coarse_timer() ?
			  "none (test: jiffies only)" : "random_get_entropy");
}

static struct kobj_attribute timer_attr = __ATTR_RO(timer);

/* VM forks and resumes, and the instances whose key moved for them. */
CPURNG_FORK_ATTR(vm_forks, &cpurng_cr_forks.vm_forks);
CPURNG_FORK_ATTR(resumes, &cpurng_cr_forks.resumes);
CPURNG_FORK_ATTR(fork_reseeds, &cpurng_cr_forks.reseeds);

static struct attribute *cpurng_cr_attrs[] = {
	&events_sched_switch_attr.attr,
	&events_kmalloc_attr.attr,
	&events_kmem_cache_alloc_attr.attr,
	&flushes_attr.attr,
	&flushed_bytes_attr.attr,
	&extracted_bytes_attr.attr,
	&flush_ms_attr.attr,
	&entropy_credit_attr.attr,
	&cost_cycles_attr.attr,
	&cost_samples_attr.attr,
	&per_cpu_attr.attr,
	&probes_attr.attr,
	&phase_attr.attr,
	&windows_attr.attr,
	&budget_attr.attr,
	&budget_stops_attr.attr,
	&recording_attr.attr,
	&capture_dropped_attr.attr,
	&timer_attr.attr,
	&vm_forks_attr.attr,
	&resumes_attr.attr,
	&fork_reseeds_attr.attr,
	NULL,
};

static const struct attribute_group cpurng_cr_group = {
	.attrs = cpurng_cr_attrs,
};

int cpurng_cr_status_init(void)
{
	cpurng_cr_kobj = cpurng_status_create("cpurng_collector",
					      &cpurng_cr_group);
	return cpurng_cr_kobj ? 0 : -ENOMEM;
}

void cpurng_cr_status_exit(void)
{
	cpurng_status_remove(cpurng_cr_kobj, &cpurng_cr_group);
	cpurng_cr_kobj = NULL;
}
