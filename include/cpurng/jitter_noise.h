/* SPDX-License-Identifier: GPL-2.0 */
/*
 * CPU Jitter RNG noise source: the two timed workloads.
 *
 * This header is kernel-agnostic on purpose: the noise core that implements
 * it is compiled without optimisation and sees no kernel header beyond the
 * fixed-width types (include/cpurng/types.h), and the same file is built in
 * userspace by the host unit tests.
 */
#ifndef CPURNG_JITTER_NOISE_H
#define CPURNG_JITTER_NOISE_H

#include "types.h"

/* Noise paths that a sample runs; a capture may select one of them. */
#define CPURNG_NOISE_FOLD	0x1	/* timestamp folding loop */
#define CPURNG_NOISE_MEM	0x2	/* memory access loop */
#define CPURNG_NOISE_ALL	(CPURNG_NOISE_FOLD | CPURNG_NOISE_MEM)

/**
 * struct cpurng_noise - state of one noise source instance
 * @mem: memory buffer walked by the memory access loop
 * @mem_mask: buffer size minus one; the size is a power of two
 * @mem_pos: next byte of @mem to touch
 * @mem_loops: memory accesses per sample
 * @fold_loops: 64-bit foldings per sample
 * @paths: CPURNG_NOISE_* paths to run
 * @fold_acc: folded bits; fed to the conditioner so the work is used
 *
 * The caller allocates @mem and fills the configuration fields; the noise
 * core only reads them and advances @mem_pos and @fold_acc.
 */
struct cpurng_noise {
	unsigned char *mem;
	u32 mem_mask;
	u32 mem_pos;
	u32 mem_loops;
	u32 fold_loops;
	u32 paths;
	u64 fold_acc;
};

/*
 * A raw-noise capture record (debugfs and cpurng-capture): four
 * little-endian u64, delta, fold_delta, mem_delta, t_start.
 */
#define CPURNG_NOISE_RECORD_WORDS	4

/**
 * struct cpurng_noise_sample - raw timing of one sample
 * @t_start: timestamp before the first workload
 * @fold_delta: time spent in the folding loop (0 if not run)
 * @mem_delta: time spent in the memory access loop (0 if not run)
 * @delta: time of the whole sample; this is the raw noise value that the
 *	health tests judge and whose entropy is assessed
 */
struct cpurng_noise_sample {
	u64 t_start;
	u64 fold_delta;
	u64 mem_delta;
	u64 delta;
};

/**
 * cpurng_noise_timestamp() - read the high-resolution timer
 *
 * Provided by the optimised timer object (kernel: jitter_timer.c; host tests:
 * a fake timer).  Not implemented by the noise core.
 *
 * Return: current timer value in arbitrary, monotonically increasing units.
 */
u64 cpurng_noise_timestamp(void);

/**
 * cpurng_noise_measure() - run the selected workloads once and time them
 * @n: noise source instance
 * @s: receives the raw timings
 */
void cpurng_noise_measure(struct cpurng_noise *n, struct cpurng_noise_sample *s);

#endif /* CPURNG_JITTER_NOISE_H */
