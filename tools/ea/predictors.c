// SPDX-License-Identifier: GPL-2.0
/*
 * SP800-90B 6.3.7 - 6.3.10: the predictor estimates (MultiMCW, Lag,
 * MultiMMC, LZ78Y).  Each predicts every sample from the ones before it;
 * the entropy follows from how often and how long in a row the predictions
 * were right (ea_predictor_entropy()).  Indices here are 0-based; the
 * comments give the standard's 1-based steps.
 */
#include <stdlib.h>
#include <string.h>

#include "ea.h"

#define NONE	UINT32_MAX

/* ---- the scoreboard shared by MultiMCW and Lag (6.3.7 step 3) ---- */

struct ea_score {
	size_t correct, run, longest, n;
	size_t *score;
	unsigned int winner, subs;
};

static int ea_score_init(struct ea_score *sc, unsigned int subs)
{
	memset(sc, 0, sizeof(*sc));
	sc->subs = subs;
	sc->score = calloc(subs, sizeof(*sc->score));
	return sc->score ? 0 : -1;
}

/* Score one sample given every subpredictor's prediction. */
static void ea_score_step(struct ea_score *sc, const uint32_t *pred,
			  uint32_t actual)
{
	unsigned int j;

	sc->n++;
	if (pred[sc->winner] == actual) {
		sc->correct++;
		if (++sc->run > sc->longest)
			sc->longest = sc->run;
	} else {
		sc->run = 0;
	}
	for (j = 0; j < sc->subs; j++) {
		if (pred[j] == actual && pred[j] != NONE) {
			sc->score[j]++;
			if (sc->score[j] >= sc->score[sc->winner])
				sc->winner = j;
		}
	}
}

/* ---- MultiMCW (6.3.7) ---- */

struct ea_heap_ent {
	uint32_t count, last, sym;
};

/* Max-heap on (count, last): the most common value, ties to the most
 * recent.  Entries go stale when a count changes; they are skipped.
 */
struct ea_mcw {
	size_t w, size, cap;
	uint32_t *count, *last;
	struct ea_heap_ent *heap;
};

static int ea_heap_less(const struct ea_heap_ent *a,
			const struct ea_heap_ent *b)
{
	return a->count < b->count ||
	       (a->count == b->count && a->last < b->last);
}

static void ea_heap_push(struct ea_mcw *m, uint32_t sym)
{
	struct ea_heap_ent e = { m->count[sym], m->last[sym], sym };
	size_t i;

	if (m->size == m->cap) {
		m->cap = m->cap ? 2 * m->cap : 1024;
		m->heap = realloc(m->heap, m->cap * sizeof(*m->heap));
	}
	i = m->size++;
	while (i && ea_heap_less(&m->heap[(i - 1) / 2], &e)) {
		m->heap[i] = m->heap[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	m->heap[i] = e;
}

static void ea_heap_pop(struct ea_mcw *m)
{
	struct ea_heap_ent e = m->heap[--m->size];
	size_t i = 0, c;

	while ((c = 2 * i + 1) < m->size) {
		if (c + 1 < m->size && ea_heap_less(&m->heap[c], &m->heap[c + 1]))
			c++;
		if (!ea_heap_less(&e, &m->heap[c]))
			break;
		m->heap[i] = m->heap[c];
		i = c;
	}
	if (m->size)
		m->heap[i] = e;
}

static uint32_t ea_mcw_predict(struct ea_mcw *m)
{
	while (m->size) {
		struct ea_heap_ent *t = &m->heap[0];

		if (t->count && t->count == m->count[t->sym] &&
		    t->last == m->last[t->sym])
			return t->sym;
		ea_heap_pop(m);
	}
	return NONE;
}

void ea_multi_mcw(const struct ea_data *d, struct ea_result *r)
{
	static const size_t w[4] = { 63, 255, 1023, 4095 };
	struct ea_mcw m[4] = { { 0 } };
	struct ea_score sc;
	uint32_t pred[4];
	size_t i;
	int j, ok = 1;

	r->name = "multi-mcw";
	r->h = -1;
	if (d->len <= w[0] + 1 || ea_score_init(&sc, 4))
		return;
	for (j = 0; j < 4; j++) {
		m[j].w = w[j];
		m[j].count = calloc(d->k, sizeof(uint32_t));
		m[j].last = calloc(d->k, sizeof(uint32_t));
		if (!m[j].count || !m[j].last)
			ok = 0;
	}
	for (i = 0; ok && i < d->len; i++) {
		/* 6.3.7 step 3: predictions start with the 64th sample */
		if (i >= w[0]) {
			for (j = 0; j < 4; j++)
				pred[j] = i >= w[j] ? ea_mcw_predict(&m[j]) :
						      NONE;
			ea_score_step(&sc, pred, d->s[i]);
		}
		/* slide every window over sample i */
		for (j = 0; j < 4; j++) {
			uint32_t in = d->s[i];

			m[j].count[in]++;
			m[j].last[in] = i;
			ea_heap_push(&m[j], in);
			if (i >= w[j]) {
				uint32_t out = d->s[i - w[j]];

				m[j].count[out]--;
				ea_heap_push(&m[j], out);
			}
		}
	}
	if (ok)
		r->h = ea_predictor_entropy(sc.n, sc.correct, sc.longest, d->k,
					    r);
	for (j = 0; j < 4; j++) {
		free(m[j].count);
		free(m[j].last);
		free(m[j].heap);
	}
	free(sc.score);
}

/* ---- Lag (6.3.8): subpredictor d predicts the sample d back ---- */

#define EA_LAG_D	128

void ea_lag(const struct ea_data *d, struct ea_result *r)
{
	uint32_t pred[EA_LAG_D];
	struct ea_score sc;
	size_t i, j;

	r->name = "lag";
	r->h = -1;
	if (d->len < 3 || ea_score_init(&sc, EA_LAG_D))
		return;
	for (i = 1; i < d->len; i++) {
		for (j = 0; j < EA_LAG_D; j++)
			pred[j] = i > j ? d->s[i - j - 1] : NONE;
		ea_score_step(&sc, pred, d->s[i]);
	}
	r->h = ea_predictor_entropy(sc.n, sc.correct, sc.longest, d->k, r);
	free(sc.score);
}

/* ---- counter tables for MultiMMC and LZ78Y ---- */

/* Open addressing, 64-bit keys (0 = empty), 64-bit values. */
struct ea_hmap {
	uint64_t *key, *val;
	size_t cap, used;
};

static uint64_t ea_mix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	return x ^ (x >> 33);
}

static uint64_t *ea_hmap_slot(struct ea_hmap *h, uint64_t key, int create)
{
	size_t i;

	if (create && 2 * (h->used + 1) > h->cap) {
		struct ea_hmap n = { .cap = h->cap ? 2 * h->cap : 1024 };

		n.key = calloc(n.cap, sizeof(uint64_t));
		n.val = calloc(n.cap, sizeof(uint64_t));
		for (i = 0; i < h->cap; i++)
			if (h->key[i])
				*ea_hmap_slot(&n, h->key[i], 1) = h->val[i];
		free(h->key);
		free(h->val);
		*h = n;
	}
	if (!h->cap)
		return NULL;
	for (i = ea_mix(key) & (h->cap - 1);; i = (i + 1) & (h->cap - 1)) {
		if (h->key[i] == key)
			return &h->val[i];
		if (!h->key[i]) {
			if (!create)
				return NULL;
			h->key[i] = key;
			h->used++;
			return &h->val[i];
		}
	}
}

static void ea_hmap_free(struct ea_hmap *h)
{
	free(h->key);
	free(h->val);
}

/*
 * A context (a tuple of earlier samples, hashed with its length) has counts
 * of the values that followed it; ctx keeps each context's best value
 * (count << 32 | value, ties to the larger value), cnt each count.
 */
struct ea_ctr {
	struct ea_hmap ctx, cnt;
	size_t entries;
};

static uint64_t ea_key(uint64_t h)
{
	return h ? h : 1;
}

/*
 * Hashes of the tuples ending at s[end]: h[j - 1] for the j samples
 * s[end - j + 1 .. end], j = 1..max, built backwards from s[end] so that
 * each length costs one mix.  Tuples that would start before s[0] are not
 * hashed (h = 0).
 */
static void ea_tuple_hashes(const uint32_t *s, size_t end, size_t max,
			    uint64_t *h)
{
	uint64_t x = 0x9e3779b97f4a7c15ULL;
	size_t j;

	for (j = 1; j <= max; j++) {
		if (j > end + 1) {
			h[j - 1] = 0;
			continue;
		}
		x = ea_mix(x ^ s[end - j + 1]);
		h[j - 1] = ea_key(x);
	}
}

static int ea_ctr_has(struct ea_ctr *t, uint64_t ctx)
{
	return !!ea_hmap_slot(&t->ctx, ctx, 0);
}

static void ea_ctr_add_ctx(struct ea_ctr *t, uint64_t ctx)
{
	ea_hmap_slot(&t->ctx, ctx, 1);
}

/* Count value y after ctx; a new (ctx, y) pair only while below @limit. */
static void ea_ctr_inc(struct ea_ctr *t, uint64_t ctx, uint32_t y,
		       size_t limit)
{
	uint64_t key = ea_key(ea_mix(ctx) ^ y), *c, *best;

	c = ea_hmap_slot(&t->cnt, key, 0);
	if (!c) {
		if (t->entries >= limit)
			return;
		c = ea_hmap_slot(&t->cnt, key, 1);
		t->entries++;
	}
	(*c)++;
	best = ea_hmap_slot(&t->ctx, ctx, 1);
	if ((*c << 32 | y) > *best)
		*best = *c << 32 | y;
}

/* Most frequent value after ctx (ties: larger value); 0 count if none. */
static uint32_t ea_ctr_best(struct ea_ctr *t, uint64_t ctx, uint64_t *count)
{
	uint64_t *best = ea_hmap_slot(&t->ctx, ctx, 0);

	*count = best ? *best >> 32 : 0;
	return *count ? (uint32_t)*best : NONE;
}

static void ea_ctr_free(struct ea_ctr *t)
{
	ea_hmap_free(&t->ctx);
	ea_hmap_free(&t->cnt);
}

/* ---- MultiMMC (6.3.9): Markov models of order 1 to 16 ---- */

#define EA_MMC_D		16
#define EA_MMC_MAX_ENTRIES	100000

void ea_multi_mmc(const struct ea_data *d, struct ea_result *r)
{
	uint64_t count, cur[EA_MMC_D], prev[EA_MMC_D];
	struct ea_ctr m[EA_MMC_D];
	uint32_t pred[EA_MMC_D];
	struct ea_score sc;
	size_t i, j;

	r->name = "multi-mmc";
	r->h = -1;
	memset(m, 0, sizeof(m));
	if (d->len < 3 || ea_score_init(&sc, EA_MMC_D))
		return;
	/* the contexts ending at s[i - 2] are the previous step's */
	ea_tuple_hashes(d->s, 0, EA_MMC_D, prev);
	for (i = 2; i < d->len; i++) {
		ea_tuple_hashes(d->s, i - 1, EA_MMC_D, cur);
		for (j = 0; j < EA_MMC_D; j++) {
			size_t order = j + 1;

			/* step 3a: learn that s[i-1] followed s[i-1-order ..] */
			if (order < i)
				ea_ctr_inc(&m[j], prev[j], d->s[i - 1],
					   EA_MMC_MAX_ENTRIES);
			/* step 3b: predict from the last @order samples */
			pred[j] = order <= i ? ea_ctr_best(&m[j], cur[j], &count) :
					       NONE;
		}
		memcpy(prev, cur, sizeof(prev));
		ea_score_step(&sc, pred, d->s[i]);
	}
	r->h = ea_predictor_entropy(sc.n, sc.correct, sc.longest, d->k, r);
	for (j = 0; j < EA_MMC_D; j++)
		ea_ctr_free(&m[j]);
	free(sc.score);
}

/* ---- LZ78Y (6.3.10) ---- */

#define EA_LZ_B		16
#define EA_LZ_MAX_DICT	65536

void ea_lz78y(const struct ea_data *d, struct ea_result *r)
{
	struct ea_ctr t;
	size_t i, j, dict = 0, n = 0, correct = 0, run = 0, longest = 0;
	uint64_t count, maxcount, cur[EA_LZ_B], prev[EA_LZ_B];
	uint32_t pred, y;

	r->name = "lz78y";
	r->h = -1;
	memset(&t, 0, sizeof(t));
	if (d->len <= EA_LZ_B + 2)
		return;
	ea_tuple_hashes(d->s, EA_LZ_B - 1, EA_LZ_B, prev);
	for (i = EA_LZ_B + 1; i < d->len; i++) {
		ea_tuple_hashes(d->s, i - 1, EA_LZ_B, cur);
		/* step 3a: grow the dictionary with the tuples before s[i-1] */
		for (j = EA_LZ_B; j >= 1; j--) {
			uint64_t tup = prev[j - 1];

			if (!ea_ctr_has(&t, tup) && dict < EA_LZ_MAX_DICT) {
				ea_ctr_add_ctx(&t, tup);
				dict++;
			}
			if (ea_ctr_has(&t, tup))
				ea_ctr_inc(&t, tup, d->s[i - 1], SIZE_MAX);
		}
		/* step 3b: the best continuation among the recent tuples */
		pred = NONE;
		maxcount = 0;
		for (j = EA_LZ_B; j >= 1; j--) {
			y = ea_ctr_best(&t, cur[j - 1], &count);
			if (count > maxcount) {
				maxcount = count;
				pred = y;
			}
		}
		memcpy(prev, cur, sizeof(prev));
		n++;
		if (pred == d->s[i]) {
			correct++;
			if (++run > longest)
				longest = run;
		} else {
			run = 0;
		}
	}
	r->h = ea_predictor_entropy(n, correct, longest, d->k, r);
	ea_ctr_free(&t);
}
