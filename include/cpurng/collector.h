/* SPDX-License-Identifier: GPL-2.0 */
/*
 * CPU-randomness collector (cpurng_collector.ko): interfaces between the
 * module's objects.
 *
 *   collector_core.c     per-event mix and extraction, kernel-agnostic
 *   collector_probes.c   per-CPU pools and the tracepoint probes
 *   collector_flush.c    the period: zero-credit feed into the input pool,
 *                        and the probes' attach windows after boot
 *   collector_kcapi.c    crypto_rng "cpu_randomness", module init/exit
 *   collector_status.c   sysfs counters
 *   collector_capture.c  raw event capture in debugfs (raw_capture=1 only)
 *   collector_test.c     test-only hooks (CONFIG_CRYPTO_CPURNG_TESTING)
 */
#ifndef CPURNG_COLLECTOR_H
#define CPURNG_COLLECTOR_H

#include <linux/cache.h>
#include <linux/jump_label.h>
#include <linux/types.h>

#include "collector_core.h"
#include "fork_watch.h"

#define CPURNG_CR_NAME		"cpu_randomness"
#define CPURNG_CR_DRIVER	"cpu_randomness-cpurng"

/**
 * struct cpurng_cr_cpu - the pools of one CPU, one per context level
 * @ctx: pools indexed by interrupt_context_level()
 */
struct cpurng_cr_cpu {
	struct cpurng_cr_pool ctx[CPURNG_CR_CONTEXTS];
} ____cacheline_aligned;

/* Pools and probes (collector_probes.c). */
int cpurng_cr_pools_alloc(void);
void cpurng_cr_pools_free(void);
unsigned int cpurng_cr_npools(void);
const struct cpurng_cr_pool *cpurng_cr_pool_at(void *ctx, unsigned int i);
int cpurng_cr_probes_find(void);
int cpurng_cr_probes_attach(void);
void cpurng_cr_probes_detach(void);
void cpurng_cr_probes_shutdown(void);
bool cpurng_cr_probe_attached(enum cpurng_cr_probe probe);
const char *cpurng_cr_probe_name(enum cpurng_cr_probe probe);

/**
 * struct cpurng_cr_totals - counters summed over pools
 * @events: events per probe
 * @cost_cycles: cycles spent in sampled events
 * @cost_samples: sampled events
 */
struct cpurng_cr_totals {
	u64 events[CPURNG_CR_PROBES];
	u64 cost_cycles;
	u64 cost_samples;
};

void cpurng_cr_totals(int cpu, struct cpurng_cr_totals *t);

/*
 * The period (collector_flush.c): every flush_ms the pools go into the
 * input pool; after the boot phase (full_s) the probes are attached only
 * for window_ms at the start of each period.
 */
extern unsigned int cpurng_cr_flush_ms;
extern unsigned int cpurng_cr_full_s;
extern unsigned int cpurng_cr_window_ms;
/*
 * Allocation events a pool may mix per period before the probes are
 * detached until the next one (0: no limit); see collector_flush.c.
 */
extern unsigned int cpurng_cr_budget;
extern u32 cpurng_cr_period_seq;
void cpurng_cr_budget_spent(u32 period);
u64 cpurng_cr_budget_stops(void);
int cpurng_cr_period_start(void);
void cpurng_cr_period_stop(void);
bool cpurng_cr_in_boot_phase(void);
u64 cpurng_cr_flushes(void);
u64 cpurng_cr_flushed_bytes(void);
u64 cpurng_cr_windows(void);

/* Output through the crypto API (collector_kcapi.c). */
u64 cpurng_cr_extracted_bytes(void);

/* Raw capture (collector_capture.c). */
DECLARE_STATIC_KEY_FALSE(cpurng_cr_capture_key);
void cpurng_cr_capture_record(enum cpurng_cr_probe probe, u64 jiffies,
			      u64 cycles, u64 site, u64 value, u64 stack);
int cpurng_cr_capture_init(void);
void cpurng_cr_capture_exit(void);
bool cpurng_cr_capture_enabled(void);
u64 cpurng_cr_capture_dropped(void);

/* sysfs (collector_status.c). */
int cpurng_cr_status_init(void);
void cpurng_cr_status_exit(void);

#if IS_ENABLED(CONFIG_CRYPTO_CPURNG_TESTING)
bool cpurng_cr_test_coarse_timer(void);
#else
static inline bool cpurng_cr_test_coarse_timer(void)
{
	return false;
}
#endif

/* VM forks and resumes (collector_kcapi.c). */
extern struct cpurng_fork_watch cpurng_cr_forks;

#endif /* CPURNG_COLLECTOR_H */
