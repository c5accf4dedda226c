// SPDX-License-Identifier: GPL-2.0
/*
 * crypto_delrng: ask the kernel to free its default RNG (the stdrng
 * instance behind crypto_get_default_rng()) with CRYPTO_MSG_DELRNG over
 * NETLINK_CRYPTO (crypto_user).  Until then the default RNG keeps its
 * module loaded.  Prints "delrng: 0" or the errno; exits 0 on success.
 */
#include <errno.h>
#include <linux/cryptouser.h>
#include <linux/netlink.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

int main(void)
{
	struct {
		struct nlmsghdr hdr;
		struct crypto_user_alg alg;
	} req = {
		.hdr = {
			.nlmsg_len = sizeof(req),
			.nlmsg_type = CRYPTO_MSG_DELRNG,
			.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK,
		},
	};
	char buf[512];
	struct nlmsghdr *ack = (struct nlmsghdr *)buf;
	int fd, err = 0;
	ssize_t n;

	fd = socket(AF_NETLINK, SOCK_RAW, NETLINK_CRYPTO);
	if (fd < 0) {
		perror("socket(NETLINK_CRYPTO) (is crypto_user loaded?)");
		return 1;
	}
	if (send(fd, &req, sizeof(req), 0) < 0) {
		err = errno;
	} else {
		n = recv(fd, buf, sizeof(buf), 0);
		if (n < 0)
			err = errno;
		else if (ack->nlmsg_type == NLMSG_ERROR)
			err = -((struct nlmsgerr *)NLMSG_DATA(ack))->error;
	}
	close(fd);
	printf("delrng: %s\n", err ? strerror(err) : "0");
	return err ? 1 : 0;
}
