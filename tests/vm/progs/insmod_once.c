// SPDX-License-Identifier: GPL-2.0
/*
 * insmod_once <module.ko> [param=value ...]
 *
 * Load a module with a single finit_module() call.  busybox insmod retries
 * with init_module() after a failed finit_module(), which runs a failing
 * module init twice; tests that expect a load to fail use this instead.
 * Prints "result: 0" or "result: <ERRNO NAME>"; exits 0 on success, 1 on
 * failure.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static const char *errno_name(int e)
{
	switch (e) {
	case EINVAL: return "EINVAL";
	case EEXIST: return "EEXIST";
	case EFAULT: return "EFAULT";
	case EOPNOTSUPP: return "EOPNOTSUPP";
	case ENOENT: return "ENOENT";
	case ENODEV: return "ENODEV";
	case EBUSY: return "EBUSY";
	case ENOMEM: return "ENOMEM";
	case EPERM: return "EPERM";
	case EKEYREJECTED: return "EKEYREJECTED";
	case EBADMSG: return "EBADMSG";
	default: return "OTHER";
	}
}

int main(int argc, char **argv)
{
	char params[1024] = "";
	int fd, i;

	if (argc < 2) {
		fprintf(stderr, "usage: %s <module.ko> [param=value ...]\n",
			argv[0]);
		return 2;
	}
	for (i = 2; i < argc; i++) {
		if (strlen(params) + strlen(argv[i]) + 2 > sizeof(params))
			return 2;
		strcat(params, argv[i]);
		strcat(params, " ");
	}
	fd = open(argv[1], O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		perror(argv[1]);
		return 2;
	}
	if (syscall(SYS_finit_module, fd, params, 0)) {
		int e = errno;

		printf("result: %s (%d, %s)\n", errno_name(e), e, strerror(e));
		return 1;
	}
	printf("result: 0\n");
	return 0;
}
