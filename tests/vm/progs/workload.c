// SPDX-License-Identifier: GPL-2.0
/*
 * workload <pingpong|alloc> <iterations>
 *
 * Load generators for the collector tests and benchmark:
 *   pingpong  two processes pass a byte back and forth over two pipes:
 *             two context switches per iteration (sched_switch)
 *   alloc     create and close a pipe and a UNIX socket pair: kmalloc and
 *             kmem_cache_alloc events without much else
 * Prints "ns=<elapsed>" measured with CLOCK_MONOTONIC (under QEMU -icount
 * that clock counts instructions).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int pingpong(long n)
{
	int to_child[2], to_parent[2];
	char c = 0;
	pid_t pid;
	long i;

	if (pipe(to_child) || pipe(to_parent))
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		for (i = 0; i < n; i++)
			if (read(to_child[0], &c, 1) != 1 ||
			    write(to_parent[1], &c, 1) != 1)
				_exit(1);
		_exit(0);
	}
	for (i = 0; i < n; i++)
		if (write(to_child[1], &c, 1) != 1 ||
		    read(to_parent[0], &c, 1) != 1)
			return -1;
	waitpid(pid, NULL, 0);
	return 0;
}

static int alloc(long n)
{
	int p[2], s[2];
	long i;

	for (i = 0; i < n; i++) {
		if (pipe(p) || socketpair(AF_UNIX, SOCK_STREAM, 0, s))
			return -1;
		close(p[0]);
		close(p[1]);
		close(s[0]);
		close(s[1]);
	}
	return 0;
}

int main(int argc, char **argv)
{
	long long t0;
	long n;
	int ret;

	n = argc == 3 ? atol(argv[2]) : 0;
	if (n <= 0) {
		fprintf(stderr, "usage: %s <pingpong|alloc> <iterations>\n",
			argv[0]);
		return 2;
	}
	t0 = now_ns();
	if (!strcmp(argv[1], "pingpong"))
		ret = pingpong(n);
	else if (!strcmp(argv[1], "alloc"))
		ret = alloc(n);
	else
		ret = -1;
	if (ret) {
		perror(argv[1]);
		return 1;
	}
	printf("ns=%lld\n", now_ns() - t0);
	return 0;
}
