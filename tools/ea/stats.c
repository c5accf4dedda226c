// SPDX-License-Identifier: GPL-2.0
/*
 * Statistics shared by the SP800-90B estimators: the 99 % upper bound on a
 * proportion, the binomial critical value, and the global and local
 * predictor performance of 6.3.7 - 6.3.10.
 */
#include <math.h>
#include <stdio.h>

#include "ea.h"

/* p_u = min(1, p + 2.576 sqrt(p (1 - p) / (n - 1))), as in 6.3.1 step 3. */
double ea_upper_bound(double p, size_t n)
{
	double u = p + EA_Z * sqrt(p * (1 - p) / (double)(n - 1));

	return u > 1 ? 1 : u;
}

/* Smallest c with P(X <= c) >= conf for X ~ Binomial(n, p), in log space. */
unsigned long ea_critbinom(unsigned long n, double p, double conf)
{
	double cdf = 0, lp = log(p), lq = log1p(-p);
	unsigned long c;

	if (p >= 1)
		return n;
	for (c = 0; c <= n; c++) {
		cdf += exp(lgamma(n + 1.0) - lgamma(c + 1.0) -
			   lgamma(n - c + 1.0) + c * lp + (n - c) * lq);
		if (cdf >= conf)
			return c;
	}
	return n;
}

/*
 * Probability that N trials with success probability p contain no run of
 * r successes (the approximation of 6.3.7 step 6): x from ten iterations of
 * x = 1 + q p^r x^(r + 1), then (1 - p x) / ((r + 1 - r x) q) / x^(N + 1).
 * Computed in log space for large N.
 */
static double ea_no_run_prob(double p, size_t r, size_t n)
{
	double q = 1 - p, x = 1, lg;
	int i;

	for (i = 0; i < 10; i++)
		x = 1 + q * pow(p, r) * pow(x, r + 1);
	lg = log1p(-p * x) - log((r + 1 - r * x) * q) - (n + 1) * log(x);
	return exp(lg);
}

/*
 * 6.3.7 steps 5-7 (shared by every predictor): global performance
 * P_global' (upper 99 % bound of correct / N, or 1 - 0.01^(1/N) with no
 * correct prediction), local performance P_local (the p for which a run of
 * r = longest run + 1 is unlikely at 99 %), entropy -log2 of the largest
 * of those and 1/k.
 */
double ea_predictor_entropy(size_t n, size_t correct, size_t longest_run,
			    uint32_t k, struct ea_result *r)
{
	double pg = (double)correct / n, pgu, lo = 0, hi = 1, pl, p;
	size_t run = longest_run + 1;
	int i;

	pgu = correct ? ea_upper_bound(pg, n) : 1 - pow(0.01, 1.0 / n);
	/* ea_no_run_prob falls as p grows: find where it crosses 0.99 */
	for (i = 0; i < 100; i++) {
		double mid = (lo + hi) / 2;

		if (ea_no_run_prob(mid, run, n) > 0.99)
			lo = mid;
		else
			hi = mid;
	}
	pl = lo;
	p = pgu > pl ? pgu : pl;
	if (p < 1.0 / k)
		p = 1.0 / k;
	snprintf(r->note, sizeof(r->note),
		 "N %zu, correct %zu, P_global' %.4f, run %zu, P_local %.4f",
		 n, correct, pgu, longest_run, pl);
	return -log2(p);
}
