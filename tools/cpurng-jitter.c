// SPDX-License-Identifier: GPL-2.0
/*
 * cpurng-jitter: the CPU Jitter RNG of cpurng_jitter.ko, run natively.
 *
 * The module's own instance, conditioning, health-test and noise sources
 * (crypto/jitter_{instance,pool,health,noise}.c) are compiled here for
 * userspace, against the stand-ins of tools/native/kshim.h; nothing of the
 * generator is a second copy.  The timer is the cycle counter, as the
 * kernel's random_get_entropy() is on x86.  It writes the generator's
 * output, or measures on the machine it runs on what the emulated clock
 * of a test VM cannot show: the start-up time and the output rate.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../include/cpurng/jitter.h"

/* What the module's parameters default to, unless options say otherwise. */
struct cpurng_jent_config cpurng_jent_config = {
	.osr = CPURNG_JENT_DEFAULT_OSR,
	.mem_size = CPURNG_JENT_DEFAULT_MEM_SIZE,
	.mem_loops = CPURNG_JENT_DEFAULT_MEM_LOOPS,
	.fold_loops = CPURNG_JENT_DEFAULT_FOLD_LOOPS,
};

/* Never bumped here: a process has no VM fork notifier to listen to. */
struct cpurng_fork_watch cpurng_jent_forks;

/* The module's statistics (jitter_status.c there), kept for the report. */
static struct {
	u64 samples, stuck, blocks, bytes;
	u64 intermittent, permanent;
	int startup;
} stats;

void cpurng_jent_stats_instance(int delta)
{
}

void cpurng_jent_stats_failed_instance(int delta)
{
}

void cpurng_jent_stats_samples(u64 samples, u64 stuck)
{
	stats.samples += samples;
	stats.stuck += stuck;
}

void cpurng_jent_stats_failure(enum cpurng_health_test test, bool permanent)
{
	if (permanent)
		stats.permanent++;
	else
		stats.intermittent++;
}

void cpurng_jent_stats_output(unsigned int blocks, unsigned int bytes)
{
	stats.blocks += blocks;
	stats.bytes += bytes;
}

void cpurng_jent_stats_startup(enum cpurng_startup_error err)
{
	stats.startup = err;
}

bool cpurng_jent_fips(void)
{
	return false;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void print_help(FILE *f)
{
	fprintf(f,
		"usage: cpurng-jitter [options]\n"
		"Runs cpurng_jitter.ko's generator natively and writes its output.\n"
		"  -n, --bytes N        bytes to write (default 32)\n"
		"  -o, --output FILE    write to FILE (default: standard output)\n"
		"  -x, --hex            hexadecimal, one line\n"
		"  -b, --bench SECONDS  no output: measure the start-up time and the\n"
		"                       output rate for SECONDS, print one JSON line\n"
		"      --osr N          oversampling rate (module default %u)\n"
		"      --mem-size B     memory buffer, a power of two (default %u)\n"
		"      --mem-loops N    memory accesses per sample (default %u)\n"
		"      --fold-loops N   foldings per sample (default %u)\n"
		"  -h, --help           this help\n",
		CPURNG_JENT_DEFAULT_OSR, CPURNG_JENT_DEFAULT_MEM_SIZE,
		CPURNG_JENT_DEFAULT_MEM_LOOPS, CPURNG_JENT_DEFAULT_FOLD_LOOPS);
}

static int parse_number(const char *arg, const char *what,
			unsigned long long max, unsigned long long *out)
{
	char *end;

	errno = 0;
	*out = strtoull(arg, &end, 0);
	if (errno || !*arg || *end || arg[0] == '-' || *out > max) {
		fprintf(stderr, "cpurng-jitter: %s: not a number up to %llu: '%s'\n",
			what, max, arg);
		return -1;
	}
	return 0;
}

/* Write @len bytes of output to @f (raw or hex). */
static int emit(struct cpurng_jent *j, FILE *f, unsigned long long len,
		bool hex)
{
	u8 buf[4096];
	int ret;

	while (len) {
		unsigned int n = len < sizeof(buf) ? len : sizeof(buf);
		unsigned int i;

		ret = cpurng_jent_generate(j, NULL, 0, buf, n);
		if (ret) {
			fprintf(stderr, "cpurng-jitter: generate: %s\n",
				strerror(-ret));
			return 1;
		}
		if (hex) {
			for (i = 0; i < n; i++)
				fprintf(f, "%02x", buf[i]);
		} else if (fwrite(buf, 1, n, f) != n) {
			perror("cpurng-jitter: write");
			return 1;
		}
		len -= n;
	}
	memzero_explicit(buf, sizeof(buf));
	if (hex)
		fputc('\n', f);
	return fflush(f) ? 1 : 0;
}

/* Start-up time, then blocks for @seconds: one JSON line. */
static int bench(struct cpurng_jent *j, double startup, double seconds)
{
	u8 block[CPURNG_JENT_BLOCK_BYTES];
	double start = now(), elapsed;
	u64 before = stats.samples;
	int ret = 0;

	do {
		ret = cpurng_jent_generate(j, NULL, 0, block, sizeof(block));
		elapsed = now() - start;
	} while (!ret && elapsed < seconds);
	memzero_explicit(block, sizeof(block));
	if (ret) {
		fprintf(stderr, "cpurng-jitter: generate: %s\n", strerror(-ret));
		return 1;
	}
	printf("{\"startup_ms\": %.3f, \"seconds\": %.3f, \"bytes\": %llu, "
	       "\"bytes_per_s\": %.1f, \"samples_per_s\": %.0f, "
	       "\"osr\": %u, \"intermittent_failures\": %llu, "
	       "\"stuck\": %llu}\n",
	       startup * 1e3, elapsed, (unsigned long long)stats.bytes,
	       stats.bytes / elapsed, (stats.samples - before) / elapsed,
	       cpurng_jent_config.osr, (unsigned long long)stats.intermittent,
	       (unsigned long long)stats.stuck);
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "bytes", required_argument, NULL, 'n' },
		{ "output", required_argument, NULL, 'o' },
		{ "hex", no_argument, NULL, 'x' },
		{ "bench", required_argument, NULL, 'b' },
		{ "osr", required_argument, NULL, 1 },
		{ "mem-size", required_argument, NULL, 2 },
		{ "mem-loops", required_argument, NULL, 3 },
		{ "fold-loops", required_argument, NULL, 4 },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct cpurng_jent_config *cfg = &cpurng_jent_config;
	unsigned long long len = 32, v, seconds = 0;
	const char *output = NULL;
	struct cpurng_jent *j;
	double start, startup;
	bool hex = false;
	FILE *f = stdout;
	int c, ret;

	while ((c = getopt_long(argc, argv, "n:o:xb:h", opts, NULL)) != -1) {
		switch (c) {
		case 'n':
			if (parse_number(optarg, "--bytes", 1ULL << 40, &len))
				return 2;
			break;
		case 'o':
			output = optarg;
			break;
		case 'x':
			hex = true;
			break;
		case 'b':
			if (parse_number(optarg, "--bench", 3600, &seconds) ||
			    !seconds) {
				fprintf(stderr, "cpurng-jitter: --bench takes 1-3600 seconds\n");
				return 2;
			}
			break;
		case 1: case 2: case 3: case 4:
			if (parse_number(optarg, opts[c + 3].name, UINT32_MAX, &v))
				return 2;
			*(c == 1 ? &cfg->osr : c == 2 ? &cfg->mem_size :
			  c == 3 ? &cfg->mem_loops : &cfg->fold_loops) = v;
			break;
		case 'h':
			print_help(stdout);
			return 0;
		default:
			print_help(stderr);
			return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "cpurng-jitter: unexpected argument '%s'\n",
			argv[optind]);
		return 2;
	}
	/* The module's own bounds, with the module's messages. */
	if (cpurng_jent_check_config(cfg))
		return 2;
	if (!seconds && !hex && !output && isatty(STDOUT_FILENO)) {
		fprintf(stderr, "cpurng-jitter: binary output to a terminal: "
			"use --hex or -o FILE\n");
		return 2;
	}
	if (output && !seconds) {
		f = fopen(output, "wb");
		if (!f) {
			fprintf(stderr, "cpurng-jitter: %s: %s\n", output,
				strerror(errno));
			return 1;
		}
	}

	j = calloc(1, sizeof(*j));
	if (!j || cpurng_jent_pool_setup())
		return 1;
	start = now();
	/* As at module load: start-up test (SP800-90B 4.3) on a new instance. */
	ret = cpurng_jent_init(j);
	startup = now() - start;
	if (ret) {
		fprintf(stderr, "cpurng-jitter: start-up failed: %s\n",
			strerror(-ret));
		return 1;
	}
	ret = seconds ? bench(j, startup, seconds) : emit(j, f, len, hex);
	cpurng_jent_free(j);
	free(j);
	cpurng_jent_pool_teardown();
	if (f != stdout && fclose(f))
		ret = 1;
	return ret;
}
