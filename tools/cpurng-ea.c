// SPDX-License-Identifier: GPL-2.0
/*
 * cpurng-ea: SP800-90B non-IID min-entropy assessment of a capture file.
 * See cpurng-ea.1.
 */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ea/ea.h"
#include "../include/cpurng/jitter_estimate.h"

struct options {
	const char *field;
	int lsb, json, restart, diff, all_bits;
	unsigned int quick;
	double initial;
};

/*
 * SP800-90B 6.3 assesses the first 10^6 bits of the bitstring; NIST's
 * ea_non_iid does the same unless run with -a (every bit).
 */
#define EA_BITSTRING_MAX	1000000UL

int ea_run_all(const struct ea_data *d, struct ea_result *out)
{
	int n = 0, i;

	ea_mcv(d, &out[n++]);
	ea_collision(d, &out[n++]);
	ea_markov(d, &out[n++]);
	ea_compression(d, &out[n++]);
	ea_tuple_lrs(d, &out[n], &out[n + 1]);
	n += 2;
	ea_multi_mcw(d, &out[n++]);
	ea_lag(d, &out[n++]);
	ea_multi_mmc(d, &out[n++]);
	ea_lz78y(d, &out[n++]);
	/* -log2(1) is -0.0: a certain outcome reads better as 0 */
	for (i = 0; i < n; i++)
		if (out[i].h == 0)
			out[i].h = 0;
	return n;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * The values of one field, contiguous: @count values from @rec with stride
 * @stride, reduced to their low @lsb bits when @lsb is not 0.
 */
static uint64_t *field_values(const uint64_t *rec, size_t count, size_t stride,
			      int lsb)
{
	uint64_t *v = malloc(count * sizeof(*v));
	size_t i;

	for (i = 0; v && i < count; i++)
		v[i] = lsb ? rec[i * stride] & ((1ULL << lsb) - 1) :
		       rec[i * stride];
	return v;
}

/*
 * Symbols of @n values: the low bits themselves (@lsb), or (lsb 0) every
 * distinct raw value mapped to its rank, as ea_non_iid translates its
 * samples.
 */
static uint32_t *symbols(const uint64_t *v, size_t n, int lsb, uint32_t *k)
{
	uint32_t *s = malloc(n * sizeof(*s));
	uint64_t *sorted;
	size_t i, u;

	if (!s)
		return NULL;
	if (lsb) {
		for (i = 0; i < n; i++)
			s[i] = v[i];
		*k = 1U << lsb;
		return s;
	}
	sorted = malloc(n * sizeof(*sorted));
	if (!sorted) {
		free(s);
		return NULL;
	}
	memcpy(sorted, v, n * sizeof(*sorted));
	qsort(sorted, n, sizeof(*sorted), cmp_u64);
	for (i = u = 0; i < n; i++)
		if (!i || sorted[i] != sorted[u - 1])
			sorted[u++] = sorted[i];
	for (i = 0; i < n; i++)
		s[i] = (uint64_t *)bsearch(&v[i], sorted, u, sizeof(*sorted),
					   cmp_u64) - sorted;
	*k = u;
	free(sorted);
	return s;
}

/*
 * The bitstring of SP800-90B 6.3: each sample's @width bits, most
 * significant first, of the raw (not rank-mapped) value, as ea_non_iid
 * builds it.  At most @max bits, i.e. the first max / width samples.
 */
static uint32_t *bitstring(const uint64_t *v, size_t n, int width, size_t max,
			   size_t *nbits)
{
	size_t i, len = n * width < max ? n * width : max;
	uint32_t *b = malloc(len * sizeof(*b));

	for (i = 0; b && i < len; i++)
		b[i] = v[i / width] >> (width - 1 - i % width) & 1;
	*nbits = len;
	return b;
}

/*
 * Bits per sample: @lsb when low bits are taken, otherwise the highest bit
 * in use by any sample (ea_non_iid's rule for its 1 - 8 bit samples,
 * applied to the wider raw values).
 */
static int sample_width(const uint64_t *v, size_t n, int lsb)
{
	uint64_t all = 0;
	size_t i;
	int w = 0;

	if (lsb)
		return lsb;
	for (i = 0; i < n; i++)
		all |= v[i];
	while (w < 64 && all >> w)
		w++;
	return w;
}

struct assessment {
	struct ea_result sym[10], bit[10];
	int nsym, nbit, width;
	size_t nbits;
	double h, h_original, h_bitstring;
	const char *by;
};

/*
 * SP800-90B 6.3: every applicable estimator on the symbols (H_original)
 * and, for non-binary samples, on the bitstring (H_bitstring); the result
 * is min(H_original, width * H_bitstring).  @v holds the n values (low
 * bits already taken), @s their symbols over k.
 */
static void assess(const uint64_t *v, const uint32_t *s, size_t n, uint32_t k,
		   int lsb, int all_bits, struct assessment *a)
{
	struct ea_data d = { s, n, k };
	int i;

	memset(a, 0, sizeof(*a));
	a->width = sample_width(v, n, lsb);
	a->h = lsb ? lsb : log2(k);
	a->by = "alphabet size";
	a->nsym = ea_run_all(&d, a->sym);
	for (i = 0; i < a->nsym; i++) {
		if (a->sym[i].h >= 0 && a->sym[i].h < a->h) {
			a->h = a->sym[i].h;
			a->by = a->sym[i].name;
		}
	}
	a->h_original = a->h;
	a->h_bitstring = 1;
	if (a->width > 1) {
		uint32_t *b = bitstring(v, n, a->width,
					all_bits ? SIZE_MAX : EA_BITSTRING_MAX,
					&a->nbits);
		struct ea_data bd = { b, a->nbits, 2 };

		if (!b)
			return;
		a->nbit = ea_run_all(&bd, a->bit);
		for (i = 0; i < a->nbit; i++) {
			if (a->bit[i].h >= 0 && a->bit[i].h < a->h_bitstring)
				a->h_bitstring = a->bit[i].h;
			if (a->bit[i].h >= 0 && a->width * a->bit[i].h < a->h) {
				a->h = a->width * a->bit[i].h;
				a->by = a->bit[i].name;
			}
		}
		free(b);
	}
}

static void print_results(const char *what, const struct ea_result *r, int n,
			  double scale, int json, int *first)
{
	int i;

	for (i = 0; i < n; i++) {
		if (json) {
			printf("%s\n    {\"set\": \"%s\", \"estimator\": \"%s\", "
			       "\"h\": %.6f, \"note\": \"%s\"}",
			       *first ? "" : ",", what, r[i].name,
			       r[i].h < 0 ? -1 : r[i].h * scale, r[i].note);
			*first = 0;
		} else if (r[i].h < 0) {
			printf("  %-10s %-12s      n/a   %s\n", what, r[i].name,
			       r[i].note);
		} else {
			printf("  %-10s %-12s %8.4f   %s\n", what, r[i].name,
			       r[i].h * scale, r[i].note);
		}
	}
}

static void report(const struct noise_file *f, const struct options *o,
		   size_t n, uint32_t k, const struct assessment *a)
{
	int first = 1;

	if (o->json) {
		printf("{\n  \"source\": \"%s\", \"where\": \"%s\", \"mode\": \"%s\",\n",
		       f->source, f->where, f->mode);
		printf("  \"field\": \"%s\", \"diff\": %s, \"lsb\": %d, "
		       "\"samples\": %zu, \"alphabet\": %u,\n",
		       o->field, o->diff ? "true" : "false", o->lsb, n, k);
		printf("  \"h_original\": %.6f, \"h_bitstring\": %.6f, "
		       "\"bitstring_width\": %d, \"bitstring_bits\": %zu,\n",
		       a->h_original, a->h_bitstring, a->width, a->nbits);
		printf("  \"min_entropy\": %.6f, \"by\": \"%s\",\n  \"estimates\": [",
		       a->h, a->by);
		print_results("symbols", a->sym, a->nsym, 1, 1, &first);
		print_results("bitstring", a->bit, a->nbit, a->width, 1, &first);
		printf("\n  ]\n}\n");
		return;
	}
	printf("%s%s, field %s%s, %s, %zu samples, %u symbols\n", f->header,
	       f->mode, o->field, o->diff ? " (increments)" : "",
	       o->lsb ? (o->lsb == 1 ? "1 LSB" : o->lsb == 4 ? "4 LSBs" : "8 LSBs") :
	       "raw values", n, k);
	printf("  set        estimator    bits/sample\n");
	print_results("symbols", a->sym, a->nsym, 1, 0, &first);
	print_results("bitstring", a->bit, a->nbit, a->width, 0, &first);
	if (a->nbit)
		printf("H_original %.4f; bitstring of %zu bits, %d per sample: "
		       "%d x H_bitstring %.4f = %.4f\n", a->h_original, a->nbits,
		       a->width, a->width, a->h_bitstring,
		       a->width * a->h_bitstring);
	printf("min-entropy: %.4f bits per sample (%s)\n", a->h, a->by);
}

/*
 * SP800-90B 3.1.4.3: the most a value may repeat among n samples of a row
 * or column under initial estimate h, CRITBINOM(n, 2^-h, 1 - alpha) with
 * alpha = 0.01 / 2000 = 0.000005 (1000 rows and 1000 columns tested).
 */
static unsigned long restart_cutoff(size_t n, double h)
{
	return ea_critbinom(n, pow(2, -h), 1 - 0.000005);
}

/*
 * 3.1.4.3 acceptance of h: every row (c samples) and column (r samples)
 * within its cutoff, and both row and column estimates >= h / 2.
 */
static int restart_accepts(double h, size_t r, size_t c, size_t row_max,
			   size_t col_max, double h_rows, double h_cols)
{
	return row_max <= restart_cutoff(c, h) &&
	       col_max <= restart_cutoff(r, h) &&
	       h_rows >= h / 2 && h_cols >= h / 2;
}

/* SP800-90B 3.1.4: restart sanity check and row/column assessments. */
static int restart_tests(const struct noise_file *f, const struct options *o,
			 int field)
{
	size_t r = f->rows, c = f->samples, i, j, worst_row = 0, worst_col = 0;
	uint32_t k, *s = NULL, *col, *cnt = NULL;
	uint64_t *v, *vcol;
	struct assessment rows, cols;
	unsigned long cut_row, cut_col;
	double h, lo, hi, accepted;
	int sane, pass;

	v = field_values(f->rec + field, r * c, f->nfields, o->lsb);
	vcol = malloc(r * c * sizeof(*vcol));
	col = malloc(r * c * sizeof(*col));
	if (v)
		s = symbols(v, r * c, o->lsb, &k);
	if (s)
		cnt = calloc(k, sizeof(*cnt));
	if (!v || !vcol || !s || !col || !cnt) {
		fprintf(stderr, "cpurng-ea: out of memory\n");
		free(v);
		free(vcol);
		free(s);
		free(col);
		free(cnt);
		return 2;
	}
	/* 3.1.4.3: the most common value of each row and each column */
	cut_row = restart_cutoff(c, o->initial);
	cut_col = restart_cutoff(r, o->initial);
	for (i = 0; i < r; i++) {
		size_t m = 0;

		memset(cnt, 0, k * sizeof(*cnt));
		for (j = 0; j < c; j++)
			if (++cnt[s[i * c + j]] > m)
				m = cnt[s[i * c + j]];
		worst_row = m > worst_row ? m : worst_row;
	}
	for (j = 0; j < c; j++) {
		size_t m = 0;

		memset(cnt, 0, k * sizeof(*cnt));
		for (i = 0; i < r; i++) {
			col[j * r + i] = s[i * c + j];
			vcol[j * r + i] = v[i * c + j];
			if (++cnt[s[i * c + j]] > m)
				m = cnt[s[i * c + j]];
		}
		worst_col = m > worst_col ? m : worst_col;
	}
	sane = worst_row <= cut_row && worst_col <= cut_col;
	/* 3.1.4.2: row and column estimates of the restart matrix */
	assess(v, s, r * c, k, o->lsb, o->all_bits, &rows);
	assess(vcol, col, r * c, k, o->lsb, o->all_bits, &cols);
	/* 3.1.4.3: validated if sane and both are at least H_I / 2 */
	pass = restart_accepts(o->initial, r, c, worst_row, worst_col,
			       rows.h, cols.h);
	/*
	 * Where H_I is rejected, the largest H_I the same data would accept
	 * tells a reviewer what claim the restarts support.  Acceptance only
	 * gets easier as H_I falls (larger cutoffs, smaller H_I / 2), so
	 * bisect; the data themselves are not re-assessed.
	 */
	lo = 0;
	hi = o->initial;
	for (i = 0; i < 40 && !pass; i++) {
		double mid = (lo + hi) / 2;

		if (restart_accepts(mid, r, c, worst_row, worst_col,
				    rows.h, cols.h))
			lo = mid;
		else
			hi = mid;
	}
	accepted = pass ? o->initial : lo;
	h = accepted;
	if (rows.h < h)
		h = rows.h;
	if (cols.h < h)
		h = cols.h;
	if (o->json) {
		printf("{\"restarts\": %zu, \"samples\": %zu, \"initial\": %.6f, ",
		       r, c, o->initial);
		printf("\"row_max\": %zu, \"row_cutoff\": %lu, ", worst_row, cut_row);
		printf("\"col_max\": %zu, \"col_cutoff\": %lu, \"sane\": %s, ",
		       worst_col, cut_col, sane ? "true" : "false");
		printf("\"rows\": {\"h\": %.6f, \"by\": \"%s\"}, ", rows.h, rows.by);
		printf("\"cols\": {\"h\": %.6f, \"by\": \"%s\"}, ", cols.h, cols.by);
		printf("\"passed\": %s, \"accepted_initial\": %.6f, ",
		       pass ? "true" : "false", accepted);
		printf("\"min_entropy\": ");
		if (pass)
			printf("%.6f}\n", h);
		else
			printf("null, \"min_entropy_at_accepted\": %.6f}\n", h);
	} else {
		printf("%srestart test (SP800-90B 3.1.4): %zu restarts x %zu samples, "
		       "field %s, %d LSBs (0 = raw)\n",
		       f->header, r, c, o->field, o->lsb);
		printf("  initial estimate H_I %.4f\n", o->initial);
		printf("  sanity check: most common value %zu times in a row "
		       "(cutoff %lu), %zu in a column (cutoff %lu): %s\n",
		       worst_row, cut_row, worst_col, cut_col,
		       sane ? "passed" : "FAILED");
		printf("  row data: %.4f bits (%s); column data: %.4f bits (%s)\n",
		       rows.h, rows.by, cols.h, cols.by);
		printf("  validation (sane, row and column >= H_I / 2): %s\n",
		       pass ? "passed" : "FAILED");
		if (pass)
			printf("min-entropy: %.4f bits per sample (after restart tests)\n",
			       h);
		else
			printf("  largest H_I these restarts accept: %.4f "
			       "(min-entropy %.4f there)\n"
			       "min-entropy: none (the restart test rejects H_I %.4f)\n",
			       accepted, h, o->initial);
	}
	free(v);
	free(vcol);
	free(s);
	free(col);
	free(cnt);
	return pass ? 0 : 1;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * --quick N: the module's own in-kernel estimate (crypto/jitter_estimate.c)
 * of every block of N samples, so a reviewer can set it beside the full
 * assessment of the same capture.
 */
static int quick_estimates(const uint64_t *v, size_t n, const struct options *o)
{
	size_t blocks = n / o->quick, b;
	uint32_t *scratch = malloc(CPURNG_EST_SCRATCH_WORDS(o->quick) *
				   sizeof(*scratch));
	uint32_t *est = calloc(blocks ? blocks : 1, sizeof(*est));
	struct cpurng_estimate e, first = { 0 };
	int ret = 0;

	if (!scratch || !est || !blocks) {
		fprintf(stderr, "cpurng-ea: %s\n", blocks ? "out of memory" :
			"fewer samples than one --quick block");
		ret = blocks ? 1 : 2;
		goto out;
	}
	for (b = 0; b < blocks; b++) {
		cpurng_estimate((const u64 *)v + b * o->quick, o->quick,
				scratch, &e);
		est[b] = e.min_mbits;
		if (!b)
			first = e;
	}
	qsort(est, blocks, sizeof(*est), cmp_u32);
	if (o->json) {
		printf("{\"quick\": %u, \"blocks\": %zu, \"first\": {\"h\": %.3f, "
		       "\"by\": \"%s\", \"mcv\": %.3f, \"t_tuple\": %.3f, "
		       "\"lag\": %.3f, \"distinct\": %u, \"t\": %u}, ",
		       o->quick, blocks, first.min_mbits / 1000.0,
		       cpurng_est_name(first.by),
		       first.mbits[CPURNG_EST_MCV] / 1000.0,
		       first.mbits[CPURNG_EST_TUPLE] == ~0U ? -1 :
		       first.mbits[CPURNG_EST_TUPLE] / 1000.0,
		       first.mbits[CPURNG_EST_LAG] / 1000.0, first.distinct,
		       first.tuple_t);
		printf("\"min\": %.3f, \"median\": %.3f, \"max\": %.3f}\n",
		       est[0] / 1000.0, est[blocks / 2] / 1000.0,
		       est[blocks - 1] / 1000.0);
	} else {
		printf("in-kernel estimate (mcv, t-tuple, lag global) of %zu blocks "
		       "of %u samples, bits/sample:\n", blocks, o->quick);
		printf("  first block %.3f (%s; mcv %.3f, lag %.3f, t %u, %u values)\n",
		       first.min_mbits / 1000.0, cpurng_est_name(first.by),
		       first.mbits[CPURNG_EST_MCV] / 1000.0,
		       first.mbits[CPURNG_EST_LAG] / 1000.0, first.tuple_t,
		       first.distinct);
		printf("  min %.3f, median %.3f, max %.3f\n", est[0] / 1000.0,
		       est[blocks / 2] / 1000.0, est[blocks - 1] / 1000.0);
	}
out:
	free(scratch);
	free(est);
	return ret;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "field", required_argument, NULL, 'f' },
		{ "lsb", required_argument, NULL, 'l' },
		{ "restart", no_argument, NULL, 'r' },
		{ "initial", required_argument, NULL, 'i' },
		{ "diff", no_argument, NULL, 'd' },
		{ "json", no_argument, NULL, 'j' },
		{ "all-bits", no_argument, NULL, 'a' },
		{ "quick", required_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct options o = { .field = NULL };
	struct noise_file f;
	struct assessment a;
	uint32_t *s, k;
	uint64_t *v;
	size_t n;
	int c, field;

	while ((c = getopt_long(argc, argv, "f:l:ri:djaq:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'f':
			o.field = optarg;
			break;
		case 'l':
			o.lsb = atoi(optarg);
			break;
		case 'r':
			o.restart = 1;
			break;
		case 'i':
			o.initial = atof(optarg);
			break;
		case 'd':
			o.diff = 1;
			break;
		case 'j':
			o.json = 1;
			break;
		case 'a':
			o.all_bits = 1;
			break;
		case 'q':
			o.quick = strtoul(optarg, NULL, 10);
			if (o.quick < CPURNG_EST_MIN_SAMPLES ||
			    o.quick > CPURNG_EST_MAX_SAMPLES) {
				fprintf(stderr, "cpurng-ea: --quick takes %u to %u samples\n",
					CPURNG_EST_MIN_SAMPLES,
					CPURNG_EST_MAX_SAMPLES);
				return 2;
			}
			break;
		case 'h':
			printf("Usage: cpurng-ea [--field NAME] [--diff] [--lsb 0|1|4|8]"
			       " [--all-bits] [--json] FILE\n"
			       "       cpurng-ea --restart --initial H [--field NAME] [--lsb N] FILE\n"
			       "SP800-90B non-IID min-entropy estimates of a cpurng-capture file.\n\n"
			       "  -f, --field NAME   field to assess (default: the first)\n"
			       "  -l, --lsb N        0: raw values as symbols (default); 1, 4, 8: low bits\n"
			       "  -r, --restart      restart tests (3.1.4) of a capture with restarts\n"
			       "  -i, --initial H    initial min-entropy estimate for --restart\n"
			       "  -d, --diff         assess increments of the field (counters)\n"
			       "  -a, --all-bits     bitstring of every sample, not the first 10^6 bits\n"
			       "  -q, --quick N      the module's in-kernel estimate of blocks of N samples\n"
			       "  -j, --json         machine-readable output\n"
			       "  -h, --help         this help\n");
			return 0;
		default:
			return 2;
		}
	}
	if (optind != argc - 1 || (o.lsb != 0 && o.lsb != 1 && o.lsb != 4 &&
				   o.lsb != 8) || (o.restart && o.initial <= 0)) {
		fprintf(stderr, "cpurng-ea: see --help\n");
		return 2;
	}
	if (noise_file_read(argv[optind], &f))
		return 1;
	if (!o.field) {
		static char first[32];

		if (sscanf(f.fields, "%31s", first) != 1) {
			fprintf(stderr, "cpurng-ea: the file names no fields\n");
			return 2;
		}
		o.field = first;
	}
	field = noise_field_index(&f, o.field);
	if (field < 0) {
		fprintf(stderr, "cpurng-ea: no field %s (fields: %s)\n", o.field,
			f.fields);
		return 2;
	}
	if (o.diff && noise_field_diff(&f, field)) {
		fprintf(stderr, "cpurng-ea: --diff needs 2 samples per row\n");
		return 2;
	}
	if (o.restart)
		return restart_tests(&f, &o, field);
	n = f.rows * f.samples;
	v = field_values(f.rec + field, n, f.nfields, o.lsb);
	s = v ? symbols(v, n, o.lsb, &k) : NULL;
	if (!s) {
		free(v);
		return 1;
	}
	if (o.quick) {
		c = quick_estimates(v, n, &o);
		free(v);
		free(s);
		noise_file_free(&f);
		return c;
	}
	assess(v, s, n, k, o.lsb, o.all_bits, &a);
	report(&f, &o, n, k, &a);
	free(v);
	free(s);
	noise_file_free(&f);
	return 0;
}
