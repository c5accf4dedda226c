// SPDX-License-Identifier: GPL-2.0
/*
 * failnth_sweep load MODULE.ko DRIVER-SUBSTRING [PARAMS]
 * failnth_sweep afalg NAME
 *
 * Fault injection through /proc/thread-self/fail-nth (CONFIG_FAILSLAB,
 * CONFIG_FAULT_INJECTION_DEBUG_FS): for N = 1, 2, ... the N-th slab
 * allocation of this thread fails, until an operation completes without
 * reaching its N-th allocation.  So every allocation the operation makes
 * in this thread fails once.
 *
 *   load   finit_module() of MODULE.ko.  Each injected failure must end in
 *          a clean errno with nothing left behind: the module not loaded
 *          and no /proc/crypto driver containing DRIVER-SUBSTRING.
 *   afalg  bind, accept and a 32-byte read of NAME through AF_ALG (the
 *          crypto API's tfm allocation, our instance set-up and our
 *          generate path).  Each injected failure must end in a clean
 *          errno, and a fresh socket must work afterwards.
 *
 * The kernel side (KASAN, kmemleak, lockdep) is judged by the harness from
 * the console.  Allocations made on other threads (workqueues, kthreads)
 * are not reached this way.  Prints KTAP; exit 0 pass, 1 fail, 4 skip.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "../../lib/afalg.h"
#include "ksft_report.h"

#define MAX_N	5000

static int fail_nth_fd = -1;

static int fail_nth_set(int n)
{
	char buf[16];
	int len = snprintf(buf, sizeof(buf), "%d", n);

	return pwrite(fail_nth_fd, buf, len, 0) == len ? 0 : -errno;
}

/* 1 if the failure set up by fail_nth_set() was injected. */
static int fail_nth_fired(void)
{
	char buf[16] = "";

	if (pread(fail_nth_fd, buf, sizeof(buf) - 1, 0) <= 0)
		return -1;
	return atoi(buf) == 0;
}

static int proc_has(const char *path, const char *needle)
{
	char line[512];
	FILE *f = fopen(path, "r");
	int found = 0;

	if (!f)
		return 0;
	while (!found && fgets(line, sizeof(line), f))
		found = !!strstr(line, needle);
	fclose(f);
	return found;
}

static int module_loaded(const char *name)
{
	char needle[80];

	snprintf(needle, sizeof(needle), "%s ", name);
	return proc_has("/proc/modules", needle);
}

/* "cpurng_drbg" from ".../cpurng_drbg.ko" */
static void module_name(const char *path, char *name, size_t size)
{
	const char *base = strrchr(path, '/');

	snprintf(name, size, "%s", base ? base + 1 : path);
	if (strstr(name, ".ko"))
		*strstr(name, ".ko") = '\0';
}

static int errno_clean(int err)
{
	/* What an allocation failure may turn into on the way out. */
	return err == ENOMEM || err == EINVAL || err == EAGAIN ||
	       err == EFAULT || err == ENOENT || err == ENOBUFS ||
	       err == EBUSY || err == ELIBBAD || err == EIO || err == ENODEV ||
	       err == ENFILE;	/* no struct file for a new socket */
}

static int sweep_load(const char *path, const char *driver, const char *params)
{
	char name[64];
	int n, fired = 0, bad = 0, ok_anyway = 0, counts[256] = { 0 };

	module_name(path, name, sizeof(name));
	for (n = 1; n <= MAX_N; n++) {
		int fd, ret, err, did;

		if (module_loaded(name) &&
		    syscall(SYS_delete_module, name, O_NONBLOCK)) {
			report_diag("cannot unload %s: %s", name, strerror(errno));
			return report_check(0, "module_unloads_between_attempts");
		}
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			report_diag("%s: %s", path, strerror(errno));
			return report_check(0, "module_file_readable");
		}
		fail_nth_set(n);
		ret = syscall(SYS_finit_module, fd, params, 0);
		err = errno;
		did = fail_nth_fired();
		fail_nth_set(0);
		close(fd);
		if (!did) {
			if (ret) {
				report_diag("load without injected failure: %s",
					    strerror(err));
				bad++;
			}
			break;
		}
		fired++;
		if (!ret) {
			ok_anyway++;	/* the failure was absorbed */
			continue;
		}
		counts[err & 255]++;
		if (!errno_clean(err)) {
			report_diag("allocation %d: unexpected errno %d (%s)", n,
				    err, strerror(err));
			bad++;
		}
		if (module_loaded(name) || proc_has("/proc/crypto", driver)) {
			report_diag("allocation %d: failed load left %s behind", n,
				    module_loaded(name) ? "the module" : driver);
			bad++;
		}
	}
	report_diag("%s: %d allocations failed one by one", name, fired);
	report_diag("refused the load: %d (ENOMEM %d, other %d); absorbed: %d",
		    fired - ok_anyway, counts[ENOMEM],
		    fired - ok_anyway - counts[ENOMEM], ok_anyway);
	if (n > MAX_N) {
		report_diag("still failing after %d allocations", MAX_N);
		bad++;
	}
	return report_check(!bad && fired > 0 && module_loaded(name),
			    "load_sweep_clean_and_loads_at_the_end");
}

/* bind + accept + read 32 bytes; 0 or -errno. */
static int afalg_once(const char *alg)
{
	unsigned char out[32];
	int tfm = afalg_rng_bind(alg), op, ret;

	if (tfm < 0)
		return tfm;
	ret = afalg_rng_seed(tfm, NULL, 0);
	if (ret == -ENOPROTOOPT)
		ret = 0;
	op = ret ? ret : afalg_rng_accept(tfm);
	if (op >= 0) {
		ssize_t n = afalg_rng_read_full(op, out, sizeof(out));

		ret = n < 0 ? (int)n : 0;
		close(op);
	} else {
		ret = op;
	}
	close(tfm);
	return ret;
}

static int sweep_afalg(const char *alg)
{
	int n, fired = 0, refused = 0, bad = 0, ret;

	ret = afalg_once(alg);
	if (ret) {
		report_diag("%s does not work without faults: %s", alg,
			    strerror(-ret));
		return report_check(0, "works_without_faults");
	}
	for (n = 1; n <= MAX_N; n++) {
		int did;

		fail_nth_set(n);
		ret = afalg_once(alg);
		did = fail_nth_fired();
		fail_nth_set(0);
		if (!did)
			break;
		fired++;
		if (ret) {
			refused++;
			if (!errno_clean(-ret)) {
				report_diag("allocation %d: unexpected errno %d (%s)",
					    n, -ret, strerror(-ret));
				bad++;
			}
		}
		ret = afalg_once(alg);
		if (ret) {
			report_diag("allocation %d: next use fails: %s", n,
				    strerror(-ret));
			bad++;
		}
	}
	report_diag("%s: %d allocations failed one by one", alg, fired);
	report_diag("refused the request cleanly: %d; absorbed: %d", refused,
		    fired - refused);
	if (n > MAX_N) {
		report_diag("still failing after %d allocations", MAX_N);
		bad++;
	}
	return report_check(!bad && fired > 0, "afalg_sweep_clean_and_works_after");
}

int main(int argc, char **argv)
{
	fail_nth_fd = open("/proc/thread-self/fail-nth", O_RDWR | O_CLOEXEC);
	if (argc < 3 || (strcmp(argv[1], "load") && strcmp(argv[1], "afalg")) ||
	    (!strcmp(argv[1], "load") && argc < 4)) {
		fprintf(stderr,
			"usage: failnth_sweep load MODULE.ko DRIVER [PARAMS] | afalg NAME\n");
		return 2;
	}
	report_start(1);
	if (fail_nth_fd < 0) {
		report_skip("sweep",
			    "no /proc/thread-self/fail-nth (needs CONFIG_FAULT_INJECTION)");
		return report_exit();
	}
	if (!strcmp(argv[1], "load"))
		sweep_load(argv[2], argv[3], argc > 4 ? argv[4] : "");
	else
		sweep_afalg(argv[2]);
	return report_exit();
}
