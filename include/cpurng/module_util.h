/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers every cpurng module uses: parameter bounds and the sysfs status
 * directory.  Static inline, because the modules can all be built into one
 * kernel, where a shared object would be linked twice.
 */
#ifndef CPURNG_MODULE_UTIL_H
#define CPURNG_MODULE_UTIL_H

#include <linux/bits.h>
#include <linux/kobject.h>
#include <linux/printk.h>
#include <linux/sysfs.h>

/*
 * Longest seed (or personalization string, or additional input) any cpurng
 * RNG accepts: far above real use, and a bound a caller can hit on purpose
 * to see the error.
 */
#define CPURNG_MAX_SEED_INPUT	BIT(16)

/**
 * cpurng_param_check() - refuse a module parameter outside its bounds
 * @name: parameter name
 * @value: its value
 * @min: smallest allowed value
 * @max: largest allowed value
 *
 * The message carries the caller's pr_fmt prefix (the module name): the
 * caller defines pr_fmt before including this header.
 *
 * Return: 0, or -EINVAL after logging which parameter is out of range.
 */
static inline int cpurng_param_check(const char *name, unsigned int value,
				     unsigned int min, unsigned int max)
{
	if (value >= min && value <= max)
		return 0;
	pr_err("%s=%u is out of range [%u, %u]\n", name, value, min, max);
	return -EINVAL;
}

/**
 * cpurng_status_create() - create /sys/kernel/<name>/ with its attributes
 * @name: directory name
 * @group: the attributes
 *
 * The directory hangs off kernel_kobj, so it exists the same way for a
 * module and for code built into the kernel.
 *
 * Return: the directory's kobject, or NULL when it could not be created.
 */
static inline struct kobject *
cpurng_status_create(const char *name, const struct attribute_group *group)
{
	struct kobject *kobj = kobject_create_and_add(name, kernel_kobj);

	if (kobj && sysfs_create_group(kobj, group)) {
		kobject_put(kobj);
		kobj = NULL;
	}
	return kobj;
}

/**
 * cpurng_status_remove() - remove a directory made by cpurng_status_create()
 * @kobj: its kobject, or NULL
 * @group: the attributes it was created with
 */
static inline void cpurng_status_remove(struct kobject *kobj,
					const struct attribute_group *group)
{
	if (!kobj)
		return;
	sysfs_remove_group(kobj, group);
	kobject_put(kobj);
}

#endif /* CPURNG_MODULE_UTIL_H */
