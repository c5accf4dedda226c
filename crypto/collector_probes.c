// SPDX-License-Identifier: GPL-2.0
/*
 * CPU-randomness collector: per-CPU pools and the tracepoint probes.
 *
 * Jörn Engel's 2014 patch called its mixing function from the scheduler and
 * the slab allocator.  We attach to the same places through their
 * tracepoints (sched_switch, kmalloc, kmem_cache_alloc), so a stock kernel
 * needs no patch.  Each event mixes the jiffies, the cycle counter, a call
 * site, a per-call value and a stack address into a pool of the current
 * CPU.
 *
 * Engel's patch also read an uninitialised stack array.  We do not: with
 * CONFIG_INIT_STACK_ALL_ZERO (Debian's default) it reads zeros, KMSAN
 * reports it as a bug, and compilers may treat the read as undefined
 * behaviour and drop it.  The stack *address* we mix instead varies with
 * call depth and, with RANDOMIZE_KSTACK_OFFSET, with every system call.
 *
 * Probes run with preemption disabled.  Each CPU has one pool per context
 * level (task, softirq, hardirq, NMI): an event can only be interrupted by
 * one of a higher level, which writes a different pool, so the probes need
 * no lock, no atomic and no interrupt masking.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/jiffies.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/timex.h>
#include <asm/asm.h>
#include <linux/tracepoint.h>
#include <trace/events/kmem.h>
#include <trace/events/sched.h>

#include "../include/cpurng/collector.h"

/*
 * One event in 256 per pool and probe also measures its own cost: the
 * cycle counter is read anyway as an input, so a sample costs one more
 * read.
 */
#define CPURNG_CR_COST_SAMPLE_MASK	255

static struct cpurng_cr_cpu __percpu *cpurng_cr_pools;

static const char * const cpurng_cr_tp_names[CPURNG_CR_PROBES] = {
	[CPURNG_CR_SCHED_SWITCH] = "sched_switch",
	[CPURNG_CR_KMALLOC] = "kmalloc",
	[CPURNG_CR_KMEM_CACHE_ALLOC] = "kmem_cache_alloc",
};

static struct tracepoint *cpurng_cr_tps[CPURNG_CR_PROBES];
static bool cpurng_cr_attached[CPURNG_CR_PROBES];

int cpurng_cr_pools_alloc(void)
{
	cpurng_cr_pools = alloc_percpu(struct cpurng_cr_cpu);
	return cpurng_cr_pools ? 0 : -ENOMEM;
}

void cpurng_cr_pools_free(void)
{
	int cpu;

	if (!cpurng_cr_pools)
		return;
	for_each_possible_cpu(cpu)
		memzero_explicit(per_cpu_ptr(cpurng_cr_pools, cpu),
				 sizeof(struct cpurng_cr_cpu));
	free_percpu(cpurng_cr_pools);
	cpurng_cr_pools = NULL;
}

/*
 * Every possible CPU's pools, online or not: taking a CPU offline loses
 * nothing, and a CPU that comes online finds its pools where it left them.
 */
unsigned int cpurng_cr_npools(void)
{
	return nr_cpu_ids * CPURNG_CR_CONTEXTS;
}

const struct cpurng_cr_pool *cpurng_cr_pool_at(void *ctx, unsigned int i)
{
	struct cpurng_cr_cpu *c = per_cpu_ptr(cpurng_cr_pools,
					      i / CPURNG_CR_CONTEXTS);

	return &c->ctx[i % CPURNG_CR_CONTEXTS];
}

void cpurng_cr_totals(int cpu, struct cpurng_cr_totals *t)
{
	struct cpurng_cr_cpu *c = per_cpu_ptr(cpurng_cr_pools, cpu);
	unsigned int i, p;

	for (i = 0; i < CPURNG_CR_CONTEXTS; i++) {
		const struct cpurng_cr_pool *pool = &c->ctx[i];

		for (p = 0; p < CPURNG_CR_PROBES; p++)
			t->events[p] += READ_ONCE(pool->events[p]);
		t->cost_cycles += READ_ONCE(pool->cost_cycles);
		t->cost_samples += READ_ONCE(pool->cost_samples);
	}
}

static __always_inline void cpurng_cr_event(enum cpurng_cr_probe probe,
					    unsigned long site,
					    unsigned long value)
{
	struct cpurng_cr_pool *pool;
	u64 start = random_get_entropy();
	/* Without a fine timer, events still carry sites and pointers. */
	u64 cycles = cpurng_cr_test_coarse_timer() ? 0 : start;

	/* Recorded events are diverted: they never reach a pool. */
	if (static_branch_unlikely(&cpurng_cr_capture_key)) {
		cpurng_cr_capture_record(probe, jiffies, cycles, site, value,
					 current_stack_pointer);
		return;
	}
	pool = &this_cpu_ptr(cpurng_cr_pools)->ctx[interrupt_context_level()];
	cpurng_cr_mix(pool, jiffies, cycles, site, value,
		      current_stack_pointer);
	if (unlikely(!(++pool->events[probe] & CPURNG_CR_COST_SAMPLE_MASK))) {
		pool->cost_cycles += random_get_entropy() - start;
		pool->cost_samples++;
	}
	/*
	 * The period's budget, for allocations only (see collector_flush.c);
	 * the probe is a constant here, so context switches skip it.
	 */
	if (probe == CPURNG_CR_SCHED_SWITCH)
		return;
	if (unlikely(cpurng_cr_budget_take(pool, READ_ONCE(cpurng_cr_period_seq),
					   &cpurng_cr_budget)))
		cpurng_cr_budget_spent(pool->budget_period);
}

static void cpurng_cr_probe_sched_switch(void *data, bool preempt,
					 struct task_struct *prev,
					 struct task_struct *next,
					 unsigned int prev_state)
{
	cpurng_cr_event(CPURNG_CR_SCHED_SWITCH, _RET_IP_,
			(unsigned long)prev ^
			cpurng_cr_rol64((unsigned long)next, 32) ^
			((u64)prev_state << 1) ^ preempt);
}

static void cpurng_cr_probe_kmalloc(void *data, unsigned long call_site,
				    const void *ptr, size_t bytes_req,
				    size_t bytes_alloc, gfp_t gfp_flags,
				    int node)
{
	cpurng_cr_event(CPURNG_CR_KMALLOC, call_site,
			(unsigned long)ptr ^ cpurng_cr_rol64(bytes_req, 48));
}

static void cpurng_cr_probe_kmem_cache_alloc(void *data,
					     unsigned long call_site,
					     const void *ptr,
					     struct kmem_cache *s,
					     gfp_t gfp_flags, int node)
{
	cpurng_cr_event(CPURNG_CR_KMEM_CACHE_ALLOC, call_site,
			(unsigned long)ptr ^
			cpurng_cr_rol64((unsigned long)s, 32));
}

static void * const cpurng_cr_probe_fns[CPURNG_CR_PROBES] = {
	[CPURNG_CR_SCHED_SWITCH] = cpurng_cr_probe_sched_switch,
	[CPURNG_CR_KMALLOC] = cpurng_cr_probe_kmalloc,
	[CPURNG_CR_KMEM_CACHE_ALLOC] = cpurng_cr_probe_kmem_cache_alloc,
};

/*
 * Never called: it only makes the compiler check each probe against the
 * prototype the kernel's headers give its tracepoint (the register_trace_*
 * helpers are typed; tracepoint_probe_register() takes a void pointer).
 */
static void __maybe_unused cpurng_cr_probe_types(void)
{
	register_trace_sched_switch(cpurng_cr_probe_sched_switch, NULL);
	register_trace_kmalloc(cpurng_cr_probe_kmalloc, NULL);
	register_trace_kmem_cache_alloc(cpurng_cr_probe_kmem_cache_alloc,
					NULL);
}

static void cpurng_cr_find_tp(struct tracepoint *tp, void *priv)
{
	unsigned int p;

	for (p = 0; p < CPURNG_CR_PROBES; p++)
		if (!strcmp(tp->name, cpurng_cr_tp_names[p]))
			cpurng_cr_tps[p] = tp;
}

int cpurng_cr_probes_find(void)
{
	unsigned int p, found = 0;

	for_each_kernel_tracepoint(cpurng_cr_find_tp, NULL);
	for (p = 0; p < CPURNG_CR_PROBES; p++) {
		if (cpurng_cr_tps[p])
			found++;
		else
			pr_warn("tracepoint %s not found, not collecting from it\n",
				cpurng_cr_tp_names[p]);
	}
	if (!found) {
		pr_err("no tracepoint to collect from\n");
		return -ENOENT;
	}
	return 0;
}

/* Attach and detach run from init, exit and two work items. */
static DEFINE_MUTEX(cpurng_cr_attach_lock);

int cpurng_cr_probes_attach(void)
{
	unsigned int p, attached = 0;
	int ret;

	mutex_lock(&cpurng_cr_attach_lock);
	for (p = 0; p < CPURNG_CR_PROBES; p++) {
		if (!cpurng_cr_tps[p] || cpurng_cr_attached[p])
			goto next;
		ret = tracepoint_probe_register(cpurng_cr_tps[p],
						cpurng_cr_probe_fns[p], NULL);
		if (ret) {
			pr_warn_ratelimited("cannot attach to %s: %d\n",
					    cpurng_cr_tp_names[p], ret);
			continue;
		}
		cpurng_cr_attached[p] = true;
next:
		attached += cpurng_cr_attached[p];
	}
	mutex_unlock(&cpurng_cr_attach_lock);
	return attached ? 0 : -ENOENT;
}

/*
 * Detaching needs no wait: a probe still running elsewhere only writes
 * pools that stay allocated.  cpurng_cr_probes_shutdown() waits.
 */
void cpurng_cr_probes_detach(void)
{
	unsigned int p;

	mutex_lock(&cpurng_cr_attach_lock);
	for (p = 0; p < CPURNG_CR_PROBES; p++) {
		if (!cpurng_cr_attached[p])
			continue;
		tracepoint_probe_unregister(cpurng_cr_tps[p],
					    cpurng_cr_probe_fns[p], NULL);
		cpurng_cr_attached[p] = false;
	}
	mutex_unlock(&cpurng_cr_attach_lock);
}

/* Detach, then wait until no probe can still be running anywhere. */
void cpurng_cr_probes_shutdown(void)
{
	cpurng_cr_probes_detach();
	tracepoint_synchronize_unregister();
}

bool cpurng_cr_probe_attached(enum cpurng_cr_probe probe)
{
	return probe < CPURNG_CR_PROBES && cpurng_cr_attached[probe];
}

const char *cpurng_cr_probe_name(enum cpurng_cr_probe probe)
{
	return probe < CPURNG_CR_PROBES ? cpurng_cr_tp_names[probe] : "?";
}
