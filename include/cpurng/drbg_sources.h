/* SPDX-License-Identifier: GPL-2.0 */
/*
 * DRBG seed sources (drbg_sources.c): the state of one configured source,
 * and the parts of the selection and credit logic that the KUnit suite
 * (tests/kunit/drbg_sources_kunit.c) calls directly.  Internal to
 * cpurng_drbg.
 */
#ifndef CPURNG_DRBG_SOURCES_H
#define CPURNG_DRBG_SOURCES_H

#include <linux/crypto.h>
#include <linux/types.h>

struct crypto_rng;

#define CPURNG_SRC_RANDOM	"get_random_bytes"
/* Uncredited sources still contribute this much material per seed. */
#define CPURNG_SRC_UNCREDITED_BYTES	32
/* No source contributes more than this per seed (credit 8 covers 512 bits). */
#define CPURNG_SRC_MAX_BYTES	64

/**
 * struct cpurng_src - one configured source and its handle
 * @name: crypto_rng name, or "get_random_bytes"
 * @expect: the only driver the credit applies to ("" for get_random_bytes)
 * @explicit: @expect was given after '@' (shown back in the selection)
 * @credit: bits of entropy credited per byte, if @name resolves to @expect
 * @rng: crypto_rng handle, allocated on first use
 * @foreign: @rng's driver is not @expect: credited 0
 * @err: outcome of the last use (0, or the errno that made us skip it)
 * @bytes: bytes delivered
 * @failures: times skipped
 * @last_ns: how long its last read took, handle allocation included (on
 *	first use that is the source module's load)
 * @load_ns: how long the background allocation of its handle took (the
 *	source module's load, start-up test and entropy check), 0 when a
 *	seed allocated it
 * @loading: its handle is being allocated in the background
 * @skipped: a seed went without it while it was loading
 */
struct cpurng_src {
	char name[CRYPTO_MAX_ALG_NAME];
	char expect[CRYPTO_MAX_ALG_NAME];
	bool explicit;
	u8 credit;
	struct crypto_rng *rng;
	bool foreign;
	int err;
	u64 bytes;
	u64 failures;
	u64 last_ns;
	u64 load_ns;
	bool loading;
	bool skipped;
};

#if IS_ENABLED(CONFIG_KUNIT)
int cpurng_src_parse(const char *spec, struct cpurng_src *out,
		     unsigned int *n, bool check_exists);
u8 cpurng_src_credit(const struct cpurng_src *s, bool random_ready);
size_t cpurng_src_want(u8 credit, u32 need_bits);
#endif

#endif /* CPURNG_DRBG_SOURCES_H */
