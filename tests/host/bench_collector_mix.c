// SPDX-License-Identifier: GPL-2.0
/*
 * Native cost of one collector event, for make bench.
 *
 * Reproduces the probe body in userspace (read the cycle counter, build the
 * event, mix it into a pool, count it) and times batches of events with the
 * TSC.  The kernel adds the tracepoint dispatch and a per-CPU pointer
 * lookup, a few instructions more; the in-VM figure (sysfs cost_cycles) is
 * measured on QEMU's emulated counter and cannot stand in for this one.
 * The budget is 100 cycles per event.
 */
#include <x86intrin.h>

#include "ksft_report.h"
#include "host_shim.h"
#include "../../include/cpurng/collector_core.h"

#define EVENTS		(1 << 20)
#define ROUNDS		15
#define BUDGET_CYCLES	100

static struct cpurng_cr_pool pool;
static volatile unsigned long fake_jiffies = 4294937296UL;

static __attribute__((noinline)) void probe(unsigned long site,
					     unsigned long value)
{
	u64 start = __rdtsc();

	cpurng_cr_mix(&pool, fake_jiffies, start, site, value,
		      (unsigned long)__builtin_frame_address(0));
	if (!(++pool.events[0] & 255)) {
		pool.cost_cycles += __rdtsc() - start;
		pool.cost_samples++;
	}
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

int main(void)
{
	double per_event[ROUNDS], median;
	unsigned int r, i;

	report_start(1);
	for (r = 0; r < ROUNDS; r++) {
		u64 t0 = __rdtsc();

		for (i = 0; i < EVENTS; i++)
			probe(0xffffffff81000000UL + (i & 63) * 16,
			      0xffff888000000000UL + i * 64UL);
		per_event[r] = (double)(__rdtsc() - t0) / EVENTS;
	}
	qsort(per_event, ROUNDS, sizeof(per_event[0]), cmp);
	median = per_event[ROUNDS / 2];
	report_diag("collector event, native TSC, median of %d x %d: %.1f cycles",
		    ROUNDS, EVENTS, median);
	report_diag("min %.1f, max %.1f; self-sampled like the probe: %.1f",
		    per_event[0], per_event[ROUNDS - 1],
		    (double)pool.cost_cycles / pool.cost_samples);
	report_check(median <= BUDGET_CYCLES, "aim_event_cost_within_100_cycles");
	return report_exit();
}
