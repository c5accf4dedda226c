// SPDX-License-Identifier: GPL-2.0
/*
 * cpurng-status: one screen on cpurng's random number generators, read
 * from /proc/crypto and /sys/kernel/cpurng_{jitter,collector,drbg}/.
 * Human-readable by default, --json for scripts.  See cpurng-status.1.
 */
#include <dirent.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define VERSION		"1.0"
#define MAX_FILES	40
#define MAX_VALUE	4096

/* One component: its module, sysfs directory and algorithm names. */
struct component {
	const char *key;	/* JSON key */
	const char *title;	/* heading */
	const char *module;	/* module to load */
	const char *dir;	/* /sys/kernel/... */
	const char *cra_name;	/* algorithm */
};

static const struct component components[] = {
	{ "jitter", "CPU Jitter RNG", "cpurng_jitter",
	  "/sys/kernel/cpurng_jitter", "jitterentropy_rng" },
	{ "collector", "CPU-randomness collector", "cpurng_collector",
	  "/sys/kernel/cpurng_collector", "cpu_randomness" },
	{ "drbg", "SP800-90A DRBG", "cpurng_drbg",
	  "/sys/kernel/cpurng_drbg", "stdrng" },
};

/* A file of a status directory. */
struct entry {
	char name[64];
	char value[MAX_VALUE];
};

struct algorithm {
	char driver[128];
	char selftest[32];
	int priority;
	int count;	/* drivers of ours under this cra_name */
};

static int read_file(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return -1;
	n = fread(buf, 1, size - 1, f);
	fclose(f);
	buf[n] = '\0';
	while (n && buf[n - 1] == '\n')
		buf[--n] = '\0';
	return 0;
}

static int cmp_entry(const void *a, const void *b)
{
	return strcmp(((const struct entry *)a)->name,
		      ((const struct entry *)b)->name);
}

/* All files of a status directory, sorted; -1 if it does not exist. */
static int read_dir(const char *dir, struct entry *e, int max)
{
	char path[512];
	struct dirent *d;
	DIR *dp = opendir(dir);
	int n = 0;

	if (!dp)
		return -1;
	while ((d = readdir(dp)) && n < max) {
		if (d->d_name[0] == '.')
			continue;
		snprintf(e[n].name, sizeof(e[n].name), "%.63s", d->d_name);
		snprintf(path, sizeof(path), "%s/%s", dir, d->d_name);
		if (read_file(path, e[n].value, sizeof(e[n].value)))
			continue;
		n++;
	}
	closedir(dp);
	qsort(e, n, sizeof(*e), cmp_entry);
	return n;
}

static const char *get(const struct entry *e, int n, const char *name)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(e[i].name, name))
			return e[i].value;
	return "?";
}

/* Copy the value of a "key : value" line of /proc/crypto if @key matches. */
static void field(const char *line, const char *key, char *out, size_t size)
{
	size_t n = strlen(key);
	const char *colon;

	if (strncmp(line, key, n) || (line[n] != ' ' && line[n] != ':'))
		return;
	colon = strchr(line, ':');
	if (!colon)
		return;
	snprintf(out, size, "%s", colon + 1 + strspn(colon + 1, " "));
	out[strcspn(out, "\n")] = '\0';
}

/* The highest-priority driver of ours for @cra_name in /proc/crypto. */
static void find_algorithm(const char *cra_name, struct algorithm *a)
{
	char line[256], name[128] = "", driver[128] = "", module[64] = "";
	char selftest[32] = "", priority[16] = "";
	FILE *f = fopen("/proc/crypto", "r");

	memset(a, 0, sizeof(*a));
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		field(line, "name", name, sizeof(name));
		field(line, "driver", driver, sizeof(driver));
		field(line, "module", module, sizeof(module));
		field(line, "priority", priority, sizeof(priority));
		field(line, "selftest", selftest, sizeof(selftest));
		if (line[0] != '\n')
			continue;
		if (!strcmp(name, cra_name) && !strncmp(module, "cpurng_", 7)) {
			a->count++;
			if (atoi(priority) > a->priority) {
				a->priority = atoi(priority);
				snprintf(a->driver, sizeof(a->driver), "%s", driver);
				snprintf(a->selftest, sizeof(a->selftest), "%s",
					 selftest);
			}
		}
		name[0] = '\0';
		module[0] = '\0';
	}
	fclose(f);
}

static void json_string(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			printf("\\%c", *s);
		else if (*s == '\n')
			printf("\\n");
		else if ((unsigned char)*s < 0x20)
			printf("\\u%04x", *s);
		else
			putchar(*s);
	}
	putchar('"');
}

static void print_json(void)
{
	static struct entry e[MAX_FILES];
	struct algorithm a;
	unsigned int c;
	int n, i;

	printf("{\n");
	for (c = 0; c < sizeof(components) / sizeof(components[0]); c++) {
		const struct component *k = &components[c];

		n = read_dir(k->dir, e, MAX_FILES);
		find_algorithm(k->cra_name, &a);
		printf("  \"%s\": {\n    \"loaded\": %s,\n", k->key,
		       n < 0 ? "false" : "true");
		printf("    \"algorithm\": ");
		json_string(k->cra_name);
		printf(",\n    \"registered\": %s,\n", a.count ? "true" : "false");
		printf("    \"drivers\": %d,\n    \"default_driver\": ", a.count);
		json_string(a.driver);
		printf(",\n    \"selftest\": ");
		json_string(a.selftest);
		if (n < 0) {
			printf(",\n    \"hint\": \"modprobe %s\"\n  }", k->module);
		} else {
			printf(",\n    \"status\": {");
			for (i = 0; i < n; i++) {
				printf("%s\n      ", i ? "," : "");
				json_string(e[i].name);
				printf(": ");
				json_string(e[i].value);
			}
			printf("\n    }\n  }");
		}
		printf("%s\n", c + 1 < sizeof(components) / sizeof(components[0]) ?
		       "," : "");
	}
	printf("}\n");
}

/* Indent each line of a multi-line value. */
static void print_block(const char *value, const char *indent)
{
	const char *p = value;

	while (*p) {
		const char *nl = strchr(p, '\n');
		int len = nl ? (int)(nl - p) : (int)strlen(p);

		printf("%s%.*s\n", indent, len, p);
		p += len + (nl ? 1 : 0);
	}
}

/*
 * The in-kernel min-entropy estimate beside the credit it checks: osr and
 * the estimate come as numbers, the margin is their product.
 */
static void print_jitter_estimate(const struct entry *e, int n)
{
	const char *mb = get(e, n, "estimate_mbits");
	unsigned int osr = strtoul(get(e, n, "osr"), NULL, 10);
	unsigned long mbits = strtoul(mb, NULL, 10);

	if (!strcmp(get(e, n, "estimate_runs"), "0") || !osr) {
		printf("    entropy estimate: none (assess_samples=0); osr %s\n",
		       get(e, n, "osr"));
		return;
	}
	printf("    entropy estimate %lu.%03lu bits/sample (%s, %s samples, %s runs, %s low); "
	       "osr %s: credit %.3f, margin %.2f; smallest osr with margin 2: %s\n",
	       mbits / 1000, mbits % 1000, get(e, n, "estimate_by"),
	       get(e, n, "estimate_samples"), get(e, n, "estimate_runs"),
	       get(e, n, "estimate_low"), get(e, n, "osr"), 1.0 / osr,
	       mbits * osr / 1000.0, get(e, n, "osr_needed"));
}

static void print_jitter(const struct entry *e, int n)
{
	printf("    start-up test: %s (%s runs, %s failed)\n",
	       get(e, n, "startup"), get(e, n, "startup_runs"),
	       get(e, n, "startup_failures"));
	printf("    instances: %s, failed: %s; samples %s (stuck %s); blocks %s, bytes %s\n",
	       get(e, n, "instances"), get(e, n, "failed_instances"),
	       get(e, n, "samples"), get(e, n, "stuck_samples"),
	       get(e, n, "blocks"), get(e, n, "bytes"));
	printf("    health failures (intermittent/permanent): RCT %s/%s, APT %s/%s, stuck %s/%s\n",
	       get(e, n, "rct_intermittent"), get(e, n, "rct_permanent"),
	       get(e, n, "apt_intermittent"), get(e, n, "apt_permanent"),
	       get(e, n, "stuck_intermittent"), get(e, n, "stuck_permanent"));
	printf("    cutoffs: RCT %s, APT %s; timer %s; FIPS semantics %s\n",
	       get(e, n, "rct_cutoffs"), get(e, n, "apt_cutoffs"),
	       get(e, n, "timer"), get(e, n, "fips"));
	print_jitter_estimate(e, n);
}

static void print_collector(const struct entry *e, int n)
{
	printf("    events: sched_switch %s, kmalloc %s, kmem_cache_alloc %s; probes now: %s\n",
	       get(e, n, "events_sched_switch"), get(e, n, "events_kmalloc"),
	       get(e, n, "events_kmem_cache_alloc"), get(e, n, "probes"));
	printf("    input pool: %s flushes, %s bytes, entropy credit %s; phase %s\n",
	       get(e, n, "flushes"), get(e, n, "flushed_bytes"),
	       get(e, n, "entropy_credit"), get(e, n, "phase"));
	printf("    extracted %s bytes; probe cost %s cycles (%s samples); timer %s\n",
	       get(e, n, "extracted_bytes"), get(e, n, "cost_cycles"),
	       get(e, n, "cost_samples"), get(e, n, "timer"));
}

static void print_drbg(const struct entry *e, int n)
{
	printf("    self-test: %s; FIPS semantics %s; require_full %s\n",
	       get(e, n, "selftest"), get(e, n, "fips"),
	       get(e, n, "require_full"));
	printf("    seed sources (%s):\n", get(e, n, "sources"));
	print_block(get(e, n, "source_state"), "      ");
	printf("    last seed: %s; seeds so far: %s; reseed after %s requests or %s s\n",
	       get(e, n, "last_seed"), get(e, n, "seeds"),
	       get(e, n, "reseed_requests"), get(e, n, "reseed_seconds"));
	printf("    instances:\n");
	print_block(get(e, n, "instances"), "      ");
}

/* Every module counts VM forks and resumes (include/cpurng/fork_watch.h). */
static void print_forks(const struct entry *e, int n)
{
	printf("    VM forks %s, resumes %s; instances reseeded for them: %s\n",
	       get(e, n, "vm_forks"), get(e, n, "resumes"),
	       get(e, n, "fork_reseeds"));
}

static void print_human(void)
{
	static struct entry e[MAX_FILES];
	struct algorithm a;
	unsigned int c;
	int n;

	printf("cpurng status\n");
	for (c = 0; c < sizeof(components) / sizeof(components[0]); c++) {
		const struct component *k = &components[c];

		n = read_dir(k->dir, e, MAX_FILES);
		find_algorithm(k->cra_name, &a);
		printf("\n%s (%s)\n", k->title, k->module);
		if (n < 0) {
			printf("    not loaded: modprobe %s\n", k->module);
			continue;
		}
		if (!a.count) {
			printf("    %s: not registered\n", k->cra_name);
		} else {
			printf("    %s: %d driver(s) registered, highest %s",
			       k->cra_name, a.count, a.driver);
			printf(" (priority %d), selftest %s\n", a.priority,
			       a.selftest);
		}
		if (!strcmp(k->key, "jitter"))
			print_jitter(e, n);
		else if (!strcmp(k->key, "collector"))
			print_collector(e, n);
		else
			print_drbg(e, n);
		print_forks(e, n);
	}
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	int c, json = 0;

	while ((c = getopt_long(argc, argv, "jh", longopts, NULL)) != -1) {
		switch (c) {
		case 'j':
			json = 1;
			break;
		case 'h':
			printf("Usage: cpurng-status [--json]\n"
			       "Show the state of cpurng's random number generators.\n\n"
			       "  -j, --json     machine-readable output\n"
			       "  -h, --help     this help\n"
			       "      --version  version\n");
			return 0;
		case 'V':
			printf("cpurng-status %s\n", VERSION);
			return 0;
		default:
			return 2;
		}
	}
	if (optind != argc) {
		fprintf(stderr, "cpurng-status: no arguments expected\n");
		return 2;
	}
	if (json)
		print_json();
	else
		print_human();
	return 0;
}
