// SPDX-License-Identifier: GPL-2.0
/*
 * CPU Jitter RNG: integer SP800-90B estimates of a block of raw deltas
 * (see jitter_estimate.h for the subset and why).
 *
 * Probabilities are Q32 fixed point (1.0 = 2^32) in u64; logarithms are
 * Q16.  No floating point, no allocation, no kernel header: the module and
 * cpurng-ea --quick build this same file.  Section and step numbers are
 * those of SP800-90B (January 2018).
 */
#include "../include/cpurng/jitter_estimate.h"

#ifdef __KERNEL__
#include <linux/math64.h>
#else
static inline u64 div_u64(u64 a, u32 b)
{
	return a / b;
}
#endif

#define Q32_ONE		0x100000000ULL
/* no earlier occurrence (sample indices stay below 2^16 + 1) */
#define CPURNG_EST_NONE	0xffffffffU
/* SP800-90B 6.3.1 step 3 and 6.3.7 step 5: z = 2.576 for 99 %, in 1/1000. */
#define EST_Z_MILLI	2576ULL
/* log2(100) in Q16: 0.01^(1/N) = 2^(-log2(100) / N), 6.3.7 step 5. */
#define EST_LOG2_100_Q16	435411U

static const char * const cpurng_est_names[CPURNG_EST_COUNT] = {
	[CPURNG_EST_MCV] = "mcv",
	[CPURNG_EST_TUPLE] = "t-tuple",
	[CPURNG_EST_LAG] = "lag",
};

const char *cpurng_est_name(enum cpurng_est_kind kind)
{
	return kind < CPURNG_EST_COUNT ? cpurng_est_names[kind] : "?";
}

/* log2(x) for x >= 1, Q16: the integer part, then 16 bits by squaring. */
u32 cpurng_est_log2_q16(u64 x)
{
	u32 ip = 0, r;
	u64 y;
	int i;

	while (ip < 63 && x >> (ip + 1))
		ip++;
	y = ip >= 31 ? x >> (ip - 31) : x << (31 - ip);	/* Q31, [1, 2) */
	r = ip << 16;
	for (i = 15; i >= 0; i--) {
		y = (y * y) >> 31;
		if (y >= (2ULL << 31)) {
			y >>= 1;
			r |= 1U << i;
		}
	}
	return r;
}

/* 2^(-2^-j) in Q32, j = 1..16: one factor per fraction bit of 2^-x. */
static const u32 cpurng_est_exp2_tab[16] = {
	0xb504f334, 0xd744fccb, 0xeac0c6e8, 0xf5257d15,
	0xfa83b2db, 0xfd3e0c0d, 0xfe9e115c, 0xff4ecb59,
	0xffa75652, 0xffd3a752, 0xffe9d2b3, 0xfff4e91c,
	0xfffa747f, 0xfffd3a3b, 0xfffe9d1d, 0xffff4e8e,
};

/* 2^(-x) for x >= 0 in Q16, as a Q32 probability. */
static u64 cpurng_est_exp2_neg(u32 x_q16)
{
	u64 r = Q32_ONE;
	u32 ip = x_q16 >> 16;
	int j;

	for (j = 0; j < 16; j++)
		if (x_q16 & (1U << (15 - j)))
			r = (r * cpurng_est_exp2_tab[j]) >> 32;
	return ip >= 33 ? 0 : r >> ip;
}

/* Millibits of -log2(p) for a Q32 probability 0 < p <= 1. */
u32 cpurng_est_mbits(u64 p_q32)
{
	u64 bits_q16;

	if (!p_q32)
		p_q32 = 1;
	bits_q16 = (32ULL << 16) - cpurng_est_log2_q16(p_q32);
	return (bits_q16 * 1000 + (1U << 15)) >> 16;
}

static u64 cpurng_est_isqrt(u64 x)
{
	u64 r = 0, bit = 1ULL << 62;

	while (bit > x)
		bit >>= 2;
	while (bit) {
		if (x >= r + bit) {
			x -= r + bit;
			r = (r >> 1) + bit;
		} else {
			r >>= 1;
		}
		bit >>= 2;
	}
	return r;
}

/* SP800-90B 6.3.1 step 3: p_u = min(1, p + z sqrt(p (1 - p) / (n - 1))). */
u64 cpurng_est_upper_bound(u64 p_q32, u32 n)
{
	u64 var, u;

	if (p_q32 >= Q32_ONE)
		return Q32_ONE;
	var = div_u64((p_q32 * (Q32_ONE - p_q32)) >> 32, n - 1);
	u = p_q32 + div_u64(cpurng_est_isqrt(var << 32) * EST_Z_MILLI, 1000);
	return u > Q32_ONE ? Q32_ONE : u;
}

/* (count / total)^(1 / t) in Q32, 0 < count <= total. */
u64 cpurng_est_root(u32 count, u32 total, u32 t)
{
	u32 lg = cpurng_est_log2_q16(total) - cpurng_est_log2_q16(count);

	return cpurng_est_exp2_neg(lg / t);
}

/*
 * Stable counting sort of @in (m positions) into @out by @key[pos + off],
 * keys below @k; @cnt has k + 1 words.
 */
static void cpurng_est_count_sort(const u32 *in, u32 *out, u32 m,
				  const u32 *key, u32 off, u32 k, u32 *cnt)
{
	u32 i, sum = 0;

	for (i = 0; i <= k; i++)
		cnt[i] = 0;
	for (i = 0; i < m; i++)
		cnt[key[in[i] + off]]++;
	for (i = 0; i < k; i++) {
		u32 c = cnt[i];

		cnt[i] = sum;
		sum += c;
	}
	for (i = 0; i < m; i++)
		out[cnt[key[in[i] + off]]++] = in[i];
}

/*
 * Sort the sample indices by value: an LSD radix sort, one stable
 * counting-sort pass per byte of (v - min) that is not zero in every
 * sample, so raw deltas that span 2 or 3 bytes take 2 or 3 passes.  The
 * result is in @idx; @tmp and @digit have n words, @cnt 257.
 */
static void cpurng_est_sort(u32 *idx, u32 *tmp, u32 *digit, const u64 *v,
			    u32 n, u32 *cnt)
{
	u64 lo = v[0], span = 0;
	u32 i, shift, *in = idx, *out = tmp, *swap;

	for (i = 1; i < n; i++)
		if (v[i] < lo)
			lo = v[i];
	for (i = 0; i < n; i++) {
		span |= v[i] - lo;
		idx[i] = i;
	}
	for (shift = 0; shift < 64 && span >> shift; shift += 8) {
		for (i = 0; i < n; i++)
			digit[i] = ((v[i] - lo) >> shift) & 0xff;
		cpurng_est_count_sort(in, out, n, digit, 0, 256, cnt);
		swap = in;
		in = out;
		out = swap;
	}
	if (in != idx)
		for (i = 0; i < n; i++)
			idx[i] = in[i];
}

/*
 * 6.3.5: for t = 1, 2, ... the count Q[t] of the most common t-tuple, while
 * it is at least 35; P_max = max (Q[t] / (n - t + 1))^(1/t).  Tuples are
 * ranked incrementally: the rank of the t-tuple at i is that of the pair
 * (rank of the (t-1)-tuple at i, symbol i + t - 1), two counting-sort
 * passes per t.  Returns P_max in Q32 (0: no value occurs 35 times).
 */
static u64 cpurng_est_tuple(const u32 *sym, u32 n, u32 k, u32 *key, u32 *key2,
			    u32 *idx, u32 *tmp, u32 *cnt, u32 mcv_count,
			    u32 *t_out)
{
	u64 best = 0, p;
	u32 t, m, i, ranks, run, q, *swap;

	*t_out = 0;
	if (mcv_count < CPURNG_EST_TUPLE_MIN)
		return 0;
	best = cpurng_est_root(mcv_count, n, 1);
	*t_out = 1;
	for (i = 0; i < n; i++)
		key[i] = sym[i];
	ranks = k;
	for (t = 2; t <= CPURNG_EST_TUPLE_MAX && t <= n; t++) {
		m = n - t + 1;
		for (i = 0; i < m; i++)
			tmp[i] = i;
		/* least significant part first: the new symbol, then the prefix */
		cpurng_est_count_sort(tmp, idx, m, sym, t - 1, k, cnt);
		cpurng_est_count_sort(idx, tmp, m, key, 0, ranks, cnt);
		q = 0;
		run = 0;
		ranks = 0;
		for (i = 0; i < m; i++) {
			u32 a = tmp[i], b = i ? tmp[i - 1] : 0;

			if (i && key[a] == key[b] && sym[a + t - 1] == sym[b + t - 1]) {
				run++;
			} else {
				run = 1;
				ranks++;
			}
			key2[a] = ranks - 1;
			if (run > q)
				q = run;
		}
		if (q < CPURNG_EST_TUPLE_MIN)
			break;
		p = cpurng_est_root(q, m, t);
		if (p > best)
			best = p;
		*t_out = t;
		swap = key;
		key = key2;
		key2 = swap;
	}
	return best;
}

/*
 * 6.3.8, global performance: subpredictor d predicts the value d samples
 * back; the prediction used is that of the subpredictor with the most
 * correct predictions so far (the later one on a tie, as cpurng-ea).
 * Only the subpredictors whose value equals the new one score, so each
 * step walks back over the earlier occurrences of its symbol within D
 * samples (@prev links them, nearest first, so d rises as in 6.3.8's loop
 * over d) instead of trying all D: the same scores in a fraction of the
 * comparisons.  @last has k words.
 */
static u64 cpurng_est_lag(const u32 *sym, u32 n, u32 k, u32 *prev, u32 *last)
{
	u32 score[CPURNG_EST_LAG_D] = { 0 };
	u32 i, j, d, winner = 0, correct = 0, total = n - 1;
	u64 pg;

	for (i = 0; i < k; i++)
		last[i] = CPURNG_EST_NONE;
	for (i = 0; i < n; i++) {
		prev[i] = last[sym[i]];
		last[sym[i]] = i;
	}
	for (i = 1; i < n; i++) {
		if (i > winner && sym[i - winner - 1] == sym[i])
			correct++;
		for (j = prev[i]; j != CPURNG_EST_NONE; j = prev[j]) {
			d = i - j - 1;
			if (d >= CPURNG_EST_LAG_D)
				break;
			if (++score[d] >= score[winner])
				winner = d;
		}
	}
	if (correct)
		pg = cpurng_est_upper_bound(div_u64((u64)correct << 32, total),
					    total);
	else
		pg = Q32_ONE - cpurng_est_exp2_neg(EST_LOG2_100_Q16 / total);
	/* 6.3.7 step 7: never below 1/k */
	return pg < div_u64(Q32_ONE, k) ? div_u64(Q32_ONE, k) : pg;
}

int cpurng_estimate(const u64 *v, u32 n, u32 *scratch,
		    struct cpurng_estimate *e)
{
	u32 *sym = scratch, *key = sym + n, *key2 = key + n, *idx = key2 + n;
	u32 *tmp = idx + n, *cnt = tmp + n;
	u32 i, k = 0, run = 0, mcv = 0;
	u64 p;
	int j;

	if (n < CPURNG_EST_MIN_SAMPLES || n > CPURNG_EST_MAX_SAMPLES)
		return -1;
	/* Symbols: ranks of the distinct values; 6.3.1: the mode's count. */
	cpurng_est_sort(idx, tmp, key, v, n, cnt);
	for (i = 0; i < n; i++) {
		if (!i || v[idx[i]] != v[idx[i - 1]]) {
			k++;
			run = 0;
		}
		sym[idx[i]] = k - 1;
		if (++run > mcv)
			mcv = run;
	}
	e->samples = n;
	e->distinct = k;

	p = cpurng_est_upper_bound(div_u64((u64)mcv << 32, n), n);
	e->mbits[CPURNG_EST_MCV] = cpurng_est_mbits(p);

	p = cpurng_est_tuple(sym, n, k, key, key2, idx, tmp, cnt, mcv,
			     &e->tuple_t);
	/* no value occurs 35 times: the estimator does not apply */
	e->mbits[CPURNG_EST_TUPLE] = p ?
		cpurng_est_mbits(cpurng_est_upper_bound(p, n)) : ~0U;

	/* after the t-tuple estimate: idx and cnt are free again */
	e->mbits[CPURNG_EST_LAG] =
		cpurng_est_mbits(cpurng_est_lag(sym, n, k, idx, cnt));

	e->by = CPURNG_EST_MCV;
	for (j = 1; j < CPURNG_EST_COUNT; j++)
		if (e->mbits[j] < e->mbits[e->by])
			e->by = j;
	e->min_mbits = e->mbits[e->by];
	return 0;
}
