// SPDX-License-Identifier: GPL-2.0
/*
 * DRBG status, under /sys/kernel/cpurng_drbg/:
 *
 *   sources        the selection, name:credit,...
 *   source_state   one line per source: credit in force, state, bytes,
 *                  failures
 *   instances      one line per instance (tfm): id, driver, seed level,
 *                  bits credited at the last (re)seed, (re)seeds, reseed
 *                  counter, seconds since the last (re)seed, reseeds
 *                  forced by VM forks and resumes
 *   seeds          instantiations and reseeds of all instances so far
 *   last_seed      the latest one: seed level, bits credited, driver
 *   selftest       result of the last self-test run
 *   init_us        microseconds the module load spent in the self-tests
 *                  and in registering the algorithms, and when after the
 *                  start of its init the source modules began loading
 *   source_us      one line per source: microseconds its last read took
 *                  and its handle's background allocation (the source
 *                  module's load) took
 *   vm_forks, resumes, fork_reseeds
 *                  VM forks and resumes seen, and the reseeds they forced
 *                  (include/cpurng/fork_watch.h)
 *   fips           1 when FIPS semantics apply
 *   require_full, reseed_requests, reseed_seconds: the policy in force
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/jiffies.h>
#include <linux/kobject.h>
#include <linux/math64.h>
#include <linux/sysfs.h>

#include "../include/cpurng/drbg.h"
#include "../include/cpurng/module_util.h"

static struct kobject *cpurng_drbg_kobj;

static ssize_t sources_show(struct kobject *kobj, struct kobj_attribute *attr,
			    char *buf)
{
	int len = cpurng_drbg_sources_show(buf, PAGE_SIZE, false);

	return len + sysfs_emit_at(buf, len, "\n");
}

static struct kobj_attribute sources_attr = __ATTR_RO(sources);

static ssize_t source_state_show(struct kobject *kobj,
				 struct kobj_attribute *attr, char *buf)
{
	return cpurng_drbg_sources_show(buf, PAGE_SIZE, true);
}

static struct kobj_attribute source_state_attr = __ATTR_RO(source_state);

struct cpurng_drbg_show {
	char *buf;
	ssize_t len;
};

static void cpurng_drbg_show_one(struct cpurng_drbg *d, void *ctx)
{
	struct cpurng_drbg_show *s = ctx;

	/* Racy snapshot without the instance lock: status, not a contract. */
	s->len += sysfs_emit_at(s->buf, s->len,
				"%u drbg_%s_%s-cpurng %s %u %llu %llu %lu %llu\n",
				d->id, d->pr ? "pr" : "nopr", d->mech->name,
				d->instantiated ?
				cpurng_drbg_level_name(d->level) : "uninstantiated",
				d->last_bits, d->reseeds, d->reseed_ctr,
				d->instantiated ?
				(jiffies - d->seeded_at) / HZ : 0,
				d->fork_reseeds);
}

static ssize_t instances_show(struct kobject *kobj,
			      struct kobj_attribute *attr, char *buf)
{
	struct cpurng_drbg_show s = { .buf = buf };

	s.len = sysfs_emit(buf, "%s\n",
			   "id driver level bits_last_seed reseeds reseed_counter seconds_since_seed fork_reseeds");
	cpurng_drbg_for_each(cpurng_drbg_show_one, &s);
	return s.len;
}

static struct kobj_attribute instances_attr = __ATTR_RO(instances);

static ssize_t last_seed_show(struct kobject *kobj,
			      struct kobj_attribute *attr, char *buf)
{
	return cpurng_drbg_last_seed(buf, PAGE_SIZE);
}

static struct kobj_attribute last_seed_attr = __ATTR_RO(last_seed);

static ssize_t seeds_show(struct kobject *kobj, struct kobj_attribute *attr,
			  char *buf)
{
	return sysfs_emit(buf, "%llu\n", cpurng_drbg_seeds());
}

static struct kobj_attribute seeds_attr = __ATTR_RO(seeds);

static ssize_t selftest_show(struct kobject *kobj, struct kobj_attribute *attr,
			     char *buf)
{
	return sysfs_emit(buf, "%s\n", cpurng_drbg_selftest_result());
}

static struct kobj_attribute selftest_attr = __ATTR_RO(selftest);

/*
 * Module load: microseconds of the self-tests and of the registration, and
 * when (after the start of init) the source modules began loading.
 */
static ssize_t init_us_show(struct kobject *kobj, struct kobj_attribute *attr,
			    char *buf)
{
	return sysfs_emit(buf, "selftest %llu register %llu sources_at %llu\n",
			  div_u64(cpurng_drbg_selftest_ns, NSEC_PER_USEC),
			  div_u64(cpurng_drbg_register_ns, NSEC_PER_USEC),
			  div_u64(cpurng_drbg_sources_at_ns, NSEC_PER_USEC));
}

static struct kobj_attribute init_us_attr = __ATTR_RO(init_us);

/* Per source: microseconds its last read took, first-use load included. */
static ssize_t source_us_show(struct kobject *kobj,
			      struct kobj_attribute *attr, char *buf)
{
	return cpurng_drbg_sources_timing(buf, PAGE_SIZE);
}

static struct kobj_attribute source_us_attr = __ATTR_RO(source_us);

#define CPURNG_DRBG_UINT_ATTR(_name, _expr)				\
static ssize_t _name##_show(struct kobject *kobj,			\
			    struct kobj_attribute *attr, char *buf)	\
{									\
	return sysfs_emit(buf, "%u\n", (unsigned int)(_expr));		\
}									\
static struct kobj_attribute _name##_attr = __ATTR_RO(_name)

CPURNG_FORK_ATTR(vm_forks, &cpurng_drbg_forks.vm_forks);
CPURNG_FORK_ATTR(resumes, &cpurng_drbg_forks.resumes);
CPURNG_FORK_ATTR(fork_reseeds, &cpurng_drbg_forks.reseeds);
CPURNG_DRBG_UINT_ATTR(fips, cpurng_drbg_fips());
CPURNG_DRBG_UINT_ATTR(require_full, cpurng_drbg_require_full);
CPURNG_DRBG_UINT_ATTR(reseed_requests, cpurng_drbg_reseed_requests);
CPURNG_DRBG_UINT_ATTR(reseed_seconds, cpurng_drbg_reseed_seconds);

static struct attribute *cpurng_drbg_attrs[] = {
	&sources_attr.attr,
	&source_state_attr.attr,
	&instances_attr.attr,
	&seeds_attr.attr,
	&last_seed_attr.attr,
	&selftest_attr.attr,
	&init_us_attr.attr,
	&source_us_attr.attr,
	&vm_forks_attr.attr,
	&resumes_attr.attr,
	&fork_reseeds_attr.attr,
	&fips_attr.attr,
	&require_full_attr.attr,
	&reseed_requests_attr.attr,
	&reseed_seconds_attr.attr,
	NULL,
};

static const struct attribute_group cpurng_drbg_group = {
	.attrs = cpurng_drbg_attrs,
};

int cpurng_drbg_status_init(void)
{
	cpurng_drbg_kobj = cpurng_status_create("cpurng_drbg",
						&cpurng_drbg_group);
	return cpurng_drbg_kobj ? 0 : -ENOMEM;
}

void cpurng_drbg_status_exit(void)
{
	cpurng_status_remove(cpurng_drbg_kobj, &cpurng_drbg_group);
	cpurng_drbg_kobj = NULL;
}
