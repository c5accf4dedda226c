// SPDX-License-Identifier: GPL-2.0
/*
 * CPU Jitter RNG status: module-wide counters, readable one value per file
 * under /sys/kernel/cpurng_jitter/.  The kobject sits under kernel_kobj, so
 * the same paths exist when the module is built into the kernel.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/kernel.h>
#include <linux/kobject.h>
#include <linux/sysfs.h>

#include "../include/cpurng/jitter.h"
#include "../include/cpurng/module_util.h"

static struct {
	atomic_t instances;
	atomic_t failed_instances;
	atomic64_t samples;
	atomic64_t stuck;
	atomic64_t blocks;
	atomic64_t bytes;
	atomic64_t intermittent[CPURNG_TEST_COUNT];
	atomic64_t permanent[CPURNG_TEST_COUNT];
	atomic64_t startup_runs;
	atomic64_t startup_failures;
	/* Result of the most recent start-up test, module-wide or instance. */
	atomic_t startup_last;
} cpurng_jent_stats;

static struct kobject *cpurng_jent_kobj;

void cpurng_jent_stats_instance(int delta)
{
	atomic_add(delta, &cpurng_jent_stats.instances);
}

void cpurng_jent_stats_failed_instance(int delta)
{
	atomic_add(delta, &cpurng_jent_stats.failed_instances);
}

void cpurng_jent_stats_samples(u64 samples, u64 stuck)
{
	atomic64_add(samples, &cpurng_jent_stats.samples);
	atomic64_add(stuck, &cpurng_jent_stats.stuck);
}

void cpurng_jent_stats_failure(enum cpurng_health_test test, bool permanent)
{
	if (test >= CPURNG_TEST_COUNT)
		return;
	atomic64_inc(permanent ? &cpurng_jent_stats.permanent[test] :
				 &cpurng_jent_stats.intermittent[test]);
}

void cpurng_jent_stats_output(unsigned int blocks, unsigned int bytes)
{
	atomic64_add(blocks, &cpurng_jent_stats.blocks);
	atomic64_add(bytes, &cpurng_jent_stats.bytes);
}

void cpurng_jent_stats_startup(enum cpurng_startup_error err)
{
	atomic64_inc(&cpurng_jent_stats.startup_runs);
	if (err != CPURNG_STARTUP_OK)
		atomic64_inc(&cpurng_jent_stats.startup_failures);
	atomic_set(&cpurng_jent_stats.startup_last, err);
}

/* One read-only attribute per atomic64 counter. */
#define CPURNG_JENT_COUNTER(_name, _field)				\
static ssize_t _name##_show(struct kobject *kobj,			\
			    struct kobj_attribute *attr, char *buf)	\
{									\
	return sysfs_emit(buf, "%lld\n",				\
			  atomic64_read(&cpurng_jent_stats._field));	\
}									\
static struct kobj_attribute _name##_attr = __ATTR_RO(_name)

CPURNG_JENT_COUNTER(samples, samples);
CPURNG_JENT_COUNTER(stuck_samples, stuck);
CPURNG_JENT_COUNTER(blocks, blocks);
CPURNG_JENT_COUNTER(bytes, bytes);
CPURNG_JENT_COUNTER(rct_intermittent, intermittent[CPURNG_TEST_RCT]);
CPURNG_JENT_COUNTER(rct_permanent, permanent[CPURNG_TEST_RCT]);
CPURNG_JENT_COUNTER(apt_intermittent, intermittent[CPURNG_TEST_APT]);
CPURNG_JENT_COUNTER(apt_permanent, permanent[CPURNG_TEST_APT]);
CPURNG_JENT_COUNTER(stuck_intermittent, intermittent[CPURNG_TEST_STUCK]);
CPURNG_JENT_COUNTER(stuck_permanent, permanent[CPURNG_TEST_STUCK]);
CPURNG_JENT_COUNTER(startup_runs, startup_runs);
CPURNG_JENT_COUNTER(startup_failures, startup_failures);

static ssize_t instances_show(struct kobject *kobj,
			      struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%d\n",
			  atomic_read(&cpurng_jent_stats.instances));
}

static struct kobj_attribute instances_attr = __ATTR_RO(instances);

static ssize_t failed_instances_show(struct kobject *kobj,
				     struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%d\n",
			  atomic_read(&cpurng_jent_stats.failed_instances));
}

static struct kobj_attribute failed_instances_attr =
	__ATTR_RO(failed_instances);

static ssize_t startup_show(struct kobject *kobj, struct kobj_attribute *attr,
			    char *buf)
{
	enum cpurng_startup_error err =
		atomic_read(&cpurng_jent_stats.startup_last);

	return sysfs_emit(buf, "%s%s\n", err ? "failed: " : "",
			  cpurng_startup_reason(err));
}

static struct kobj_attribute startup_attr = __ATTR_RO(startup);

static ssize_t rct_cutoffs_show(struct kobject *kobj,
				struct kobj_attribute *attr, char *buf)
{
	u32 osr = cpurng_jent_config.osr;

	return sysfs_emit(buf, "%u %u\n", cpurng_rct_cutoff(osr, 30),
			  cpurng_rct_cutoff(osr, 60));
}

static struct kobj_attribute rct_cutoffs_attr = __ATTR_RO(rct_cutoffs);

static ssize_t apt_cutoffs_show(struct kobject *kobj,
				struct kobj_attribute *attr, char *buf)
{
	u32 osr = cpurng_jent_config.osr;

	return sysfs_emit(buf, "%u %u\n", cpurng_apt_cutoff(osr, false),
			  cpurng_apt_cutoff(osr, true));
}

static struct kobj_attribute apt_cutoffs_attr = __ATTR_RO(apt_cutoffs);

static ssize_t timer_show(struct kobject *kobj, struct kobj_attribute *attr,
			  char *buf)
{
	return sysfs_emit(buf, "%s\n", cpurng_jent_timer_name());
}

static struct kobj_attribute timer_attr = __ATTR_RO(timer);

static ssize_t fips_show(struct kobject *kobj, struct kobj_attribute *attr,
			 char *buf)
{
	return sysfs_emit(buf, "%d\n", cpurng_jent_fips());
}

static struct kobj_attribute fips_attr = __ATTR_RO(fips);

/* 1 while raw samples are being recorded (a capture file is open). */
static ssize_t recording_show(struct kobject *kobj,
			      struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%d\n", cpurng_jent_capture_recording());
}

static struct kobj_attribute recording_attr = __ATTR_RO(recording);

/*
 * The in-kernel min-entropy estimate (jitter_assess.c): the latest result
 * in millibits per sample, the estimator that gave it, and what it means
 * for osr.  Writing 1 to assess takes a new estimate.
 */
#define CPURNG_JENT_ASSESS_ATTR(_name, _fmt, _expr)			\
static ssize_t _name##_show(struct kobject *kobj,			\
			    struct kobj_attribute *attr, char *buf)	\
{									\
	struct cpurng_jent_assessment a;				\
									\
	cpurng_jent_assessment_get(&a);					\
	return sysfs_emit(buf, _fmt "\n", _expr);			\
}									\
static struct kobj_attribute _name##_attr = __ATTR_RO(_name)

CPURNG_JENT_ASSESS_ATTR(estimate_mbits, "%u", a.runs ? a.est.min_mbits : 0);
CPURNG_JENT_ASSESS_ATTR(estimate_by, "%s",
			a.runs ? cpurng_est_name(a.est.by) : "none");
CPURNG_JENT_ASSESS_ATTR(estimate_samples, "%u", a.runs ? a.est.samples : 0);
CPURNG_JENT_ASSESS_ATTR(estimate_runs, "%u", a.runs);
CPURNG_JENT_ASSESS_ATTR(estimate_low, "%u", a.low);
CPURNG_JENT_ASSESS_ATTR(osr_needed, "%u", a.runs ? a.osr_needed : 0);

static ssize_t osr_show(struct kobject *kobj, struct kobj_attribute *attr,
			char *buf)
{
	return sysfs_emit(buf, "%u%s\n", cpurng_jent_config.osr,
			  cpurng_jent_osr_auto ? " auto" : "");
}

static struct kobj_attribute osr_attr = __ATTR_RO(osr);

static ssize_t assess_store(struct kobject *kobj, struct kobj_attribute *attr,
			    const char *buf, size_t len)
{
	bool go;
	int ret;

	if (kstrtobool(buf, &go) || !go)
		return -EINVAL;
	ret = cpurng_jent_assess_now(NULL);
	return ret ? ret : len;
}

static struct kobj_attribute assess_attr = __ATTR_WO(assess);

/* VM forks and resumes, and the instances that took fresh input. */
CPURNG_FORK_ATTR(vm_forks, &cpurng_jent_forks.vm_forks);
CPURNG_FORK_ATTR(resumes, &cpurng_jent_forks.resumes);
CPURNG_FORK_ATTR(fork_reseeds, &cpurng_jent_forks.reseeds);

static struct attribute *cpurng_jent_attrs[] = {
	&startup_attr.attr,
	&startup_runs_attr.attr,
	&startup_failures_attr.attr,
	&instances_attr.attr,
	&failed_instances_attr.attr,
	&samples_attr.attr,
	&stuck_samples_attr.attr,
	&blocks_attr.attr,
	&bytes_attr.attr,
	&rct_intermittent_attr.attr,
	&rct_permanent_attr.attr,
	&apt_intermittent_attr.attr,
	&apt_permanent_attr.attr,
	&stuck_intermittent_attr.attr,
	&stuck_permanent_attr.attr,
	&rct_cutoffs_attr.attr,
	&apt_cutoffs_attr.attr,
	&timer_attr.attr,
	&fips_attr.attr,
	&recording_attr.attr,
	&vm_forks_attr.attr,
	&resumes_attr.attr,
	&fork_reseeds_attr.attr,
	&osr_attr.attr,
	&estimate_mbits_attr.attr,
	&estimate_by_attr.attr,
	&estimate_samples_attr.attr,
	&estimate_runs_attr.attr,
	&estimate_low_attr.attr,
	&osr_needed_attr.attr,
	&assess_attr.attr,
	NULL,
};

static const struct attribute_group cpurng_jent_group = {
	.attrs = cpurng_jent_attrs,
};

int cpurng_jent_status_init(void)
{
	cpurng_jent_kobj = cpurng_status_create("cpurng_jitter",
						&cpurng_jent_group);
	return cpurng_jent_kobj ? 0 : -ENOMEM;
}

void cpurng_jent_status_exit(void)
{
	cpurng_status_remove(cpurng_jent_kobj, &cpurng_jent_group);
	cpurng_jent_kobj = NULL;
}
