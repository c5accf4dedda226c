/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The few kernel interfaces the kernel-agnostic cpurng files use beyond
 * types.h, for the host unit tests: the SHA-256 library API of
 * <crypto/sha2.h> (over OpenSSL's libcrypto) under the name compat.h
 * gives its context, memzero_explicit() and READ_ONCE().
 */
#ifndef CPURNG_HOST_SHIM_H
#define CPURNG_HOST_SHIM_H

#include <openssl/evp.h>
#include <string.h>

#include "../../include/cpurng/types.h"

#define READ_ONCE(x)	(*(const volatile __typeof__(x) *)&(x))

static inline void memzero_explicit(void *p, size_t n)
{
	explicit_bzero(p, n);
}

struct cpurng_sha256_ctx {
	EVP_MD_CTX *ctx;
};

static inline void sha256_init(struct cpurng_sha256_ctx *s)
{
	s->ctx = EVP_MD_CTX_new();
	EVP_DigestInit_ex(s->ctx, EVP_sha256(), NULL);
}

static inline void sha256_update(struct cpurng_sha256_ctx *s, const u8 *data,
				 unsigned int len)
{
	EVP_DigestUpdate(s->ctx, data, len);
}

static inline void sha256_final(struct cpurng_sha256_ctx *s, u8 *out)
{
	EVP_DigestFinal_ex(s->ctx, out, NULL);
	EVP_MD_CTX_free(s->ctx);
	s->ctx = NULL;
}

#endif /* CPURNG_HOST_SHIM_H */
