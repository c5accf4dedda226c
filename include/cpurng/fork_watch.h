/* SPDX-License-Identifier: GPL-2.0 */
/*
 * VM forks and resumes: the moments when the memory an RNG state lives in
 * may be running somewhere else too.
 *
 * A virtual machine restored twice from one snapshot, or cloned from a
 * running image, resumes twice with the same memory, and so with the same
 * DRBG states, pools and keys; a hibernation image can be resumed more
 * than once.  The kernel learns of the first through the VM generation ID
 * (QEMU's and Hyper-V's vmgenid device; random.c calls its vmfork notifier
 * chain after reseeding itself, since Linux 5.18 with CONFIG_VMGENID) and
 * of the second through the PM notifier chain.
 *
 * Each cpurng module keeps one watch.  Both notifiers bump its generation;
 * every RNG instance remembers the generation of its last (re)seed and
 * compares it on each request, a plain atomic read with no lock, and takes
 * fresh input before it produces anything once the two differ.  The
 * notifiers run in process context (random.c's chain is a blocking one),
 * but they only count: the reseeds happen in the requests that follow.
 *
 * What this cannot cover: output requested between the restore and the
 * notifier (the guest runs before the hypervisor's notification has been
 * handled), and restores that keep the generation ID (no notification at
 * all).  Documentation/vm-forks.rst measures and discusses both.
 *
 * Static inline, for the reason given in module_util.h.
 */
#ifndef CPURNG_FORK_WATCH_H
#define CPURNG_FORK_WATCH_H

#include <linux/atomic.h>
#include <linux/kobject.h>
#include <linux/notifier.h>
#include <linux/printk.h>
#include <linux/random.h>
#include <linux/suspend.h>
#include <linux/sysfs.h>

/*
 * Fresh kernel RNG output an instance mixes in after an event: uncredited,
 * it only separates the clones (random.c has reseeded from the new VM
 * generation ID by the time it calls the chain).  256 bits.
 */
#define CPURNG_FORK_FRESH_BYTES	32

/**
 * struct cpurng_fork_watch - VM forks and resumes seen by one module
 * @what: what follows an event, for the log line
 * @gen: generation, bumped on every event
 * @vm_forks: VM generation ID changes (random.c's vmfork chain)
 * @resumes: resumes from suspend or hibernation (PM notifier)
 * @reseeds: instances that took fresh input because of an event
 * @vmfork_nb: our entry in random.c's vmfork chain
 * @pm_nb: our entry in the PM notifier chain
 */
struct cpurng_fork_watch {
	const char *what;
	atomic_t gen;
	atomic64_t vm_forks;
	atomic64_t resumes;
	atomic64_t reseeds;
	struct notifier_block vmfork_nb;
	struct notifier_block pm_nb;
};

/**
 * cpurng_fork_gen() - the current generation of a watch
 * @w: the watch
 *
 * An instance whose remembered generation differs must not produce output
 * before it has taken fresh input.
 *
 * Return: the generation.
 */
static inline unsigned int cpurng_fork_gen(struct cpurng_fork_watch *w)
{
	return atomic_read(&w->gen);
}

/**
 * cpurng_fork_event() - record a VM fork or a resume
 * @w: the watch
 * @resume: a resume from suspend or hibernation, not a VM fork
 *
 * Called by the notifiers, and by the modules' test-only switches.
 */
static inline void cpurng_fork_event(struct cpurng_fork_watch *w, bool resume)
{
	unsigned int gen;

	atomic64_inc(resume ? &w->resumes : &w->vm_forks);
	/* Fully ordered: an instance that sees it sees the counters too. */
	gen = atomic_inc_return(&w->gen);
	pr_notice("%s seen (generation %u): %s\n",
		  resume ? "resume" : "VM fork", gen, w->what);
}

/**
 * cpurng_fork_reseeded() - count an instance that took fresh input
 * @w: the watch
 */
static inline void cpurng_fork_reseeded(struct cpurng_fork_watch *w)
{
	atomic64_inc(&w->reseeds);
}

static inline int cpurng_fork_vmfork_notify(struct notifier_block *nb,
					    unsigned long action, void *data)
{
	cpurng_fork_event(container_of(nb, struct cpurng_fork_watch,
				       vmfork_nb), false);
	return NOTIFY_DONE;
}

static inline int cpurng_fork_pm_notify(struct notifier_block *nb,
					unsigned long action, void *data)
{
	/*
	 * After suspend and after hibernation (whether the image was just
	 * written or has been resumed, possibly not for the first time).
	 * PM_POST_RESTORE is a failed restore in the booting kernel, whose
	 * memory was never anywhere else.
	 */
	if (action == PM_POST_SUSPEND || action == PM_POST_HIBERNATION)
		cpurng_fork_event(container_of(nb, struct cpurng_fork_watch,
					       pm_nb), true);
	return NOTIFY_DONE;
}

/**
 * cpurng_fork_watch_start() - start counting events
 * @w: the watch, zeroed
 * @what: what follows an event, for the log line
 *
 * Without CONFIG_VMGENID or CONFIG_PM_SLEEP the corresponding chain does
 * not exist and its registration does nothing.
 *
 * Return: 0, or the error of a registration.
 */
static inline int cpurng_fork_watch_start(struct cpurng_fork_watch *w,
					  const char *what)
{
	int ret;

	w->what = what;
	w->vmfork_nb.notifier_call = cpurng_fork_vmfork_notify;
	w->pm_nb.notifier_call = cpurng_fork_pm_notify;
	ret = register_random_vmfork_notifier(&w->vmfork_nb);
	if (ret)
		return ret;
	ret = register_pm_notifier(&w->pm_nb);
	if (ret)
		unregister_random_vmfork_notifier(&w->vmfork_nb);
	return ret;
}

/**
 * cpurng_fork_watch_stop() - stop counting events
 * @w: the watch
 */
static inline void cpurng_fork_watch_stop(struct cpurng_fork_watch *w)
{
	unregister_pm_notifier(&w->pm_nb);
	unregister_random_vmfork_notifier(&w->vmfork_nb);
}

/*
 * CPURNG_FORK_ATTR(name, counter) - a status file @name showing one of a
 * watch's counters, e.g. CPURNG_FORK_ATTR(vm_forks, &w.vm_forks); the
 * status group lists &<name>_attr.attr.  Every module shows vm_forks,
 * resumes and fork_reseeds.
 */
#define CPURNG_FORK_ATTR(_name, _counter)				\
static ssize_t _name##_show(struct kobject *kobj,			\
			    struct kobj_attribute *attr, char *buf)	\
{									\
	return sysfs_emit(buf, "%lld\n",				\
			  (long long)atomic64_read(_counter));		\
}									\
static struct kobj_attribute _name##_attr = __ATTR_RO(_name)

#endif /* CPURNG_FORK_WATCH_H */
