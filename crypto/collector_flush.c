// SPDX-License-Identifier: GPL-2.0
/*
 * CPU-randomness collector: the period.
 *
 * Input pool.  At most once per flush period (one second by default, never
 * shorter) a worker hashes every pool and hands the digest to
 * add_device_randomness(), which mixes it in without crediting any entropy:
 * nobody can measure how much there is, and input that is not credited
 * cannot weaken the pool.  This runs in process context, never from a
 * probe.  The pools are only read: what is drawn through the crypto API is
 * unaffected, and the other way round.
 *
 * Rate limit.  A probe costs about 65 instructions plus the tracepoint
 * dispatch on every context switch and slab allocation: a few per cent of
 * an allocation-heavy workload (make bench).  Early after boot, when seeds
 * matter and are scarce, that is worth paying; later it is not.  So for the
 * first full_s seconds (default 60) the probes stay attached, and after
 * that they are attached for window_ms (default 50) at the start of each
 * period and detached for the rest: the steady-state cost falls by the
 * duty cycle.  Engel suggested this trade-off himself ("rate-limit the
 * randomness collection at some point after boot").  window_ms equal to
 * flush_ms keeps the probes attached all the time.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/jiffies.h>
#include <linux/random.h>
#include <linux/string.h>
#include <linux/workqueue.h>

#include "../include/cpurng/collector.h"

unsigned int cpurng_cr_flush_ms = 1000;
unsigned int cpurng_cr_full_s = 60;
unsigned int cpurng_cr_window_ms = 50;

static unsigned long cpurng_cr_boot_end;
static atomic64_t cpurng_cr_flush_count;
static atomic64_t cpurng_cr_flush_bytes;
static atomic64_t cpurng_cr_window_count;

static void cpurng_cr_period(struct work_struct *work);
static void cpurng_cr_window_end(struct work_struct *work);
static DECLARE_DELAYED_WORK(cpurng_cr_period_work, cpurng_cr_period);
static DECLARE_DELAYED_WORK(cpurng_cr_window_work, cpurng_cr_window_end);

bool cpurng_cr_in_boot_phase(void)
{
	return time_before(jiffies, cpurng_cr_boot_end);
}

static bool cpurng_cr_always_attached(void)
{
	return cpurng_cr_window_ms >= cpurng_cr_flush_ms;
}

static void cpurng_cr_flush(void)
{
	/* The flush needs no secret key: its output goes into the pool. */
	static const u8 zero_key[CPURNG_CR_DIGEST_BYTES];
	u8 digest[CPURNG_CR_DIGEST_BYTES];

	cpurng_cr_digest(digest, CPURNG_CR_DOMAIN_FLUSH, zero_key,
			 atomic64_inc_return(&cpurng_cr_flush_count),
			 cpurng_cr_pool_at, NULL, cpurng_cr_npools(), NULL, 0);
	add_device_randomness(digest, sizeof(digest));
	atomic64_add(sizeof(digest), &cpurng_cr_flush_bytes);
	memzero_explicit(digest, sizeof(digest));
}

/* Open a window: attach, and detach again after window_ms. */
static void cpurng_cr_open_window(void)
{
	if (cpurng_cr_probes_attach())
		return;
	atomic64_inc(&cpurng_cr_window_count);
	if (!cpurng_cr_always_attached())
		schedule_delayed_work(&cpurng_cr_window_work,
				      msecs_to_jiffies(cpurng_cr_window_ms));
}

static void cpurng_cr_window_end(struct work_struct *work)
{
	if (!cpurng_cr_in_boot_phase())
		cpurng_cr_probes_detach();
}

static void cpurng_cr_period(struct work_struct *work)
{
	cpurng_cr_flush();
	if (!cpurng_cr_in_boot_phase())
		cpurng_cr_open_window();
	schedule_delayed_work(&cpurng_cr_period_work,
			      msecs_to_jiffies(cpurng_cr_flush_ms));
}

int cpurng_cr_period_start(void)
{
	int ret;

	cpurng_cr_boot_end = jiffies + cpurng_cr_full_s * HZ;
	ret = cpurng_cr_probes_attach();
	if (ret)
		return ret;
	if (!cpurng_cr_in_boot_phase())
		cpurng_cr_open_window();
	schedule_delayed_work(&cpurng_cr_period_work,
			      msecs_to_jiffies(cpurng_cr_flush_ms));
	return 0;
}

/*
 * Both works are stopped (and waited for) before the probes go: the
 * period re-arms itself, which cancel_delayed_work_sync() handles.
 */
void cpurng_cr_period_stop(void)
{
	cancel_delayed_work_sync(&cpurng_cr_period_work);
	cancel_delayed_work_sync(&cpurng_cr_window_work);
	cpurng_cr_probes_shutdown();
}

u64 cpurng_cr_flushes(void)
{
	return atomic64_read(&cpurng_cr_flush_count);
}

u64 cpurng_cr_flushed_bytes(void)
{
	return atomic64_read(&cpurng_cr_flush_bytes);
}

u64 cpurng_cr_windows(void)
{
	return atomic64_read(&cpurng_cr_window_count);
}
