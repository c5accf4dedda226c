/* SPDX-License-Identifier: GPL-2.0 */
/*
 * SP800-90B entropy assessment (cpurng-ea): shared definitions.
 *
 * Samples are symbols 0..k-1 (after mapping raw values to symbols).  Every
 * estimator returns a min-entropy in bits per symbol, or a negative value
 * when it does not apply (e.g. the binary-only estimators on non-binary
 * data).  Section numbers are those of NIST SP800-90B (January 2018).
 */
#ifndef CPURNG_EA_H
#define CPURNG_EA_H

#include <stddef.h>
#include <stdint.h>

/* SP800-90B 6.3: the estimators' confidence bound uses z = 2.576 (99 %). */
#define EA_Z		2.576

struct ea_data {
	const uint32_t *s;	/* symbols */
	size_t len;
	uint32_t k;		/* alphabet size: symbols are below k */
};

/* Results of one estimator. */
struct ea_result {
	const char *name;
	double h;		/* bits per symbol, < 0: not applicable */
	char note[96];
};

/* stats.c */
double ea_upper_bound(double p, size_t n);
unsigned long ea_critbinom(unsigned long n, double p, double conf);
double ea_predictor_entropy(size_t n, size_t correct, size_t longest_run,
			    uint32_t k, struct ea_result *r);

/* estimators.c: 6.3.1 - 6.3.4 */
void ea_mcv(const struct ea_data *d, struct ea_result *r);
void ea_collision(const struct ea_data *d, struct ea_result *r);
void ea_markov(const struct ea_data *d, struct ea_result *r);
void ea_compression(const struct ea_data *d, struct ea_result *r);

/* tuples.c: 6.3.5 - 6.3.6 */
void ea_tuple_lrs(const struct ea_data *d, struct ea_result *tuple,
		  struct ea_result *lrs);

/* predictors.c: 6.3.7 - 6.3.10 */
void ea_multi_mcw(const struct ea_data *d, struct ea_result *r);
void ea_lag(const struct ea_data *d, struct ea_result *r);
void ea_multi_mmc(const struct ea_data *d, struct ea_result *r);
void ea_lz78y(const struct ea_data *d, struct ea_result *r);

/* The ten estimators of 6.3 in order; returns the number of results. */
int ea_run_all(const struct ea_data *d, struct ea_result *out);

/* noisefile.c: capture files written by cpurng-capture. */
struct noise_file {
	char source[32], where[32], mode[32], fields[128];
	char header[2048];	/* the whole text header */
	unsigned long rows, samples;
	unsigned int nfields;
	uint64_t *rec;		/* rows * samples * nfields values */
};

int noise_file_read(const char *path, struct noise_file *f);
void noise_file_free(struct noise_file *f);
int noise_field_index(const struct noise_file *f, const char *name);
int noise_field_diff(struct noise_file *f, int idx);

#endif /* CPURNG_EA_H */
