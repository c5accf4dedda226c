/* SPDX-License-Identifier: GPL-2.0 */
/*
 * CPU-randomness collector: the per-CPU pool, the per-event mix and the
 * extraction.  Kernel-agnostic (see types.h) so the host unit tests build
 * the same code; the tracepoint probes, timer work and crypto API glue are
 * in the kernel-only files.
 */
#ifndef CPURNG_COLLECTOR_CORE_H
#define CPURNG_COLLECTOR_CORE_H

#include "types.h"

/* Pools per CPU: one per interrupt context level (task, softirq, hardirq,
 * NMI), so an event never shares a pool with the event it interrupted.
 */
#define CPURNG_CR_CONTEXTS	4

#define CPURNG_CR_DIGEST_BYTES	32

/**
 * enum cpurng_cr_probe - the tracepoints the collector listens to
 * @CPURNG_CR_SCHED_SWITCH: scheduler context switch
 * @CPURNG_CR_KMALLOC: kmalloc() and friends
 * @CPURNG_CR_KMEM_CACHE_ALLOC: slab cache allocations
 * @CPURNG_CR_PROBES: number of probes
 */
enum cpurng_cr_probe {
	CPURNG_CR_SCHED_SWITCH,
	CPURNG_CR_KMALLOC,
	CPURNG_CR_KMEM_CACHE_ALLOC,
	CPURNG_CR_PROBES,
};

/**
 * struct cpurng_cr_pool - one pool: mixing state and its counters
 * @v: 256-bit mixing state
 * @events: events mixed in, per probe
 * @cost_cycles: cycles spent in sampled events
 * @cost_samples: number of sampled events
 * @budget_period: the period @budget_left belongs to
 * @budget_left: allocation events this pool may still mix in that period
 *
 * Written only by the CPU and context level that own it; read (racily, on
 * purpose) by the flush and the extraction, which treat it as uncredited
 * input: a torn read cannot make the result weaker than no read at all.
 */
struct cpurng_cr_pool {
	u64 v[4];
	u64 events[CPURNG_CR_PROBES];
	u64 cost_cycles;
	u64 cost_samples;
	u32 budget_period;
	u32 budget_left;
};

static inline u64 cpurng_cr_rol64(u64 word, unsigned int shift)
{
	return (word << (shift & 63)) | (word >> ((-shift) & 63));
}

/*
 * One ARX round over the four state words, with SipHash's rotation
 * amounts.  Fixed instruction sequence, no branches, no table lookups:
 * constant time.
 */
static inline void cpurng_cr_round(u64 v[4])
{
	v[0] += v[1];
	v[1] = cpurng_cr_rol64(v[1], 13);
	v[1] ^= v[0];
	v[0] = cpurng_cr_rol64(v[0], 32);
	v[2] += v[3];
	v[3] = cpurng_cr_rol64(v[3], 16);
	v[3] ^= v[2];
	v[0] += v[3];
	v[3] = cpurng_cr_rol64(v[3], 21);
	v[3] ^= v[0];
	v[2] += v[1];
	v[1] = cpurng_cr_rol64(v[1], 17);
	v[1] ^= v[2];
	v[2] = cpurng_cr_rol64(v[2], 32);
}

/**
 * cpurng_cr_mix() - mix one event into a pool
 * @p: the pool
 * @jiffies: the tick counter
 * @cycles: the cycle counter (0 where there is none)
 * @site: call site, or the probe's return address
 * @value: a per-call value (the object allocated, the tasks switched)
 * @stack: an address on the current stack
 *
 * The five inputs are packed into two words (rotations keep the varying
 * low bits of each input apart), xored into two state words, stirred by
 * one round and xored into the other two: every input bit changes the
 * state, and successive events compound.  The mix is fast rather than
 * strong (the probe runs on every context switch and allocation); the
 * extraction hashes the pools with SHA-256.  The values are passed in
 * registers: an event structure on the stack would cost stores, and with
 * CONFIG_INIT_STACK_ALL_ZERO a zeroing as well.
 */
static inline void cpurng_cr_mix(struct cpurng_cr_pool *p, u64 jiffies,
				 u64 cycles, u64 site, u64 value, u64 stack)
{
	u64 a = cycles ^ cpurng_cr_rol64(jiffies, 40) ^
		cpurng_cr_rol64(stack, 20);
	u64 b = value ^ cpurng_cr_rol64(site, 32);

	p->v[3] ^= a;
	p->v[1] ^= b;
	cpurng_cr_round(p->v);
	p->v[0] ^= a;
	p->v[2] ^= b;
}

/**
 * cpurng_cr_budget_take() - count one allocation event against the budget
 * @p: the pool the event was mixed into
 * @period: the current flush period's sequence number
 * @budget: events a pool may mix per period (0: no limit); read only when
 *	a period begins, not on every event
 *
 * The first event of a new period refills the pool's allowance.
 *
 * Return: true for the event that spends the last of it (exactly once per
 * pool and period), when the probes are to detach until the next period.
 */
static inline bool cpurng_cr_budget_take(struct cpurng_cr_pool *p, u32 period,
					 const u32 *budget)
{
	if (p->budget_period != period) {
		p->budget_period = period;
		p->budget_left = READ_ONCE(*budget);
	}
	return p->budget_left && !--p->budget_left;
}

/* Domains of the extraction, so that no two uses share a hash input. */
#define CPURNG_CR_DOMAIN_OUTPUT	0x01	/* crypto_rng output block */
#define CPURNG_CR_DOMAIN_CHAIN	0x02	/* next key of the instance */
#define CPURNG_CR_DOMAIN_FLUSH	0x03	/* input-pool contribution */
#define CPURNG_CR_DOMAIN_INIT	0x04	/* first key of an instance */
#define CPURNG_CR_DOMAIN_SEED	0x05	/* key after a caller's seed */
#define CPURNG_CR_DOMAIN_FORK	0x06	/* key after a VM fork or a resume */

/**
 * cpurng_cr_digest() - hash every pool with a key and a counter
 * @out: receives SHA-256(@domain || @key || @counter || pools || @extra)
 * @domain: one of CPURNG_CR_DOMAIN_*
 * @key: 32-byte key
 * @counter: counter
 * @pool: returns the i-th pool, for i from 0 to @npools - 1
 * @ctx: passed to @pool
 * @npools: number of pools
 * @extra: optional further input (may be NULL)
 * @extra_len: its length
 *
 * Only the mixing state of each pool is hashed, not its counters.
 */
void cpurng_cr_digest(u8 out[CPURNG_CR_DIGEST_BYTES], u8 domain,
		      const u8 key[CPURNG_CR_DIGEST_BYTES], u64 counter,
		      const struct cpurng_cr_pool *(*pool)(void *ctx,
							   unsigned int i),
		      void *ctx, unsigned int npools, const void *extra,
		      unsigned int extra_len);

/**
 * cpurng_cr_rekey() - derive an output block and the next key
 * @out: output block (may be NULL when only the key moves)
 * @key: in: the current key; out: the next key
 * @digest: the digest of the pools (cpurng_cr_digest())
 *
 * out = SHA-256(0x01 || digest), key = SHA-256(0x02 || digest): the key
 * kept afterwards cannot recompute @out or any earlier output.
 */
void cpurng_cr_rekey(u8 *out, u8 key[CPURNG_CR_DIGEST_BYTES],
		     const u8 digest[CPURNG_CR_DIGEST_BYTES]);

#endif /* CPURNG_COLLECTOR_CORE_H */
