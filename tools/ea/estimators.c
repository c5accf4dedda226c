// SPDX-License-Identifier: GPL-2.0
/*
 * SP800-90B 6.3.1 - 6.3.4: the most common value estimate (any data) and
 * the collision, Markov and compression estimates (binary data only).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "ea.h"

/* 6.3.1 */
void ea_mcv(const struct ea_data *d, struct ea_result *r)
{
	size_t *count = calloc(d->k, sizeof(*count)), max = 0, i;

	r->name = "mcv";
	if (!count) {
		r->h = -1;
		return;
	}
	for (i = 0; i < d->len; i++)
		if (++count[d->s[i]] > max)
			max = count[d->s[i]];
	free(count);
	r->h = -log2(ea_upper_bound((double)max / d->len, d->len));
	snprintf(r->note, sizeof(r->note), "p-hat %.5f",
		 (double)max / d->len);
}

/* log2 of a probability, -inf for an impossible event */
static double lg2(double p)
{
	return p > 0 ? log2(p) : -INFINITY;
}

/*
 * 6.3.2 step 7: expected collision time of a binary source whose most
 * likely value has probability p.  With F(q) = Gamma(3, 1/q) q^3 e^(1/q)
 * = q + 2q^2 + 2q^3 the expression of the standard reduces to this.
 */
static double ea_collision_mean(double p)
{
	double q = 1 - p, f = q + 2 * q * q + 2 * q * q * q;
	double h = 0.5 * (1 / p - 1 / q);

	return p / (q * q) * (1 + h) * f - p / q * h;
}

/* 6.3.2 (binary) */
void ea_collision(const struct ea_data *d, struct ea_result *r)
{
	double sum = 0, sum2 = 0, mean, sd, x, lo = 0.5, hi = 1;
	size_t i = 0, v = 0;
	int it;

	r->name = "collision";
	if (d->k != 2) {
		r->h = -1;
		return;
	}
	/* steps 1-2: the samples until a value repeats: 2 or 3 for bits */
	while (i + 1 < d->len) {
		size_t t;

		if (d->s[i] == d->s[i + 1])
			t = 2;
		else if (i + 2 < d->len)
			t = 3;
		else
			break;
		sum += t;
		sum2 += (double)t * t;
		v++;
		i += t;
	}
	mean = sum / v;
	sd = sqrt((sum2 - v * mean * mean) / (v - 1));
	x = mean - EA_Z * sd / sqrt((double)v);
	/* step 7: the mean falls from 2.5 (p = 1/2) towards 2 (p -> 1) */
	if (x >= ea_collision_mean(0.5)) {
		r->h = 1;
	} else {
		for (it = 0; it < 100; it++) {
			double mid = (lo + hi) / 2;

			if (ea_collision_mean(mid) > x)
				lo = mid;
			else
				hi = mid;
		}
		r->h = -log2(lo);
	}
	snprintf(r->note, sizeof(r->note), "v %zu, X' %.5f", v, x);
}

/* 6.3.3 (binary): the most likely 128-bit sequence of a Markov model. */
void ea_markov(const struct ea_data *d, struct ea_result *r)
{
	double c[2] = { 0 }, t[2][2] = { { 0 } }, p0, p1, p[2][2];
	double lp[6], best;
	size_t i;
	int j;

	r->name = "markov";
	if (d->k != 2) {
		r->h = -1;
		return;
	}
	for (i = 0; i < d->len; i++) {
		c[d->s[i]]++;
		if (i + 1 < d->len)
			t[d->s[i]][d->s[i + 1]]++;
	}
	p0 = c[0] / d->len;
	p1 = 1 - p0;
	for (j = 0; j < 2; j++) {
		double n = t[j][0] + t[j][1];

		p[j][0] = n ? t[j][0] / n : 0;
		p[j][1] = n ? t[j][1] / n : 0;
	}
	/* log2 probabilities of the six candidates for d = 128 */
	lp[0] = lg2(p0) + 127 * lg2(p[0][0]);
	lp[1] = lg2(p0) + 64 * lg2(p[0][1]) + 63 * lg2(p[1][0]);
	lp[2] = lg2(p0) + lg2(p[0][1]) + 126 * lg2(p[1][1]);
	lp[3] = lg2(p1) + lg2(p[1][0]) + 126 * lg2(p[0][0]);
	lp[4] = lg2(p1) + 64 * lg2(p[1][0]) + 63 * lg2(p[0][1]);
	lp[5] = lg2(p1) + 127 * lg2(p[1][1]);
	best = lp[0];
	for (j = 1; j < 6; j++)
		if (lp[j] > best)
			best = lp[j];
	r->h = -best / 128;
	if (r->h > 1)
		r->h = 1;
	snprintf(r->note, sizeof(r->note), "P0 %.4f P01 %.4f P10 %.4f", p0,
		 p[0][1], p[1][0]);
}

/*
 * 6.3.4 step 7: G(z) = 1/v sum_{t=d+1}^{L'} sum_{u=1}^{t} log2(u) F(z,t,u)
 * with F = z^2 (1-z)^(u-1) for u < t and z (1-z)^(t-1) for u = t.  The
 * inner sum up to t - 1 is a running prefix, so G costs O(L').
 */
static double ea_compression_g(double z, size_t dict, size_t blocks,
			       const double *lg)
{
	double prefix = 0, pw = 1, g = 0;
	size_t u;

	/* prefix = sum_{u=1}^{t-1} log2(u) (1-z)^(u-1); pw = (1-z)^(t-1) */
	for (u = 1; u <= blocks; u++) {
		if (u > dict)
			g += z * z * prefix + z * pw * lg[u];
		prefix += lg[u] * pw;
		pw *= 1 - z;
	}
	return g / (blocks - dict);
}

#define EA_COMP_B	6	/* bits per block (6.3.4 step 1) */
#define EA_COMP_D	1000	/* dictionary blocks (6.3.4 step 2) */

static double ea_compression_expect(double p, size_t blocks,
				    const double *lg)
{
	double q = (1 - p) / ((1 << EA_COMP_B) - 1);

	return ea_compression_g(p, EA_COMP_D, blocks, lg) +
	       ((1 << EA_COMP_B) - 1) *
	       ea_compression_g(q, EA_COMP_D, blocks, lg);
}

/* 6.3.4 (binary): Maurer-style universal compression estimate. */
void ea_compression(const struct ea_data *d, struct ea_result *r)
{
	size_t blocks = d->len / EA_COMP_B, last[1 << EA_COMP_B] = { 0 };
	size_t i, v;
	double sum = 0, sum2 = 0, mean, sd, x, lo, hi, *lg;
	int it;

	r->name = "compression";
	r->h = -1;
	if (d->k != 2 || blocks <= EA_COMP_D + 1)
		return;
	lg = malloc((blocks + 1) * sizeof(*lg));
	if (!lg)
		return;
	for (i = 1; i <= blocks; i++)
		lg[i] = log2((double)i);
	v = blocks - EA_COMP_D;
	for (i = 1; i <= blocks; i++) {
		unsigned int x6 = 0, b;

		for (b = 0; b < EA_COMP_B; b++)
			x6 = x6 << 1 | d->s[(i - 1) * EA_COMP_B + b];
		if (i > EA_COMP_D) {
			double l = lg[last[x6] ? i - last[x6] : i];

			sum += l;
			sum2 += l * l;
		}
		last[x6] = i;
	}
	mean = sum / v;
	/* step 5: c = 0.5907 */
	sd = 0.5907 * sqrt(sum2 / (v - 1) - mean * mean);
	x = mean - EA_Z * sd / sqrt((double)v);
	lo = 1.0 / (1 << EA_COMP_B);
	hi = 1;
	if (x >= ea_compression_expect(lo, blocks, lg)) {
		r->h = 1;
	} else {
		for (it = 0; it < 40; it++) {
			double mid = (lo + hi) / 2;

			if (ea_compression_expect(mid, blocks, lg) > x)
				lo = mid;
			else
				hi = mid;
		}
		r->h = -log2(lo) / EA_COMP_B;
	}
	free(lg);
	snprintf(r->note, sizeof(r->note), "blocks %zu, X' %.5f", blocks, x);
}
