// SPDX-License-Identifier: GPL-2.0
/*
 * afalg_fuzz [-s SEED] [-t THREADS] [-n OPS] NAME...
 *
 * Random sequences of AF_ALG calls against crypto_rng algorithms: socket,
 * bind (the given names, their driver names, mangled and overlong names,
 * other types), setsockopt (keys of random length, random options),
 * accept, read/recvmsg with random sizes and flags, sendmsg, close, on
 * THREADS threads sharing nothing but the kernel, OPS operations in all.
 * Errors are expected; what must not happen is a crash (the harness
 * watches the console), a hang (the case timeout), or a result outside
 * the call's contract: a read longer than asked, a bind of a name that
 * exists failing with anything but a documented errno.
 *
 * The seed is printed first: rerun with -s SEED to replay a run (the
 * per-thread sequences replay exactly; their interleaving does not).
 */
#include <errno.h>
#include <linux/if_alg.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "ksft_report.h"

#ifndef SOL_ALG
#define SOL_ALG 279
#endif
#ifndef ALG_SET_DRBG_ENTROPY
#define ALG_SET_DRBG_ENTROPY 6
#endif

#define MAX_FDS		32
#define MAX_NAMES	64
#define BUF_SIZE	(64 * 1024 + 64)

static const char *names[MAX_NAMES];
static int nnames;
static unsigned long ops_per_thread;

/* What a descriptor is, as far as this thread knows. */
enum kind { FRESH, BOUND, OP };

struct fuzzer {
	pthread_t thread;
	uint64_t rng;		/* xorshift64* state */
	int fds[MAX_FDS];
	enum kind kinds[MAX_FDS];
	int nfds;
	unsigned long ops, binds_ok, reads_ok, bytes, violations;
	char violation[160];
	unsigned char buf[BUF_SIZE];
};

static uint64_t next(struct fuzzer *f)
{
	f->rng ^= f->rng >> 12;
	f->rng ^= f->rng << 25;
	f->rng ^= f->rng >> 27;
	return f->rng * 0x2545f4914f6cdd1dULL;
}

static unsigned int below(struct fuzzer *f, unsigned int n)
{
	return next(f) % n;
}

static void violation(struct fuzzer *f, const char *what, long ret, int err)
{
	f->violations++;
	if (!f->violation[0])
		snprintf(f->violation, sizeof(f->violation),
			 "%s returned %ld (errno %d)", what, ret, err);
}

/* Remember @fd (closing a random one when full); returns its index. */
static int keep(struct fuzzer *f, int fd, enum kind kind)
{
	unsigned int i;

	if (fd < 0)
		return -1;
	i = f->nfds;
	if (f->nfds == MAX_FDS) {
		i = below(f, MAX_FDS);
		close(f->fds[i]);
	} else {
		f->nfds++;
	}
	f->fds[i] = fd;
	f->kinds[i] = kind;
	return i;
}

/*
 * Mostly a descriptor of the kind the operation wants (so that reads meet
 * operation sockets often enough to matter), sometimes any: the kernel
 * must cope with every call on every kind.  Returns the table index or -1.
 */
static int pick(struct fuzzer *f, enum kind want)
{
	int i, start;

	if (!f->nfds)
		return -1;
	start = below(f, f->nfds);
	if (below(f, 4))
		for (i = 0; i < f->nfds; i++)
			if (f->kinds[(start + i) % f->nfds] == want)
				return (start + i) % f->nfds;
	return start;
}

static int pick_fd(struct fuzzer *f, enum kind want)
{
	int i = pick(f, want);

	return i < 0 ? -1 : f->fds[i];
}

/*
 * A size: mostly small, sometimes around the 128-byte AF_ALG read cap,
 * sometimes large.
 */
static size_t size(struct fuzzer *f)
{
	switch (below(f, 8)) {
	case 0:
		return 0;
	case 1:
		return 127 + below(f, 3);
	case 2:
		return below(f, 65536 + 64);
	default:
		return below(f, 300);
	}
}

static void op_bind(struct fuzzer *f)
{
	static const char *const types[] = { "rng", "rng", "rng", "hash",
					      "skcipher", "aead", "", "rngx" };
	struct sockaddr_alg sa = { .salg_family = AF_ALG };
	const char *name = names[below(f, nnames)];
	int i = pick(f, FRESH), fd, ret, known = 1;

	if (i < 0 || below(f, 4) == 0) {
		fd = socket(AF_ALG, SOCK_SEQPACKET, 0);
		if (fd < 0) {
			violation(f, "socket(AF_ALG)", fd, errno);
			return;
		}
		i = keep(f, fd, FRESH);
	}
	fd = f->fds[i];
	strncpy((char *)sa.salg_type, types[below(f, 8)],
		sizeof(sa.salg_type) - 1);
	if (strcmp((char *)sa.salg_type, "rng"))
		known = 0;
	switch (below(f, 6)) {
	case 0:		/* mangled: one byte changed */
		strncpy((char *)sa.salg_name, name, sizeof(sa.salg_name) - 1);
		sa.salg_name[below(f, strlen(name) + 1)] = 1 + below(f, 255);
		known = 0;
		break;
	case 1:		/* overlong: no terminating NUL in salg_name */
		memset(sa.salg_name, 'a' + below(f, 26), sizeof(sa.salg_name));
		known = 0;
		break;
	default:
		strncpy((char *)sa.salg_name, name, sizeof(sa.salg_name) - 1);
	}
	if (below(f, 8) == 0) {
		sa.salg_feat = next(f);
		sa.salg_mask = next(f);
		known = 0;
	}
	ret = bind(fd, (struct sockaddr *)&sa,
		   below(f, 16) ? sizeof(sa) : below(f, sizeof(sa) + 8));
	if (!ret) {
		f->binds_ok++;
		f->kinds[i] = BOUND;
		return;
	}
	/*
	 * A fresh socket bound to a registered rng name may only fail for
	 * lack of memory or a module going away under a load/unload loop,
	 * or because this socket was already bound or accepted.
	 */
	if (known && errno != ENOENT && errno != EBUSY && errno != EINVAL &&
	    errno != ENOMEM && errno != EEXIST && errno != EAGAIN &&
	    errno != EFAULT && errno != ELIBBAD && errno != EOPNOTSUPP)
		violation(f, "bind(known name)", ret, errno);
}

static void op_setsockopt(struct fuzzer *f)
{
	int fd = pick_fd(f, BOUND), opt;
	size_t len = below(f, 4) ? size(f) % 1100 : size(f);

	if (fd < 0)
		return;
	opt = below(f, 4) ? ALG_SET_KEY :
	      below(f, 2) ? ALG_SET_DRBG_ENTROPY : (int)below(f, 12);
	/* Unchecked: any errno is a valid refusal. */
	setsockopt(fd, below(f, 8) ? SOL_ALG : (int)below(f, 300), opt,
		   below(f, 16) ? f->buf : NULL, len);
}

static void op_accept(struct fuzzer *f)
{
	int fd = pick_fd(f, BOUND);

	if (fd >= 0)
		keep(f, accept(fd, NULL, 0), OP);
}

static void op_read(struct fuzzer *f)
{
	static const int flags[] = { 0, 0, 0, MSG_DONTWAIT, MSG_TRUNC,
				     MSG_PEEK, MSG_WAITALL, MSG_OOB };
	int fd = pick_fd(f, OP);
	size_t len = size(f);
	struct iovec iov[2];
	struct msghdr msg = { .msg_iov = iov };
	ssize_t n;

	if (fd < 0)
		return;
	if (below(f, 2)) {
		n = read(fd, f->buf, len);
	} else {
		size_t a = len ? below(f, len + 1) : 0;

		iov[0].iov_base = f->buf;
		iov[0].iov_len = a;
		iov[1].iov_base = f->buf + a;
		iov[1].iov_len = len - a;
		msg.msg_iovlen = 1 + below(f, 2);
		if (msg.msg_iovlen == 1)
			iov[0].iov_len = len;
		n = recvmsg(fd, &msg, flags[below(f, 8)]);
	}
	if (n > (ssize_t)len)
		violation(f, "read longer than asked", n, 0);
	if (n > 0) {
		f->reads_ok++;
		f->bytes += n;
	}
}

static void op_send(struct fuzzer *f)
{
	int fd = pick_fd(f, OP);

	if (fd >= 0)
		send(fd, f->buf, size(f) % 512, MSG_DONTWAIT | MSG_NOSIGNAL);
}

static void op_close(struct fuzzer *f)
{
	unsigned int i;

	if (!f->nfds)
		return;
	i = below(f, f->nfds);
	close(f->fds[i]);
	f->nfds--;
	f->fds[i] = f->fds[f->nfds];
	f->kinds[i] = f->kinds[f->nfds];
}

static void op_socket(struct fuzzer *f)
{
	static const int types[] = { SOCK_SEQPACKET, SOCK_SEQPACKET,
				     SOCK_STREAM, SOCK_DGRAM };
	int fd = socket(AF_ALG, types[below(f, 4)] | (below(f, 2) ?
			SOCK_CLOEXEC : 0), below(f, 8) ? 0 : below(f, 4));

	keep(f, fd, FRESH);
}

static void *fuzz(void *arg)
{
	struct fuzzer *f = arg;
	unsigned int i;

	for (i = 0; i < BUF_SIZE; i++)
		f->buf[i] = next(f);
	for (f->ops = 0; f->ops < ops_per_thread; f->ops++) {
		switch (below(f, 16)) {
		case 0:
			op_socket(f);
			break;
		case 1: case 2: case 3:
			op_bind(f);
			break;
		case 4: case 5:
			op_setsockopt(f);
			break;
		case 6: case 7:
			op_accept(f);
			break;
		case 8: case 9: case 10: case 11:
			op_read(f);
			break;
		case 12:
			op_send(f);
			break;
		default:
			op_close(f);
		}
	}
	while (f->nfds)
		op_close(f);
	return NULL;
}

int main(int argc, char **argv)
{
	unsigned long ops = 100000, threads = 4, t;
	unsigned long total = 0, binds = 0, reads = 0, bytes = 0, bad = 0;
	uint64_t seed = (uint64_t)time(NULL) << 20 ^ getpid();
	struct fuzzer *fz;
	int opt, i;

	while ((opt = getopt(argc, argv, "s:t:n:")) != -1) {
		switch (opt) {
		case 's':
			seed = strtoull(optarg, NULL, 0);
			break;
		case 't':
			threads = strtoul(optarg, NULL, 0);
			break;
		case 'n':
			ops = strtoul(optarg, NULL, 0);
			break;
		default:
			fprintf(stderr,
				"usage: %s [-s SEED] [-t THREADS] [-n OPS] NAME...\n",
				argv[0]);
			return 2;
		}
	}
	for (i = optind; i < argc && nnames < MAX_NAMES; i++)
		names[nnames++] = argv[i];
	if (!nnames || !threads || threads > 64) {
		fprintf(stderr, "afalg_fuzz: need 1-64 threads and at least one name\n");
		return 2;
	}
	ops_per_thread = (ops + threads - 1) / threads;
	report_start(2);
	report_diag("seed 0x%llx, %lu threads x %lu operations, %d names",
		    (unsigned long long)seed, threads, ops_per_thread, nnames);
	report_diag("replay: afalg_fuzz -s 0x%llx -t %lu -n %lu NAME...",
		    (unsigned long long)seed, threads, ops);
	fz = calloc(threads, sizeof(*fz));
	if (!fz)
		return 1;
	for (t = 0; t < threads; t++) {
		fz[t].rng = seed ^ (0x9e3779b97f4a7c15ULL * (t + 1));
		if (!fz[t].rng)
			fz[t].rng = 1;
		if (pthread_create(&fz[t].thread, NULL, fuzz, &fz[t])) {
			report_check(0, "threads_started");
			return 1;
		}
	}
	for (t = 0; t < threads; t++) {
		pthread_join(fz[t].thread, NULL);
		total += fz[t].ops;
		binds += fz[t].binds_ok;
		reads += fz[t].reads_ok;
		bytes += fz[t].bytes;
		bad += fz[t].violations;
		if (fz[t].violations)
			report_diag("thread %lu: %s", t, fz[t].violation);
	}
	report_diag("%lu operations: %lu binds, %lu reads (%lu bytes) succeeded",
		    total, binds, reads, bytes);
	report_check(total >= ops && binds > 0 && reads > 0,
		     "operations_done_with_successful_binds_and_reads");
	report_check(!bad, "no_result_outside_the_contract");
	free(fz);
	return report_exit();
}
