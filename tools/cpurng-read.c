// SPDX-License-Identifier: GPL-2.0
/*
 * cpurng-read: read random bytes from any kernel crypto_rng through AF_ALG
 * (libkcapi), with the diagnostics a user needs when it does not work.
 *
 * See cpurng-read.1.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <kcapi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define CPURNG_READ_VERSION	"1.0"
/* Stream in chunks of this size; AF_ALG itself returns 128 bytes per read. */
#define CHUNK			(64 * 1024)
/* Show progress on a terminal for reads larger than this. */
#define PROGRESS_MIN		(1024 * 1024)
#define SEED_MAX		(64 * 1024)

struct options {
	const char *name;
	unsigned long long bytes;
	int hex;
	int verbose;
	const char *seed;
	const char *seed_file;
};

static void usage(FILE *out)
{
	fprintf(out,
		"Usage: cpurng-read [OPTIONS] BYTES\n"
		"Read BYTES random bytes from a kernel crypto RNG through AF_ALG.\n\n"
		"  -n, --name NAME       crypto_rng by cra_name or driver name\n"
		"                        (default stdrng)\n"
		"  -x, --hex             write hexadecimal instead of binary\n"
		"  -s, --seed STRING     seed: a DRBG's personalization string\n"
		"  -S, --seed-file FILE  seed read from FILE (at most 64 KiB)\n"
		"  -v, --verbose         print the throughput on stderr\n"
		"  -h, --help            this help\n"
		"      --version         version\n\n"
		"BYTES may end in k, M or G (powers of 1024).\n"
		"Examples:\n"
		"  cpurng-read -n jitterentropy_rng -x 32\n"
		"  cpurng-read -n stdrng -s \"host-42\" 1M > seed.bin\n");
}

static int parse_size(const char *s, unsigned long long *out)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s)
		return -1;
	if (*end && (end[1] || !strchr("kKMG", *end)))
		return -1;
	if (*end == 'k' || *end == 'K')
		v <<= 10;
	else if (*end == 'M')
		v <<= 20;
	else if (*end == 'G')
		v <<= 30;
	*out = v;
	return 0;
}

static int path_exists(const char *path)
{
	struct stat st;

	return !stat(path, &st);
}

/* Does /proc/crypto list an rng with this cra_name or driver name? */
static int proc_crypto_has(const char *name)
{
	char line[256], want_name[200], want_drv[200];
	FILE *f = fopen("/proc/crypto", "r");
	int found = 0;

	if (!f)
		return -1;
	snprintf(want_name, sizeof(want_name), "name         : %s\n", name);
	snprintf(want_drv, sizeof(want_drv), "driver       : %s\n", name);
	while (!found && fgets(line, sizeof(line), f))
		found = !strcmp(line, want_name) || !strcmp(line, want_drv);
	fclose(f);
	return found;
}

/* The module that provides one of our algorithms, for hints. */
static const char *module_for(const char *name)
{
	if (strstr(name, "jitterentropy"))
		return "cpurng_jitter";
	if (strstr(name, "cpu_randomness"))
		return "cpurng_collector";
	if (!strcmp(name, "stdrng") || !strncmp(name, "drbg_", 5))
		return strstr(name, "-cpurng") || !strcmp(name, "stdrng") ?
		       "cpurng_drbg" : "drbg";
	return NULL;
}

/*
 * Linux 7.3's AF_ALG restriction (/proc/sys/crypto/af_alg_restrict):
 * 0 none, 1 (the default) only allowlisted algorithms, and no RNG is on
 * the list, 2 AF_ALG off; -1 where the kernel has no such setting.
 */
static int af_alg_restriction(void)
{
	FILE *f = fopen("/proc/sys/crypto/af_alg_restrict", "r");
	int level = -1;

	if (!f)
		return -1;
	if (fscanf(f, "%d", &level) != 1)
		level = -1;
	fclose(f);
	return level;
}

/* Explain a failure to open the RNG, with the command that fixes it. */
static void explain_open_error(const char *name, int err)
{
	const char *mod = module_for(name);
	int restrict_level = af_alg_restriction();

	fprintf(stderr, "cpurng-read: cannot open %s: %s\n", name,
		strerror(-err));
	if (restrict_level == 2 ||
	    (restrict_level == 1 && err == -ENOENT && proc_crypto_has(name) == 1)) {
		fprintf(stderr, "%s%d%s\n%s\n%s\n",
			"  this kernel restricts AF_ALG (/proc/sys/crypto/af_alg_restrict is ",
			restrict_level, "):",
			"  it serves no RNG unless an administrator lifts that with",
			"  sysctl -w crypto.af_alg_restrict=0 (see the kernel's sysctl/crypto.rst)");
		return;
	}
	if (err == -EOPNOTSUPP || err == -EAFNOSUPPORT) {
		fprintf(stderr, "  AF_ALG is not available: modprobe af_alg algif_rng\n");
		return;
	}
	if (!path_exists("/sys/module/algif_rng")) {
		fprintf(stderr, "%s\n%s\n",
			"  algif_rng is not loaded (Debian's kernel does not load it by itself):",
			"  modprobe algif_rng");
		return;
	}
	if (!path_exists("/sys/module/crypto_user"))
		fprintf(stderr, "%s\n",
			"  crypto_user is not loaded; libkcapi needs it: modprobe crypto_user");
	if (proc_crypto_has(name) == 0) {
		fprintf(stderr, "  no crypto_rng named %s in /proc/crypto", name);
		if (mod)
			fprintf(stderr, ": load it with modprobe %s", mod);
		fprintf(stderr, "\n");
	}
}

static void explain_read_error(const char *name, int err)
{
	fprintf(stderr, "cpurng-read: reading %s failed: %s\n", name,
		strerror(-err));
	if (err == -EAGAIN)
		fprintf(stderr, "%s\n%s\n",
			"  an intermittent health test failure (or a DRBG not yet fully",
			"  seeded with require_full): retrying usually works");
	else if (err == -EFAULT)
		fprintf(stderr, "%s\n%s\n",
			"  a permanent health test failure: the instance stays failed",
			"  until reset; see /sys/kernel/cpurng_jitter/ and the kernel log");
	else if (err == -EINVAL)
		fprintf(stderr, "  the RNG was not seeded (a DRBG needs a reset first)\n");
}

static int read_seed_file(const char *path, uint8_t **seed, uint32_t *len)
{
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return -errno;
	*seed = malloc(SEED_MAX + 1);
	if (!*seed) {
		close(fd);
		return -ENOMEM;
	}
	n = read(fd, *seed, SEED_MAX + 1);
	close(fd);
	if (n < 0)
		return -errno;
	if (n > SEED_MAX)
		return -EFBIG;
	*len = n;
	return 0;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int write_all(const uint8_t *buf, size_t len, int hex)
{
	static const char digits[] = "0123456789abcdef";
	char out[2 * 4096];
	size_t i, j;

	if (!hex)
		return fwrite(buf, 1, len, stdout) == len ? 0 : -1;
	for (i = 0; i < len; i += j / 2) {
		for (j = 0; j < sizeof(out) && i + j / 2 < len; j += 2) {
			out[j] = digits[buf[i + j / 2] >> 4];
			out[j + 1] = digits[buf[i + j / 2] & 15];
		}
		if (fwrite(out, 1, j, stdout) != j)
			return -1;
	}
	return 0;
}

static void progress(unsigned long long done, unsigned long long total,
		     double start, int last)
{
	double secs = now() - start;

	fprintf(stderr, "\r%.1f MiB of %.1f MiB (%3.0f %%), %.2f MiB/s%s",
		done / 1048576.0, total / 1048576.0, 100.0 * done / total,
		secs > 0 ? done / 1048576.0 / secs : 0, last ? "\n" : "");
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "name", required_argument, NULL, 'n' },
		{ "hex", no_argument, NULL, 'x' },
		{ "seed", required_argument, NULL, 's' },
		{ "seed-file", required_argument, NULL, 'S' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	struct options o = { .name = "stdrng" };
	struct kcapi_handle *h = NULL;
	unsigned long long done = 0;
	uint8_t *buf = NULL, *seed = NULL;
	uint32_t seedlen = 0;
	double start, last_progress = 0;
	int c, ret = 1, show_progress;

	while ((c = getopt_long(argc, argv, "n:xs:S:vh", longopts, NULL)) != -1) {
		switch (c) {
		case 'n':
			o.name = optarg;
			break;
		case 'x':
			o.hex = 1;
			break;
		case 's':
			o.seed = optarg;
			break;
		case 'S':
			o.seed_file = optarg;
			break;
		case 'v':
			o.verbose = 1;
			break;
		case 'h':
			usage(stdout);
			return 0;
		case 'V':
			printf("cpurng-read %s\n", CPURNG_READ_VERSION);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind != argc - 1 || parse_size(argv[optind], &o.bytes)) {
		usage(stderr);
		return 2;
	}
	if (o.seed && o.seed_file) {
		fprintf(stderr, "cpurng-read: --seed and --seed-file exclude each other\n");
		return 2;
	}
	if (o.seed_file) {
		c = read_seed_file(o.seed_file, &seed, &seedlen);
		if (c) {
			fprintf(stderr, "cpurng-read: %s: %s\n", o.seed_file,
				c == -EFBIG ? "seed larger than 64 KiB" :
				strerror(-c));
			goto out;
		}
	} else if (o.seed) {
		seed = (uint8_t *)strdup(o.seed);
		seedlen = strlen(o.seed);
	}

	/* Our diagnostics replace libkcapi's own error lines. */
	kcapi_set_verbosity(KCAPI_LOG_NONE);
	c = kcapi_rng_init(&h, o.name, 0);
	if (c) {
		explain_open_error(o.name, c);
		goto out;
	}
	/*
	 * Every RNG is seeded: a DRBG instantiates (with the seed as its
	 * personalization string), others reset.  An RNG with a fixed seed
	 * size (e.g. ansi_cprng) needs exactly that many bytes.
	 */
	c = kcapi_rng_seed(h, seed, seedlen);
	if (c) {
		uint32_t need = kcapi_rng_seedsize(h);

		fprintf(stderr, "cpurng-read: seeding %s failed: %s\n", o.name,
			strerror(-c));
		if (need && need != seedlen)
			fprintf(stderr, "  %s needs a seed of exactly %u bytes (got %u): %s\n",
				o.name, need, seedlen, "use --seed-file");
		goto out;
	}

	buf = malloc(CHUNK);
	if (!buf)
		goto out;
	show_progress = isatty(STDERR_FILENO) && o.bytes >= PROGRESS_MIN;
	start = now();
	while (done < o.bytes) {
		size_t n = o.bytes - done < CHUNK ? o.bytes - done : CHUNK;
		ssize_t got = kcapi_rng_generate(h, buf, n);

		if (got < 0 || (size_t)got != n) {
			explain_read_error(o.name, got < 0 ? (int)got : -EIO);
			goto out;
		}
		if (write_all(buf, n, o.hex)) {
			perror("cpurng-read: write");
			goto out;
		}
		done += n;
		if (show_progress && now() - last_progress > 0.25) {
			last_progress = now();
			progress(done, o.bytes, start, 0);
		}
	}
	if (show_progress)
		progress(done, o.bytes, start, 1);
	if (o.hex)
		putchar('\n');
	if (o.verbose) {
		double secs = now() - start;

		fprintf(stderr, "cpurng-read: %llu bytes from %s in %.3f s: ",
			done, o.name, secs);
		fprintf(stderr, "%.0f bytes/s\n", secs > 0 ? done / secs : 0);
	}
	ret = fflush(stdout) ? 1 : 0;
out:
	if (buf) {
		kcapi_memset_secure(buf, 0, CHUNK);
		free(buf);
	}
	if (seed) {
		kcapi_memset_secure(seed, 0, seedlen);
		free(seed);
	}
	kcapi_rng_destroy(h);
	return ret;
}
