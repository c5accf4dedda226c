// SPDX-License-Identifier: GPL-2.0
/*
 * cpurng-capture: record raw, unconditioned noise samples into a file
 * that carries its environment.  See cpurng-capture.1.
 *
 *   kernel: from the jitter RNG's or the collector's debugfs capture
 *           (modules loaded with raw_capture=1)
 *   native: the jitter RNG's noise core (crypto/jitter_noise.c, built at
 *           -O0 into this program) run in this process, timed with the
 *           cycle counter
 *
 * File: a text header ("cpurng-noise 1", then "key: value" lines, then an
 * empty line), then rows x samples records of little-endian u64 fields.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include "../include/cpurng/jitter_noise.h"

#define JDIR		"/sys/kernel/debug/cpurng_jitter"
#define CDIR		"/sys/kernel/debug/cpurng_collector"
#define JREC		CPURNG_NOISE_RECORD_WORDS
#define KREAD_MAX	(65536 / (JREC * 8))	/* records per kernel read */
#define L1_BYTES	4096U
#define LLC_BYTES	(64U << 20)

static const char *const modes[] = {
	"normal", "irqoff", "preemptoff", "l1", "llc", "fold", "mem", NULL,
};

struct options {
	const char *source, *where, *mode, *out;
	unsigned long samples, rows;
	int restart, boot;
	unsigned int mem_size, mem_loops, fold_loops;
};

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: cpurng-capture [OPTIONS] -o FILE\n"
		"Record raw noise samples for analysis (cpurng-ea, cpurng-spectrum).\n\n"
		"  -s, --source SRC     jitter (default) or collector\n"
		"  -w, --where WHERE    kernel (default) or native\n"
		"  -m, --mode MODE      normal, irqoff, preemptoff, l1, llc, fold, mem\n"
		"  -n, --samples N      samples (per restart), default 1000000\n"
		"  -r, --restart R      R restarts of a fresh noise instance\n"
		"  -b, --boot           the samples the kernel module took at load\n"
		"  -o, --output FILE    output file\n"
		"      --mem-size B     native: memory buffer (default 65536)\n"
		"      --mem-loops N    native: accesses per sample (default 128)\n"
		"      --fold-loops N   native: foldings per sample (default 1)\n"
		"  -h, --help           this help\n");
}

static void first_line(const char *path, const char *prefix, char *out,
		       size_t size)
{
	char line[4096];
	FILE *f = fopen(path, "r");

	snprintf(out, size, "unknown");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, prefix, strlen(prefix)))
			continue;
		snprintf(out, size, "%s", line + strlen(prefix) +
			 strspn(line + strlen(prefix), " \t:"));
		out[strcspn(out, "\n")] = '\0';
		break;
	}
	fclose(f);
}

/*
 * A hypervisor sets CPUID.1:ECX bit 31 and names itself at leaf 0x40000000;
 * the timer of a guest may be trapped, scaled or emulated, so every capture
 * says which it was.  Elsewhere the cpuinfo flags are the only hint.
 */
static void virtualization(char *out, size_t size)
{
#if defined(__x86_64__) || defined(__i386__)
	unsigned int a, b, c, d;
	char vendor[13] = "";

	__cpuid(1, a, b, c, d);
	if (!(c & (1U << 31))) {
		snprintf(out, size, "none detected (CPUID hypervisor bit clear)");
		return;
	}
	__cpuid(0x40000000, a, b, c, d);
	memcpy(vendor, &b, 4);
	memcpy(vendor + 4, &c, 4);
	memcpy(vendor + 8, &d, 4);
	snprintf(out, size, "yes, hypervisor '%s' (CPUID)", vendor);
#else
	char flags[8192];

	first_line("/proc/cpuinfo", "flags", flags, sizeof(flags));
	snprintf(out, size, "%s", strstr(flags, " hypervisor") ?
		 "yes (cpuinfo hypervisor flag)" : "none detected");
#endif
}

static void write_header(FILE *f, const struct options *o)
{
	char cpu[256], hv[256], cs[128], date[64];
	struct utsname u;
	time_t t = time(NULL);

	first_line("/proc/cpuinfo", "model name", cpu, sizeof(cpu));
	virtualization(hv, sizeof(hv));
	first_line("/sys/devices/system/clocksource/clocksource0/current_clocksource",
		   "", cs, sizeof(cs));
	uname(&u);
	strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%SZ", gmtime(&t));
	fprintf(f, "cpurng-noise 1\n");
	fprintf(f, "source: %s\nwhere: %s\nmode: %s\n", o->source, o->where,
		o->boot ? "boot" : o->mode);
	fprintf(f, "fields: %s\n", !strcmp(o->source, "collector") ?
		"jiffies cycles site value stack probe_cpu" :
		"delta fold mem start");
	fprintf(f, "rows: %lu\nsamples: %lu\n", o->rows, o->samples);
	fprintf(f, "cpu: %s\n", cpu);
	fprintf(f, "virtualization: %s\n", hv);
	fprintf(f, "clocksource: %s\nkernel: %s %s\n", cs, u.sysname,
		u.release);
	fprintf(f, "timer: %s\n", !strcmp(o->where, "native") ?
		"rdtsc (userspace)" : "random_get_entropy (kernel)");
	if (!strcmp(o->where, "native"))
		fprintf(f, "config: mem_size %u, mem_loops %u, fold_loops %u\n",
			o->mem_size, o->mem_loops, o->fold_loops);
	fprintf(f, "date: %s\n\n", date);
}

static int write_text(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY), ok;

	if (fd < 0)
		return -errno;
	ok = write(fd, text, strlen(text)) == (ssize_t)strlen(text);
	close(fd);
	return ok ? 0 : -EIO;
}

/* read() exactly @len bytes (a debugfs read may return less). */
static int read_all(int fd, void *buf, size_t len)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = read(fd, (char *)buf + done, len - done);

		if (n <= 0)
			return n ? -errno : -EIO;
		done += n;
	}
	return 0;
}

static int kernel_jitter(const struct options *o, FILE *out)
{
	static u64 buf[KREAD_MAX * JREC];
	const char *file = o->boot ? JDIR "/boot" :
			   o->restart ? JDIR "/restart" : JDIR "/raw";
	unsigned long row, done;
	int fd, ret = 0;

	if (!o->boot && write_text(JDIR "/mode", o->mode)) {
		fprintf(stderr, "cpurng-capture: cannot set mode %s in %s/mode "
			"(load cpurng_jitter with raw_capture=1)\n",
			o->mode, JDIR);
		return -1;
	}
	fd = open(file, O_RDONLY);
	if (fd < 0) {
		fprintf(stderr, "cpurng-capture: %s: %s (load cpurng_jitter with raw_capture=1)\n",
			file, strerror(errno));
		return -1;
	}
	for (row = 0; !ret && row < o->rows; row++) {
		for (done = 0; !ret && done < o->samples; ) {
			unsigned long n = o->samples - done;

			if (n > KREAD_MAX)
				n = KREAD_MAX;
			if (o->restart && n != o->samples) {
				fprintf(stderr, "cpurng-capture: at most %d samples per restart\n",
					KREAD_MAX);
				ret = -1;
				break;
			}
			ret = read_all(fd, buf, n * JREC * sizeof(u64));
			if (!ret && fwrite(buf, JREC * sizeof(u64), n, out) != n)
				ret = -EIO;
			done += n;
		}
	}
	if (ret)
		fprintf(stderr, "cpurng-capture: reading %s: %s\n", file,
			strerror(ret < 0 ? -ret : EIO));
	close(fd);
	return ret;
}

static int kernel_collector(const struct options *o, FILE *out)
{
	static u64 buf[1024 * 6];
	unsigned long done = 0;
	int fd = open(CDIR "/raw", O_RDONLY);

	if (fd < 0) {
		fprintf(stderr, "cpurng-capture: %s: %s "
			"(load cpurng_collector with raw_capture=1)\n",
			CDIR "/raw", strerror(errno));
		return -1;
	}
	while (done < o->samples) {
		ssize_t n = read(fd, buf, sizeof(buf));
		unsigned long recs;

		if (n <= 0) {
			fprintf(stderr, "cpurng-capture: reading events: %s\n",
				n ? strerror(errno) : "end of file");
			close(fd);
			return -1;
		}
		recs = n / (6 * sizeof(u64));
		if (recs > o->samples - done)
			recs = o->samples - done;
		if (fwrite(buf, 6 * sizeof(u64), recs, out) != recs) {
			close(fd);
			return -1;
		}
		done += recs;
	}
	close(fd);
	return 0;
}

static int native_jitter(const struct options *o, FILE *out)
{
	struct cpurng_noise n = { 0 };
	struct cpurng_noise_sample s;
	unsigned long row, i;
	u32 size = o->mem_size;
	u64 rec[JREC];

	if (!strcmp(o->mode, "irqoff") || !strcmp(o->mode, "preemptoff")) {
		fprintf(stderr, "cpurng-capture: mode %s needs the kernel; "
			"natively not available\n",
			o->mode);
		return -1;
	}
	if (!strcmp(o->mode, "l1"))
		size = L1_BYTES;
	else if (!strcmp(o->mode, "llc"))
		size = LLC_BYTES;
	n.mem_mask = size - 1;
	n.mem_loops = o->mem_loops;
	n.fold_loops = o->fold_loops;
	n.paths = !strcmp(o->mode, "fold") ? CPURNG_NOISE_FOLD :
		  !strcmp(o->mode, "mem") ? CPURNG_NOISE_MEM : CPURNG_NOISE_ALL;
	for (row = 0; row < o->rows; row++) {
		/* A restart: a fresh buffer and no history. */
		n.mem = calloc(1, size);
		if (!n.mem)
			return -1;
		n.mem_pos = 0;
		n.fold_acc = 0;
		for (i = 0; i < o->samples; i++) {
			cpurng_noise_measure(&n, &s);
			rec[0] = s.delta;
			rec[1] = s.fold_delta;
			rec[2] = s.mem_delta;
			rec[3] = s.t_start;
			if (fwrite(rec, sizeof(rec), 1, out) != 1)
				return -1;
		}
		free(n.mem);
	}
	return 0;
}

static int valid_mode(const char *m)
{
	int i;

	for (i = 0; modes[i]; i++)
		if (!strcmp(m, modes[i]))
			return 1;
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "source", required_argument, NULL, 's' },
		{ "where", required_argument, NULL, 'w' },
		{ "mode", required_argument, NULL, 'm' },
		{ "samples", required_argument, NULL, 'n' },
		{ "restart", required_argument, NULL, 'r' },
		{ "boot", no_argument, NULL, 'b' },
		{ "output", required_argument, NULL, 'o' },
		{ "mem-size", required_argument, NULL, 'M' },
		{ "mem-loops", required_argument, NULL, 'L' },
		{ "fold-loops", required_argument, NULL, 'F' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct options o = {
		.source = "jitter", .where = "kernel", .mode = "normal",
		.samples = 1000000, .rows = 1, .mem_size = 65536,
		.mem_loops = 128, .fold_loops = 1,
	};
	FILE *out;
	int c, ret;

	while ((c = getopt_long(argc, argv, "s:w:m:n:r:bo:h", longopts,
				NULL)) != -1) {
		switch (c) {
		case 's':
			o.source = optarg;
			break;
		case 'w':
			o.where = optarg;
			break;
		case 'm':
			o.mode = optarg;
			break;
		case 'n':
			o.samples = strtoul(optarg, NULL, 0);
			break;
		case 'r':
			o.restart = 1;
			o.rows = strtoul(optarg, NULL, 0);
			break;
		case 'b':
			o.boot = 1;
			break;
		case 'o':
			o.out = optarg;
			break;
		case 'M':
			o.mem_size = strtoul(optarg, NULL, 0);
			break;
		case 'L':
			o.mem_loops = strtoul(optarg, NULL, 0);
			break;
		case 'F':
			o.fold_loops = strtoul(optarg, NULL, 0);
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (!o.out || optind != argc || !o.samples || !o.rows ||
	    !valid_mode(o.mode) || (strcmp(o.source, "jitter") &&
				    strcmp(o.source, "collector")) ||
	    (strcmp(o.where, "kernel") && strcmp(o.where, "native")) ||
	    !o.mem_size || (o.mem_size & (o.mem_size - 1))) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(o.source, "collector") && !strcmp(o.where, "native")) {
		fprintf(stderr, "cpurng-capture: the collector exists only in the kernel\n");
		return 2;
	}
	if (o.boot) {
		/* As many samples as the module kept at load (debugfs files
		 * have no size: read to the end).
		 */
		static u64 rec[JREC];
		FILE *b = fopen(JDIR "/boot", "r");

		if (!b) {
			perror(JDIR "/boot");
			return 1;
		}
		o.samples = 0;
		while (fread(rec, sizeof(rec), 1, b) == 1)
			o.samples++;
		fclose(b);
		if (!o.samples) {
			fprintf(stderr, "cpurng-capture: no boot samples "
				"(load with raw_boot_samples=N)\n");
			return 1;
		}
	}
	out = fopen(o.out, "w");
	if (!out) {
		perror(o.out);
		return 1;
	}
	write_header(out, &o);
	if (!strcmp(o.where, "native"))
		ret = native_jitter(&o, out);
	else if (!strcmp(o.source, "collector"))
		ret = kernel_collector(&o, out);
	else
		ret = kernel_jitter(&o, out);
	if (fclose(out) || ret) {
		fprintf(stderr, "cpurng-capture: capture failed\n");
		unlink(o.out);
		return 1;
	}
	return 0;
}
