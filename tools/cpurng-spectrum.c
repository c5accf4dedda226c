// SPDX-License-Identifier: GPL-2.0
/*
 * cpurng-spectrum: frequency and correlation views of raw noise samples,
 * the patterns Ts'o asked to look for (Davis looked at his disk timings'
 * FFT): a power spectrum averaged over segments, the autocorrelation for
 * lags 1..256 and a histogram.  Samples are first clipped to their 0.1 %
 * and 99.9 % quantiles: the rare, huge deltas of an interrupt or a
 * preemption would otherwise dominate every bin and hide the structure of
 * the bulk.  Writes <prefix>.spectrum, .acf and .hist as
 * columns for gnuplot and prints a one-line summary (JSON with --json).
 * See cpurng-spectrum.1.
 */
#include <complex.h>
#include <float.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ea/ea.h"

typedef double complex cplx;

#define SEG	4096	/* FFT segment: 2048 frequency bins */
#define LAGS	256
#define BINS	200

static void fft(cplx *x, size_t n)
{
	size_t i, j, len;

	for (i = 1, j = 0; i < n; i++) {
		size_t bit = n >> 1;

		for (; j & bit; bit >>= 1)
			j ^= bit;
		j ^= bit;
		if (i < j) {
			cplx t = x[i];

			x[i] = x[j];
			x[j] = t;
		}
	}
	for (len = 2; len <= n; len <<= 1) {
		cplx w = cexp(-2 * M_PI * I / len);

		for (i = 0; i < n; i += len) {
			cplx wk = 1;

			for (j = 0; j < len / 2; j++) {
				cplx u = x[i + j];
				cplx v = x[i + j + len / 2] * wk;

				x[i + j] = u + v;
				x[i + j + len / 2] = u - v;
				wk *= w;
			}
		}
	}
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "field", required_argument, NULL, 'f' },
		{ "diff", no_argument, NULL, 'd' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *field = NULL;
	double *x, mean = 0, var = 0, power[SEG / 2 + 1] = { 0 }, sorted[SEG / 2];
	double acf[LAGS + 1], peak = 0, peak_f = 0, median, logsum = 0, sum = 0;
	double flat, lo, hi, best_acf = 0, *sx;
	cplx *seg;
	size_t n, i, k, segs, best_lag = 0, hist[BINS] = { 0 };
	struct noise_file f;
	char path[512];
	int c, json = 0, diff = 0, idx;
	FILE *out;

	while ((c = getopt_long(argc, argv, "f:djh", longopts, NULL)) != -1) {
		switch (c) {
		case 'f':
			field = optarg;
			break;
		case 'd':
			diff = 1;
			break;
		case 'j':
			json = 1;
			break;
		case 'h':
			printf("Usage: cpurng-spectrum [--field NAME] [--diff] [--json]"
			       " FILE PREFIX\n"
			       "Write PREFIX.spectrum, PREFIX.acf and PREFIX.hist for FILE's field.\n\n"
			       "  -f, --field NAME   field to analyse (default: the first)\n"
			       "  -d, --diff         analyse increments of the field (counters)\n"
			       "  -j, --json         summary as JSON\n"
			       "  -h, --help         this help\n");
			return 0;
		default:
			return 2;
		}
	}
	if (optind != argc - 2) {
		fprintf(stderr, "cpurng-spectrum: see --help\n");
		return 2;
	}
	if (noise_file_read(argv[optind], &f))
		return 1;
	idx = field ? noise_field_index(&f, field) : 0;
	if (idx < 0) {
		fprintf(stderr, "cpurng-spectrum: no field %s (fields: %s)\n",
			field, f.fields);
		return 2;
	}
	if (diff && noise_field_diff(&f, idx)) {
		fprintf(stderr, "cpurng-spectrum: --diff needs 2 samples per row\n");
		return 2;
	}
	n = f.rows * f.samples;
	x = malloc(n * sizeof(*x));
	seg = malloc(SEG * sizeof(*seg));
	sx = malloc(n * sizeof(*sx));
	if (!x || !seg || !sx || n < SEG)
		return 1;
	for (i = 0; i < n; i++) {
		x[i] = (double)f.rec[i * f.nfields + idx];
		sx[i] = x[i];
	}
	qsort(sx, n, sizeof(double), cmp_double);
	lo = sx[n / 1000];
	hi = sx[n - 1 - n / 1000];
	for (i = 0; i < n; i++) {
		x[i] = x[i] < lo ? lo : x[i] > hi ? hi : x[i];
		mean += x[i];
	}
	mean /= n;
	for (i = 0; i < n; i++) {
		x[i] -= mean;
		var += x[i] * x[i];
	}
	var /= n;

	/* Bartlett: average |FFT|^2 of non-overlapping segments, mean removed */
	segs = n / SEG;
	for (k = 0; k < segs; k++) {
		for (i = 0; i < SEG; i++)
			seg[i] = x[k * SEG + i];
		fft(seg, SEG);
		for (i = 0; i <= SEG / 2; i++)
			power[i] += creal(seg[i] * conj(seg[i])) / SEG / segs;
	}
	for (i = 1; i <= SEG / 2; i++) {
		sorted[i - 1] = power[i];
		logsum += log(power[i] + DBL_MIN);
		sum += power[i];
	}
	qsort(sorted, SEG / 2, sizeof(double), cmp_double);
	median = sorted[SEG / 4];
	/* spectral flatness: geometric over arithmetic mean, 1 for white noise */
	flat = sum > 0 ? exp(logsum / (SEG / 2)) / (sum / (SEG / 2)) : 0;
	for (i = 1; i <= SEG / 2; i++) {
		if (power[i] > peak) {
			peak = power[i];
			peak_f = (double)i / SEG;
		}
	}
	snprintf(path, sizeof(path), "%s.spectrum", argv[optind + 1]);
	out = fopen(path, "w");
	for (i = 1; out && i <= SEG / 2; i++)
		fprintf(out, "%.6f %.6g\n", (double)i / SEG,
			median > 0 ? power[i] / median : 0);
	if (out)
		fclose(out);

	/* autocorrelation, lags 1..LAGS */
	snprintf(path, sizeof(path), "%s.acf", argv[optind + 1]);
	out = fopen(path, "w");
	for (k = 1; k <= LAGS; k++) {
		double s = 0;

		for (i = 0; i + k < n; i++)
			s += x[i] * x[i + k];
		acf[k] = var > 0 ? s / (n - k) / var : 0;
		if (fabs(acf[k]) > fabs(best_acf)) {
			best_acf = acf[k];
			best_lag = k;
		}
		if (out)
			fprintf(out, "%zu %.6f\n", k, acf[k]);
	}
	if (out)
		fclose(out);

	/* histogram between the 0.1 % and 99.9 % quantiles */
	for (i = 0; i < n; i++) {
		if (sx[i] < lo || sx[i] > hi || hi <= lo)
			continue;
		k = (size_t)((sx[i] - lo) / (hi - lo) * (BINS - 1));
		hist[k]++;
	}
	snprintf(path, sizeof(path), "%s.hist", argv[optind + 1]);
	out = fopen(path, "w");
	for (k = 0; out && k < BINS; k++)
		fprintf(out, "%.2f %zu\n", lo + (hi - lo) * k / (BINS - 1), hist[k]);
	if (out)
		fclose(out);

	if (json)
		printf("{\"samples\": %zu, \"clip\": [%.0f, %.0f], "
		       "\"mean\": %.3f, \"stddev\": %.3f, "
		       "\"spectral_flatness\": %.4f, \"peak_to_median\": %.2f, "
		       "\"peak_frequency\": %.6f, \"max_abs_acf\": %.4f, "
		       "\"max_acf_lag\": %zu}\n",
		       n, lo, hi, mean, sqrt(var), flat,
		       median > 0 ? peak / median : 0, peak_f, best_acf,
		       best_lag);
	else
		printf("%zu samples (clipped to %.0f..%.0f), mean %.1f, sd %.1f; "
		       "spectral flatness %.3f, strongest peak %.1f x median at "
		       "%.5f cycles/sample; largest autocorrelation %.3f at lag %zu\n",
		       n, lo, hi, mean, sqrt(var), flat,
		       median > 0 ? peak / median : 0, peak_f, best_acf,
		       best_lag);
	free(x);
	free(sx);
	free(seg);
	noise_file_free(&f);
	return 0;
}
