// SPDX-License-Identifier: GPL-2.0
/*
 * SP800-90B 6.3.5 (t-Tuple) and 6.3.6 (longest repeated substring).
 *
 * Both need, for every tuple length W, the count of the most common
 * W-tuple and the number of position pairs whose W-tuples are equal.  A
 * suffix array with its LCP array gives both at once: positions sharing a
 * W-prefix are runs of adjacent suffixes whose LCP is at least W.  Going
 * from the longest LCP down to 1 and uniting adjacent suffixes as W drops
 * (union-find), the component sizes are the tuple counts; each union of
 * groups of sizes a and b adds a * b pairs.  O(L log L) overall, even for
 * periodic data whose repeated substrings are as long as the input.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ea.h"

/* Suffix array by prefix doubling with counting sorts on ranks. */
static uint32_t *ea_suffix_array(const uint32_t *s, size_t n, uint32_t k)
{
	uint32_t *sa = malloc(n * sizeof(*sa)), *tmp = malloc(n * sizeof(*tmp));
	uint32_t *rank = malloc(n * sizeof(*rank)), *nr = malloc(n * sizeof(*nr));
	uint32_t *cnt = malloc(((n > k ? n : k) + 2) * sizeof(*cnt));
	size_t i, h, classes;

	if (!sa || !tmp || !rank || !nr || !cnt)
		goto fail;
	for (i = 0; i < n; i++)
		rank[i] = s[i];
	classes = k;
	for (h = 1;; h <<= 1) {
		/* sort by (rank[i], rank[i + h]); missing second key is -1 */
		memset(cnt, 0, (classes + 1) * sizeof(*cnt));
		for (i = 0; i < n; i++)
			cnt[i + h < n ? rank[i + h] + 1 : 0]++;
		for (i = 1; i <= classes; i++)
			cnt[i] += cnt[i - 1];
		for (i = n; i-- > 0;)
			tmp[--cnt[i + h < n ? rank[i + h] + 1 : 0]] = i;
		memset(cnt, 0, (classes + 1) * sizeof(*cnt));
		for (i = 0; i < n; i++)
			cnt[rank[i]]++;
		for (i = 1; i < classes; i++)
			cnt[i] += cnt[i - 1];
		for (i = n; i-- > 0;)
			sa[--cnt[rank[tmp[i]]]] = tmp[i];
		nr[sa[0]] = 0;
		for (i = 1; i < n; i++) {
			size_t a = sa[i - 1], b = sa[i];
			int same = rank[a] == rank[b] &&
				   (a + h < n ? (long)rank[a + h] : -1) ==
				   (b + h < n ? (long)rank[b + h] : -1);

			nr[b] = nr[a] + !same;
		}
		memcpy(rank, nr, n * sizeof(*rank));
		classes = rank[sa[n - 1]] + 1;
		if (classes == n || h >= n)
			break;
	}
	free(tmp);
	free(rank);
	free(nr);
	free(cnt);
	return sa;
fail:
	free(sa);
	free(tmp);
	free(rank);
	free(nr);
	free(cnt);
	return NULL;
}

/* Kasai: lcp[i] = LCP of suffixes sa[i] and sa[i + 1]. */
static uint32_t *ea_lcp(const uint32_t *s, size_t n, const uint32_t *sa)
{
	uint32_t *rank = malloc(n * sizeof(*rank)), *lcp = calloc(n, sizeof(*lcp));
	size_t i, h = 0;

	if (!rank || !lcp) {
		free(rank);
		free(lcp);
		return NULL;
	}
	for (i = 0; i < n; i++)
		rank[sa[i]] = i;
	for (i = 0; i < n; i++) {
		if (rank[i] + 1 < n) {
			size_t j = sa[rank[i] + 1];

			while (i + h < n && j + h < n && s[i + h] == s[j + h])
				h++;
			lcp[rank[i]] = h;
			if (h)
				h--;
		} else {
			h = 0;
		}
	}
	free(rank);
	return lcp;
}

static uint32_t ea_find(uint32_t *parent, uint32_t x)
{
	while (parent[x] != x) {
		parent[x] = parent[parent[x]];
		x = parent[x];
	}
	return x;
}

void ea_tuple_lrs(const struct ea_data *d, struct ea_result *tuple,
		  struct ea_result *lrs)
{
	size_t n = d->len, i, w, maxlcp = 0, t = 0, u, nu;
	uint32_t *sa = NULL, *lcp = NULL, *parent = NULL, *size = NULL;
	uint32_t *order = NULL, *start = NULL, *maxcount = NULL;
	double *pairs = NULL, cur_pairs = 0, best, pu;
	uint32_t cur_max = 1;

	tuple->name = "t-tuple";
	lrs->name = "lrs";
	tuple->h = -1;
	lrs->h = -1;
	if (n >= UINT32_MAX)
		return;
	sa = ea_suffix_array(d->s, n, d->k);
	lcp = sa ? ea_lcp(d->s, n, sa) : NULL;
	if (!lcp)
		goto out;
	for (i = 0; i + 1 < n; i++)
		if (lcp[i] > maxlcp)
			maxlcp = lcp[i];

	/* bucket the adjacent pairs by LCP, longest first */
	start = calloc(maxlcp + 2, sizeof(*start));
	order = malloc(n * sizeof(*order));
	parent = malloc(n * sizeof(*parent));
	size = malloc(n * sizeof(*size));
	maxcount = calloc(maxlcp + 2, sizeof(*maxcount));
	pairs = calloc(maxlcp + 2, sizeof(*pairs));
	if (!start || !order || !parent || !size || !maxcount || !pairs)
		goto out;
	for (i = 0; i + 1 < n; i++)
		start[lcp[i]]++;
	for (w = maxlcp + 1; w-- > 0;)
		start[w] += start[w + 1];	/* start[w]: pairs with lcp >= w */
	/* afterwards start[w] counts lcp >= w + 1: lcp == w is
	 * order[start[w] .. start[w - 1] - 1]
	 */
	for (i = 0; i + 1 < n; i++)
		order[--start[lcp[i]]] = i;
	for (i = 0; i < n; i++) {
		parent[i] = i;
		size[i] = 1;
	}
	for (w = maxlcp; w >= 1; w--) {
		for (i = start[w]; i < start[w - 1]; i++) {
			uint32_t a = ea_find(parent, order[i]);
			uint32_t b = ea_find(parent, order[i] + 1);

			cur_pairs += (double)size[a] * size[b];
			if (size[a] < size[b]) {
				uint32_t tmp = a;

				a = b;
				b = tmp;
			}
			parent[b] = a;
			size[a] += size[b];
			if (size[a] > cur_max)
				cur_max = size[a];
		}
		maxcount[w] = cur_max;
		pairs[w] = cur_pairs;
	}

	/* 6.3.5: t = longest W whose most common tuple occurs >= 35 times */
	for (w = 1; w <= maxlcp && maxcount[w] >= 35; w++)
		t = w;
	best = 0;
	for (w = 1; w <= t; w++) {
		double p = pow((double)maxcount[w] / (n - w + 1), 1.0 / w);

		if (p > best)
			best = p;
	}
	if (t) {
		pu = ea_upper_bound(best, n);
		tuple->h = -log2(pu);
		snprintf(tuple->note, sizeof(tuple->note),
			 "t %zu, p-hat %.5f", t, best);
	} else {
		/* no tuple occurs 35 times: the symbols themselves are rare */
		snprintf(tuple->note, sizeof(tuple->note),
			 "no value occurs 35 times");
	}

	/* 6.3.6: W from u = t + 1 to the longest repeated substring nu */
	u = t + 1;
	nu = maxlcp;
	best = 0;
	for (w = u; w <= nu; w++) {
		double m = n - w + 1;
		double p = pow(pairs[w] / (m * (m - 1) / 2), 1.0 / w);

		if (p > best)
			best = p;
	}
	if (u <= nu) {
		lrs->h = -log2(ea_upper_bound(best, n));
		snprintf(lrs->note, sizeof(lrs->note),
			 "u %zu, nu %zu, p-hat %.5f", u, nu, best);
	} else {
		snprintf(lrs->note, sizeof(lrs->note),
			 "no repeated tuple longer than %zu", t);
	}
out:
	free(sa);
	free(lcp);
	free(start);
	free(order);
	free(parent);
	free(size);
	free(maxcount);
	free(pairs);
}
