// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests of the collector's mix and extraction, built from the
 * kernel sources with a SHA-256 shim (host_shim.h).
 */
#include <string.h>

#include "ksft_report.h"
#include "host_shim.h"
#include "../../include/cpurng/collector_core.h"

#define NPOOLS	8

static struct cpurng_cr_pool pools[NPOOLS];

static const struct cpurng_cr_pool *pool_at(void *ctx, unsigned int i)
{
	struct cpurng_cr_pool *set = ctx;

	return &set[i];
}

/* The five inputs of one event, in cpurng_cr_mix()'s order. */
struct test_event {
	u64 jiffies, cycles, site, value, stack;
};

static struct test_event event(unsigned int i)
{
	struct test_event e = {
		.jiffies = 4294937296ULL + i / 100,
		.cycles = 123456789ULL + 977ULL * i,
		.site = 0xffffffff81234567ULL + (i % 7) * 0x40,
		.value = 0xffff888003a4b000ULL + 0x80ULL * i,
		.stack = 0xffffc90000123e40ULL - (i % 5) * 8,
	};

	return e;
}

static void mix(struct cpurng_cr_pool *p, const struct test_event *e)
{
	cpurng_cr_mix(p, e->jiffies, e->cycles, e->site, e->value, e->stack);
}

static void fill(struct cpurng_cr_pool *set, unsigned int events)
{
	unsigned int i;

	memset(set, 0, sizeof(pools));
	for (i = 0; i < events; i++) {
		struct test_event e = event(i);

		mix(&set[i % NPOOLS], &e);
	}
}

static void digest(struct cpurng_cr_pool *set, u8 out[32])
{
	static const u8 key[32] = { 1, 2, 3 };

	cpurng_cr_digest(out, CPURNG_CR_DOMAIN_OUTPUT, key, 7, pool_at, set,
			 NPOOLS, NULL, 0);
}

static unsigned int hamming(const u8 *a, const u8 *b, unsigned int len)
{
	unsigned int i, d = 0;

	for (i = 0; i < len; i++)
		d += __builtin_popcount(a[i] ^ b[i]);
	return d;
}

static void test_deterministic(void)
{
	static struct cpurng_cr_pool other[NPOOLS];
	u8 a[32], b[32];

	fill(pools, 1000);
	fill(other, 1000);
	digest(pools, a);
	digest(other, b);
	report_check(!memcmp(pools, other, sizeof(pools)) && !memcmp(a, b, 32),
		     "same_events_give_same_pools_and_digest");
}

/*
 * Flip each of the 320 input bits of one event in turn: the pool state
 * must change every time, and the extracted digest must differ in about
 * half its 256 bits (binomial mean 128, sd 8; accept 96..160, 4 sd).
 */
static void test_avalanche(void)
{
	static struct cpurng_cr_pool base[NPOOLS], flipped[NPOOLS];
	unsigned int field, bit, min = 256, max = 0, total = 0, n = 0;
	int pool_changed = 1;
	u8 d0[32], d1[32];

	fill(base, 500);
	digest(base, d0);
	for (field = 0; field < 5; field++) {
		for (bit = 0; bit < 64; bit++) {
			struct test_event e = event(500);
			u64 *word = &e.jiffies + field;
			unsigned int d;

			memcpy(flipped, base, sizeof(base));
			*word ^= 1ULL << bit;
			mix(&flipped[0], &e);
			e = event(500);
			mix(&base[0], &e);
			if (!memcmp(base[0].v, flipped[0].v, sizeof(base[0].v)))
				pool_changed = 0;
			digest(base, d0);
			digest(flipped, d1);
			d = hamming(d0, d1, 32);
			min = d < min ? d : min;
			max = d > max ? d : max;
			total += d;
			n++;
			fill(base, 500);
		}
	}
	report_diag("digest bits changed by one input bit: min %u, mean %.1f, max %u",
		    min, (double)total / n, max);
	report_check(pool_changed, "every_input_bit_changes_the_pool");
	report_check(min >= 96 && max <= 160 && total / n >= 120 &&
		     total / n <= 136, "one_input_bit_flips_about_half_the_output");
}

static void test_extraction(void)
{
	u8 key[32] = { 9 }, key0[32], out[32], d[32], d2[32];
	static const u8 zero[32];
	struct cpurng_cr_pool snapshot[NPOOLS];

	fill(pools, 300);
	memcpy(snapshot, pools, sizeof(pools));
	cpurng_cr_digest(d, CPURNG_CR_DOMAIN_OUTPUT, key, 1, pool_at, pools,
			 NPOOLS, NULL, 0);
	report_check(!memcmp(snapshot, pools, sizeof(pools)),
		     "extraction_leaves_pools_untouched");

	cpurng_cr_digest(d2, CPURNG_CR_DOMAIN_OUTPUT, key, 2, pool_at, pools,
			 NPOOLS, NULL, 0);
	report_check(memcmp(d, d2, 32), "counter_changes_digest");
	cpurng_cr_digest(d2, CPURNG_CR_DOMAIN_FLUSH, key, 1, pool_at, pools,
			 NPOOLS, NULL, 0);
	report_check(memcmp(d, d2, 32), "domain_separates_flush_from_output");
	cpurng_cr_digest(d2, CPURNG_CR_DOMAIN_OUTPUT, key, 1, pool_at, pools,
			 NPOOLS, "x", 1);
	report_check(memcmp(d, d2, 32), "additional_input_changes_digest");

	memcpy(key0, key, 32);
	cpurng_cr_rekey(out, key, d);
	report_check(memcmp(key, key0, 32) && memcmp(out, key, 32) &&
		     memcmp(out, zero, 32) && memcmp(out, d, 32),
		     "rekey_moves_key_and_output_differs_from_key_and_digest");
}

int main(void)
{
	report_start(8);
	test_deterministic();
	test_avalanche();
	test_extraction();
	return report_exit();
}
