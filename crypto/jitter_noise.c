// SPDX-License-Identifier: GPL-2.0
/*
 * CPU Jitter RNG noise core: two deliberately slow workloads whose execution
 * time is measured with the high-resolution timer.
 *
 * (a) Timestamp folding: the 64 bits of the start timestamp are folded into
 *     one bit, one bit per loop iteration.  The work is pointless on purpose;
 *     what we keep is how long the CPU takes to do it.
 * (b) Memory access: read-modify-write of bytes spread over a buffer, so the
 *     time depends on the cache and memory hierarchy's state.
 *
 * This file must be compiled at -O0.  An optimising compiler would fold the
 * loop in (a) into a parity instruction and could batch or reorder the
 * accesses in (b); the workloads would then shrink to a few cycles and their
 * timing would mostly reflect the timer's own overhead.  Keeping the loops as
 * written keeps the measured work what the design (and its entropy
 * assessment) describes.  Timer access, health tests and conditioning live in
 * other, optimised objects.
 *
 * The workloads have fixed sizes: no loop count depends on the timer.  On a
 * machine whose timer is a pure function of the executed code (QEMU with
 * -icount) the deltas therefore repeat, and the health tests refuse the
 * source instead of hiding the determinism behind timer-driven loop counts.
 */
#include "../include/cpurng/jitter_noise.h"

#ifdef __OPTIMIZE__
#error "jitter_noise.c must be built with -O0 (see the comment at the top)"
#endif

/*
 * Distance between two memory accesses: a prime larger than a 64-byte cache
 * line, so consecutive accesses touch different lines and, the buffer size
 * being a power of two, the walk visits every byte before it repeats.
 */
#define CPURNG_NOISE_MEM_STRIDE	67

/* Fold a 64-bit value into its parity, one bit per iteration. */
static u64 cpurng_noise_fold_one(u64 value)
{
	u64 bit = 0;
	unsigned int i;

	for (i = 0; i < 64; i++) {
		bit ^= value & 1;
		value >>= 1;
	}
	return bit;
}

static void cpurng_noise_fold(struct cpurng_noise *n, u64 stamp)
{
	u32 i;

	for (i = 0; i < n->fold_loops; i++)
		n->fold_acc = ((n->fold_acc << 1) | (n->fold_acc >> 63)) ^
			      cpurng_noise_fold_one(stamp + i);
}

static void cpurng_noise_memaccess(struct cpurng_noise *n)
{
	unsigned char *byte;
	u32 i;

	for (i = 0; i < n->mem_loops; i++) {
		byte = n->mem + n->mem_pos;
		*byte = *byte + 1;
		n->mem_pos = (n->mem_pos + CPURNG_NOISE_MEM_STRIDE) &
			     n->mem_mask;
	}
}

void cpurng_noise_measure(struct cpurng_noise *n, struct cpurng_noise_sample *s)
{
	u64 t0, t1, t2;

	t0 = cpurng_noise_timestamp();
	if (n->paths & CPURNG_NOISE_FOLD)
		cpurng_noise_fold(n, t0);
	t1 = cpurng_noise_timestamp();
	if (n->paths & CPURNG_NOISE_MEM)
		cpurng_noise_memaccess(n);
	t2 = cpurng_noise_timestamp();

	s->t_start = t0;
	s->fold_delta = (n->paths & CPURNG_NOISE_FOLD) ? t1 - t0 : 0;
	s->mem_delta = (n->paths & CPURNG_NOISE_MEM) ? t2 - t1 : 0;
	s->delta = t2 - t0;
}
