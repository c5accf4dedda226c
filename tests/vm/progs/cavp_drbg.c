// SPDX-License-Identifier: GPL-2.0
/*
 * cavp_drbg <ours|stock> <file.rsp>...
 *
 * Run NIST CAVP DRBG vectors (no_reseed and pr_false files) against the
 * no-prediction-resistance DRBGs through the crypto API, using the "cavp"
 * command of cpurng_test_rng.ko: set_ent(EntropyInput || Nonce),
 * reset(PersonalizationString), [set_ent(EntropyInputReseed),
 * reset(AdditionalInputReseed)], generate(AdditionalInput) twice, compare
 * ReturnedBits with the second output.  The same sequence runs against
 * our drivers (drbg_nopr_<mech>-cpurng) and the stock ones
 * (drbg_nopr_<mech>), the control that proves the runner right.
 *
 * KTAP: one result per file and group (mechanism), skips with reasons.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ksft_report.h"

#define CTL	"/sys/kernel/debug/cpurng_test_rng/ctl"
#define MAXLINE	4096
#define MAXGROUPS 64

struct group {
	char name[160];		/* e.g. "pr_false_HMAC_SHA-256" */
	char mech[32];		/* our mechanism name, or "" if skipped */
	const char *skip;	/* reason when not offered */
	unsigned int passed, failed;
};

static const char *owner;
static struct group groups[MAXGROUPS];
static unsigned int ngroups;

/* Map a file kind and group header to a mechanism we offer. */
static const char *mechanism(const char *kind, const char *hdr, char *mech,
			     size_t size)
{
	static const char *const shas[][2] = {
		{ "SHA-1", "sha1" }, { "SHA-256", "sha256" },
		{ "SHA-384", "sha384" }, { "SHA-512", "sha512" },
	};
	unsigned int i, bits;

	if (!strcmp(kind, "CTR")) {
		if (strstr(hdr, "TDEA"))
			return "TDEA not offered";
		if (strstr(hdr, "no df"))
			return "CTR_DRBG without derivation function not offered";
		if (sscanf(hdr, "AES-%u use df", &bits) != 1)
			return "unknown group";
		snprintf(mech, size, "ctr_aes%u", bits);
		return NULL;
	}
	for (i = 0; i < sizeof(shas) / sizeof(shas[0]); i++) {
		if (!strcmp(hdr, shas[i][0])) {
			snprintf(mech, size, "%s%s",
				 strcmp(kind, "HMAC") ? "" : "hmac_",
				 shas[i][1]);
			return NULL;
		}
	}
	return "hash not offered (SHA-224, SHA-512/224, SHA-512/256)";
}

/*
 * Whether this kernel registers the driver: Linux 6.12's stock drbg.c has
 * no SHA-1 DRBGs any more, so the control skips what the kernel lacks.
 */
static int driver_registered(const char *mech)
{
	char want[96], line[256];
	FILE *f = fopen("/proc/crypto", "r");
	int found = 0;

	if (!f)
		return 0;
	snprintf(want, sizeof(want), "drbg_nopr_%s%s", mech,
		 strcmp(owner, "ours") ? "" : "-cpurng");
	while (!found && fgets(line, sizeof(line), f)) {
		char *v = strchr(line, ':');

		if (strncmp(line, "driver", 6) || !v)
			continue;
		v += 2;
		v[strcspn(v, "\n")] = '\0';
		found = !strcmp(v, want);
	}
	fclose(f);
	return found;
}

static struct group *group_for(const char *file, const char *kind,
			       const char *hdr)
{
	char name[160];
	unsigned int i;
	struct group *g;

	snprintf(name, sizeof(name), "%s_%s", file, hdr);
	for (i = 0; i < ngroups; i++)
		if (!strcmp(groups[i].name, name))
			return &groups[i];
	if (ngroups == MAXGROUPS)
		return NULL;
	g = &groups[ngroups++];
	memset(g, 0, sizeof(*g));
	strcpy(g->name, name);
	g->skip = mechanism(kind, hdr, g->mech, sizeof(g->mech));
	if (!g->skip && !driver_registered(g->mech))
		g->skip = "driver not registered by this kernel";
	return g;
}

static int run_cmd(const char *cmd, char *out, size_t size)
{
	int fd = open(CTL, O_WRONLY);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, cmd, strlen(cmd));
	close(fd);
	if (n < 0)
		return -errno;
	fd = open(CTL, O_RDONLY);
	if (fd < 0)
		return -errno;
	n = read(fd, out, size - 1);
	close(fd);
	if (n < 0)
		return -errno;
	out[n] = '\0';
	return 0;
}

struct record {
	char entropy[512], nonce[256], pers[512], rentropy[512], raddtl[512];
	char addtl[2][512], expected[1100];
	int addtl_seen, has_reseed;
};

static const char *hexarg(const char *s)
{
	return *s ? s : "-";
}

static void run_record(struct group *g, struct record *r)
{
	static char cmd[MAXLINE], out[MAXLINE];
	char ent[1024], want[1100];
	char *hex;

	snprintf(ent, sizeof(ent), "%s%s", r->entropy, r->nonce);
	snprintf(cmd, sizeof(cmd),
		 "cavp drbg_nopr_%s%s %s %s %s %s %s %s %zu", g->mech,
		 strcmp(owner, "ours") ? "" : "-cpurng", hexarg(ent),
		 hexarg(r->pers), r->has_reseed ? hexarg(r->rentropy) : "-",
		 r->has_reseed ? hexarg(r->raddtl) : "-", hexarg(r->addtl[0]),
		 hexarg(r->addtl[1]), strlen(r->expected) / 2);
	if (run_cmd(cmd, out, sizeof(out))) {
		g->failed++;
		return;
	}
	snprintf(want, sizeof(want), "%s", r->expected);
	hex = strstr(out, "hex=");
	if (hex && strstr(out, "ret=0 ") && !strncmp(hex + 4, want, strlen(want)) &&
	    (hex[4 + strlen(want)] == '\n' || !hex[4 + strlen(want)])) {
		g->passed++;
	} else {
		g->failed++;
		if (g->failed <= 2)
			report_diag("%s: mismatch: %s", g->name, out);
	}
}

static void value(const char *line, char *dst, size_t size)
{
	const char *eq = strchr(line, '=');

	snprintf(dst, size, "%s", eq ? eq + 1 + strspn(eq + 1, " ") : "");
	dst[strcspn(dst, "\r\n ")] = '\0';
}

static int run_file(const char *path)
{
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	char file[64], kind[8], line[MAXLINE], hdr[64] = "";
	static struct record r;
	struct group *g = NULL;
	FILE *f = fopen(path, "r");

	if (!f) {
		report_diag("%s: %s", path, strerror(errno));
		return -1;
	}
	/* "pr_false/HMAC_DRBG.rsp" -> file "pr_false_HMAC", kind "HMAC" */
	snprintf(kind, sizeof(kind), "%.*s", (int)strcspn(base, "_"), base);
	{
		char dir[32] = "";
		const char *slash = strrchr(path, '/');

		if (slash) {
			const char *d = slash;

			while (d > path && d[-1] != '/')
				d--;
			snprintf(dir, sizeof(dir), "%.*s", (int)(slash - d), d);
		}
		snprintf(file, sizeof(file), "%s_%s", dir, kind);
	}
	while (fgets(line, sizeof(line), f)) {
		if (line[0] == '[' && !strchr(line, '=')) {
			snprintf(hdr, sizeof(hdr), "%.*s",
				 (int)strcspn(line + 1, "]"), line + 1);
			g = group_for(file, kind, hdr);
		} else if (!strncmp(line, "COUNT", 5)) {
			memset(&r, 0, sizeof(r));
		} else if (!strncmp(line, "EntropyInputReseed", 18)) {
			value(line, r.rentropy, sizeof(r.rentropy));
			r.has_reseed = 1;
		} else if (!strncmp(line, "AdditionalInputReseed", 21)) {
			value(line, r.raddtl, sizeof(r.raddtl));
		} else if (!strncmp(line, "EntropyInput", 12)) {
			value(line, r.entropy, sizeof(r.entropy));
		} else if (!strncmp(line, "Nonce", 5)) {
			value(line, r.nonce, sizeof(r.nonce));
		} else if (!strncmp(line, "PersonalizationString", 21)) {
			value(line, r.pers, sizeof(r.pers));
		} else if (!strncmp(line, "AdditionalInput", 15)) {
			if (r.addtl_seen < 2)
				value(line, r.addtl[r.addtl_seen++],
				      sizeof(r.addtl[0]));
		} else if (!strncmp(line, "ReturnedBits", 12)) {
			value(line, r.expected, sizeof(r.expected));
			if (g && !g->skip)
				run_record(g, &r);
		}
	}
	fclose(f);
	return 0;
}

int main(int argc, char **argv)
{
	unsigned int i, total_pass = 0, total_fail = 0;
	int a;

	if (argc < 3 || (strcmp(argv[1], "ours") && strcmp(argv[1], "stock"))) {
		fprintf(stderr, "usage: %s <ours|stock> <file.rsp>...\n", argv[0]);
		return 2;
	}
	owner = argv[1];
	for (a = 2; a < argc; a++)
		if (run_file(argv[a]))
			return KSFT_FAIL;

	report_start(ngroups);
	for (i = 0; i < ngroups; i++) {
		struct group *g = &groups[i];
		char name[200];

		snprintf(name, sizeof(name), "%.8s_%.160s", owner, g->name);
		for (char *p = name; *p; p++)
			if (*p == ' ' || *p == '-' || *p == '/')
				*p = '_';
		if (g->skip) {
			report_skip(name, g->skip);
			continue;
		}
		report_diag("%s (%s): %u passed, %u failed", g->name, g->mech,
			    g->passed, g->failed);
		report_check(g->passed && !g->failed, name);
		total_pass += g->passed;
		total_fail += g->failed;
	}
	report_diag("%s: %u records passed, %u failed", owner, total_pass,
		    total_fail);
	return report_exit();
}
