// SPDX-License-Identifier: GPL-2.0
/*
 * vmfork_hold: hold RNG handles open across a VM snapshot, for the
 * snapshot test (group vmfork, tests/harness/snapshot.py).
 *
 *   vmfork_hold <control-tty> <label>=<crypto_rng name or /dev path>...
 *
 * Binds and seeds one AF_ALG tfm per crypto_rng name (a path is read as a
 * file), reads 32 bytes from each, and prints
 *
 *   # before <label> <hex>
 *   # cpurng-snapshot-ready
 *
 * then blocks until the harness, having saved the VM and restored it into
 * a clone, writes one line ("clone <n> <new|same>") to the control tty.
 * It prints that line as "# control: ..." and reads the same handles again:
 *
 *   # clone-output <label> <hex>          (or error=<errno>)
 *
 * which the harness compares between clones.  Exit status 1 if a handle
 * could not be opened or read.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../lib/afalg.h"

#define MAX_HANDLES	16
#define OUT_BYTES	32

struct handle {
	const char *label;
	const char *name;
	int tfm;
	int op;
};

static int open_handle(struct handle *h)
{
	/* Same personalization in every clone: only the state can differ. */
	static const char pers[] = "cpurng vmfork test";
	int ret;

	h->tfm = -1;
	h->op = -1;
	if (h->name[0] == '/') {
		h->op = open(h->name, O_RDONLY);
		return h->op < 0 ? -errno : 0;
	}
	h->tfm = afalg_rng_bind(h->name);
	if (h->tfm < 0)
		return h->tfm;
	ret = afalg_rng_seed(h->tfm, pers, sizeof(pers) - 1);
	if (ret)
		return ret;
	h->op = afalg_rng_accept(h->tfm);
	return h->op < 0 ? h->op : 0;
}

/* Print "# <what> <label> <hex>" or "... error=<errno>"; 0 on success. */
static int read_handle(const struct handle *h, const char *what)
{
	unsigned char buf[OUT_BYTES];
	ssize_t n = afalg_rng_read_full(h->op, buf, sizeof(buf));
	int i;

	printf("# %s %s ", what, h->label);
	if (n != sizeof(buf)) {
		printf("error=%zd\n", n < 0 ? n : -EIO);
		return 1;
	}
	for (i = 0; i < OUT_BYTES; i++)
		printf("%02x", buf[i]);
	printf("\n");
	return 0;
}

/* One line from the control tty, without its newline. */
static int read_control(const char *tty, char *line, size_t size)
{
	size_t len = 0;
	int fd = open(tty, O_RDONLY | O_NOCTTY);

	if (fd < 0)
		return -errno;
	while (len + 1 < size) {
		ssize_t n = read(fd, line + len, 1);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			close(fd);
			return n ? -errno : -EIO;
		}
		if (line[len] == '\n' || line[len] == '\r') {
			if (len)
				break;
			continue;
		}
		len++;
	}
	line[len] = '\0';
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	struct handle h[MAX_HANDLES];
	char line[128];
	int n = 0, i, ret, failed = 0;

	if (argc < 3 || argc - 2 > MAX_HANDLES) {
		fprintf(stderr, "usage: %s <control-tty> <label>=<name>... (at most %d)\n",
			argv[0], MAX_HANDLES);
		return 2;
	}
	for (i = 2; i < argc; i++, n++) {
		char *eq = strchr(argv[i], '=');

		if (!eq || eq == argv[i] || !eq[1]) {
			fprintf(stderr, "%s: not <label>=<name>: %s\n", argv[0],
				argv[i]);
			return 2;
		}
		*eq = '\0';
		h[n].label = argv[i];
		h[n].name = eq + 1;
		ret = open_handle(&h[n]);
		if (ret) {
			printf("# cannot open %s (%s): %s\n", h[n].label,
			       h[n].name, strerror(-ret));
			return 1;
		}
		failed |= read_handle(&h[n], "before");
	}
	if (failed)
		return 1;
	printf("# cpurng-snapshot-ready\n");
	fflush(stdout);

	ret = read_control(argv[1], line, sizeof(line));
	if (ret) {
		printf("# control tty %s: %s\n", argv[1], strerror(-ret));
		return 1;
	}
	printf("# control: %s\n", line);
	for (i = 0; i < n; i++)
		failed |= read_handle(&h[i], "clone-output");
	fflush(stdout);
	return failed;
}
