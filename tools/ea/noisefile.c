// SPDX-License-Identifier: GPL-2.0
/* Reader of capture files written by cpurng-capture. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ea.h"

static void header_value(const char *line, const char *key, char *out,
			 size_t size)
{
	size_t n = strlen(key);

	if (!strncmp(line, key, n) && line[n] == ':') {
		snprintf(out, size, "%s", line + n + 1 + strspn(line + n + 1, " "));
		out[strcspn(out, "\n")] = '\0';
	}
}

int noise_file_read(const char *path, struct noise_file *f)
{
	char line[512], rows[32] = "1", samples[32] = "0";
	FILE *in = fopen(path, "r");
	size_t total, got;
	char *p;

	memset(f, 0, sizeof(*f));
	if (!in) {
		fprintf(stderr, "%s: %s\n", path, strerror(errno));
		return -1;
	}
	if (!fgets(line, sizeof(line), in) || strcmp(line, "cpurng-noise 1\n")) {
		fprintf(stderr, "%s: not a cpurng-noise file\n", path);
		fclose(in);
		return -1;
	}
	while (fgets(line, sizeof(line), in) && strcmp(line, "\n")) {
		strncat(f->header, line, sizeof(f->header) - strlen(f->header) - 1);
		header_value(line, "source", f->source, sizeof(f->source));
		header_value(line, "where", f->where, sizeof(f->where));
		header_value(line, "mode", f->mode, sizeof(f->mode));
		header_value(line, "fields", f->fields, sizeof(f->fields));
		header_value(line, "rows", rows, sizeof(rows));
		header_value(line, "samples", samples, sizeof(samples));
	}
	f->rows = strtoul(rows, NULL, 10);
	f->samples = strtoul(samples, NULL, 10);
	for (p = f->fields; *p; p++)
		if (*p != ' ' && (p == f->fields || p[-1] == ' '))
			f->nfields++;
	total = f->rows * f->samples * f->nfields;
	f->rec = malloc(total * sizeof(uint64_t) + 1);
	got = f->rec ? fread(f->rec, sizeof(uint64_t), total, in) : 0;
	fclose(in);
	if (!total || got != total) {
		fprintf(stderr, "%s: %zu of %zu values\n", path, got, total);
		free(f->rec);
		f->rec = NULL;
		return -1;
	}
	return 0;
}

void noise_file_free(struct noise_file *f)
{
	free(f->rec);
	f->rec = NULL;
}

int noise_field_index(const struct noise_file *f, const char *name)
{
	char copy[128], *tok, *save;
	int i = 0;

	snprintf(copy, sizeof(copy), "%s", f->fields);
	for (tok = strtok_r(copy, " ", &save); tok;
	     tok = strtok_r(NULL, " ", &save), i++)
		if (!strcmp(tok, name))
			return i;
	return -1;
}

/*
 * A counter read at each event (the collector's cycles and jiffies) carries
 * its information in the increments, not in the ever-growing value: replace
 * field @idx by the difference to the previous sample of the same row
 * (modulo 2^64) and drop each row's first sample, which has none.
 */
int noise_field_diff(struct noise_file *f, int idx)
{
	unsigned long r, i, nf = f->nfields;
	uint64_t *out = f->rec, prev, cur;

	if (f->samples < 2 || idx < 0 || (unsigned int)idx >= f->nfields)
		return -1;
	for (r = 0; r < f->rows; r++) {
		const uint64_t *row = f->rec + r * f->samples * nf;

		prev = row[idx];
		for (i = 1; i < f->samples; i++) {
			cur = row[i * nf + idx];
			/* out never passes the record being read */
			memmove(out, row + i * nf, nf * sizeof(*out));
			out[idx] = cur - prev;
			prev = cur;
			out += nf;
		}
	}
	f->samples--;
	return 0;
}
