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
 *
 * Budget.  The cost of collecting all the time is proportional to the
 * event rate: about 95 instructions an event with the tracepoint's own
 * dispatch (make bench, -icount).  A context switch costs thousands of
 * instructions itself, so its probe stays near 1.5 % however often the
 * scheduler switches (the pipe ping-pong: 155,000 a second).  A slab
 * allocation costs far less, and an allocation storm (680,000 a second)
 * pays 7-9 %; a probe that merely skipped its work would still pay the
 * dispatch, 1.7 % there.  So each pool may mix budget allocation events
 * per period (default 65536); the event that spends it raises an irq_work
 * (safe in any context), whose work detaches the probes until the next
 * period attaches them again.  Context switches are never counted against
 * it: below the budget nothing changes, and a storm still gives every pool
 * 65536 allocation events a period, while each period's flush passes 32
 * bytes on.  budget=0 removes the limit.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/irq_work.h>
#include <linux/jiffies.h>
#include <linux/random.h>
#include <linux/string.h>
#include <linux/workqueue.h>

#include "../include/cpurng/collector.h"

unsigned int cpurng_cr_flush_ms = 1000;
unsigned int cpurng_cr_full_s = 60;
unsigned int cpurng_cr_window_ms = 50;
unsigned int cpurng_cr_budget = 65536;
/* Moves at every period: each pool's budget starts again. */
u32 cpurng_cr_period_seq;

static unsigned long cpurng_cr_boot_end;
static atomic64_t cpurng_cr_flush_count;
static atomic64_t cpurng_cr_flush_bytes;
static atomic64_t cpurng_cr_window_count;
static atomic64_t cpurng_cr_budget_count;

static void cpurng_cr_period(struct work_struct *work);
static void cpurng_cr_window_end(struct work_struct *work);
static void cpurng_cr_budget_detach(struct work_struct *work);
static void cpurng_cr_budget_irq_work(struct irq_work *work);
static DECLARE_DELAYED_WORK(cpurng_cr_period_work, cpurng_cr_period);
static DECLARE_DELAYED_WORK(cpurng_cr_window_work, cpurng_cr_window_end);
static DECLARE_WORK(cpurng_cr_budget_work, cpurng_cr_budget_detach);
static DEFINE_IRQ_WORK(cpurng_cr_budget_irq, cpurng_cr_budget_irq_work);
/* Until the period work has stopped, a spent budget may detach. */
static bool cpurng_cr_budget_armed;
/* The period whose budget was spent: a later one is left attached. */
static u32 cpurng_cr_budget_spent_seq;

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

/* A pool spent its budget: detach until the next period (process context). */
static void cpurng_cr_budget_detach(struct work_struct *work)
{
	if (!READ_ONCE(cpurng_cr_budget_armed) ||
	    READ_ONCE(cpurng_cr_budget_spent_seq) !=
	    READ_ONCE(cpurng_cr_period_seq))
		return;
	cpurng_cr_probes_detach();
	atomic64_inc(&cpurng_cr_budget_count);
}

static void cpurng_cr_budget_irq_work(struct irq_work *work)
{
	schedule_work(&cpurng_cr_budget_work);
}

/* Called by the probe whose pool spends its budget, in any context. */
void cpurng_cr_budget_spent(u32 period)
{
	WRITE_ONCE(cpurng_cr_budget_spent_seq, period);
	irq_work_queue(&cpurng_cr_budget_irq);
}

static void cpurng_cr_period(struct work_struct *work)
{
	cpurng_cr_flush();
	WRITE_ONCE(cpurng_cr_period_seq, cpurng_cr_period_seq + 1);
	/* in the boot phase a spent budget detached them until now */
	if (cpurng_cr_in_boot_phase())
		cpurng_cr_probes_attach();
	else
		cpurng_cr_open_window();
	schedule_delayed_work(&cpurng_cr_period_work,
			      msecs_to_jiffies(cpurng_cr_flush_ms));
}

int cpurng_cr_period_start(void)
{
	int ret;

	cpurng_cr_boot_end = jiffies + cpurng_cr_full_s * HZ;
	/* the pools start at period 0: this first period gives them a budget */
	WRITE_ONCE(cpurng_cr_period_seq, cpurng_cr_period_seq + 1);
	WRITE_ONCE(cpurng_cr_budget_armed, true);
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
	WRITE_ONCE(cpurng_cr_budget_armed, false);
	cancel_delayed_work_sync(&cpurng_cr_period_work);
	cancel_delayed_work_sync(&cpurng_cr_window_work);
	cpurng_cr_probes_shutdown();
	/* no probe runs any more: no irq_work or work can be queued again */
	irq_work_sync(&cpurng_cr_budget_irq);
	cancel_work_sync(&cpurng_cr_budget_work);
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

u64 cpurng_cr_budget_stops(void)
{
	return atomic64_read(&cpurng_cr_budget_count);
}
