// SPDX-License-Identifier: GPL-2.0
/*
 * CPU-randomness collector: extraction from the pools.  Kernel-agnostic:
 * the host unit tests build this file with a SHA-256 shim.
 */
#ifdef __KERNEL__
#include <crypto/sha2.h>
#include <linux/compiler.h>
#include <linux/string.h>

#include "../include/cpurng/compat.h"
#else
#include "host_shim.h"
#endif

#include "../include/cpurng/collector_core.h"

void cpurng_cr_digest(u8 out[CPURNG_CR_DIGEST_BYTES], u8 domain,
		      const u8 key[CPURNG_CR_DIGEST_BYTES], u64 counter,
		      const struct cpurng_cr_pool *(*pool)(void *ctx,
							   unsigned int i),
		      void *ctx, unsigned int npools, const void *extra,
		      unsigned int extra_len)
{
	struct cpurng_sha256_ctx sha;
	u64 v[4];
	unsigned int i, w;

	sha256_init(&sha);
	sha256_update(&sha, &domain, 1);
	sha256_update(&sha, key, CPURNG_CR_DIGEST_BYTES);
	sha256_update(&sha, (const u8 *)&counter, sizeof(counter));
	for (i = 0; i < npools; i++) {
		const struct cpurng_cr_pool *p = pool(ctx, i);

		/* Racing with the owner's writes is fine; see the struct. */
		for (w = 0; w < 4; w++)
			v[w] = READ_ONCE(p->v[w]);
		sha256_update(&sha, (const u8 *)v, sizeof(v));
	}
	if (extra_len)
		sha256_update(&sha, extra, extra_len);
	sha256_final(&sha, out);
	memzero_explicit(v, sizeof(v));
	memzero_explicit(&sha, sizeof(sha));
}

static void cpurng_cr_derive(u8 *out, u8 domain,
			     const u8 digest[CPURNG_CR_DIGEST_BYTES])
{
	struct cpurng_sha256_ctx sha;

	sha256_init(&sha);
	sha256_update(&sha, &domain, 1);
	sha256_update(&sha, digest, CPURNG_CR_DIGEST_BYTES);
	sha256_final(&sha, out);
	memzero_explicit(&sha, sizeof(sha));
}

void cpurng_cr_rekey(u8 *out, u8 key[CPURNG_CR_DIGEST_BYTES],
		     const u8 digest[CPURNG_CR_DIGEST_BYTES])
{
	if (out)
		cpurng_cr_derive(out, CPURNG_CR_DOMAIN_OUTPUT, digest);
	cpurng_cr_derive(key, CPURNG_CR_DOMAIN_CHAIN, digest);
}
