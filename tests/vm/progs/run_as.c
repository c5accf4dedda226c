// SPDX-License-Identifier: GPL-2.0
/*
 * run_as <uid> <command> [args...]: drop to @uid (group @uid, no
 * supplementary groups) and run the command, for tests of what an
 * unprivileged user can and cannot do.  busybox's setpriv lacks --reuid.
 */
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	uid_t uid;

	if (argc < 3) {
		fprintf(stderr, "usage: %s <uid> <command> [args...]\n", argv[0]);
		return 2;
	}
	uid = atoi(argv[1]);
	if (setgroups(0, NULL) || setgid(uid) || setuid(uid)) {
		perror("run_as");
		return 2;
	}
	execvp(argv[2], argv + 2);
	perror(argv[2]);
	return 127;
}
