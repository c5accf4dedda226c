/* SPDX-License-Identifier: GPL-2.0 */
/*
 * SP800-90A DRBG (cpurng_drbg.ko): interfaces between the module's objects.
 *
 *   drbg_core.c      instantiate / reseed / generate (SP800-90A 9), limits,
 *                    reseed policy and seed levels
 *   drbg_hmac.c      HMAC_DRBG (10.1.2)
 *   drbg_hash.c      Hash_DRBG (10.1.1)
 *   drbg_ctr.c       CTR_DRBG with derivation function (10.2.1)
 *   drbg_sources.c   the selectable seed sources and their credits
 *   drbg_selftest.c  known-answer and error-handling self-tests (11.3)
 *   drbg_kcapi.c     crypto API glue, module init/exit
 *   drbg_status.c    sysfs status
 *   drbg_test.c      test-only hooks (CONFIG_CRYPTO_CPURNG_TESTING)
 */
#ifndef CPURNG_DRBG_H
#define CPURNG_DRBG_H

#include <linux/atomic.h>
#include <linux/bits.h>
#include <linux/ktime.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/types.h>

#include "compat.h"
#include "fork_watch.h"
#include "module_util.h"

/* Largest hash output we use (SHA-512), in bytes. */
#define CPURNG_DRBG_MAX_OUTLEN		64
/* SP800-90A 10.1 Table 2: seedlen of Hash_DRBG with SHA-384/512 (888 bits). */
#define CPURNG_DRBG_MAX_SEEDLEN		111
/* SP800-90A 10.2.1 Table 3: CTR_DRBG with AES-256, keylen + blocklen. */
#define CPURNG_DRBG_MAX_CTR_SEEDLEN	48
#define CPURNG_DRBG_AES_BLOCK		16

/*
 * SP800-90A 10.1 Tables 2 and 3 allow 2^19 bits (64 KiB) per request; the
 * crypto API glue splits larger requests into requests of this size.
 */
#define CPURNG_DRBG_MAX_REQUEST		BIT(16)
/*
 * SP800-90A allows personalization strings and additional input of up to
 * 2^35 bits.  We accept 64 KiB, like every cpurng RNG.
 */
#define CPURNG_DRBG_MAX_INPUT		CPURNG_MAX_SEED_INPUT
/* Seed material gathered from the sources for one (re)seed, at most. */
#define CPURNG_DRBG_MAX_SEED		512

/**
 * struct cpurng_drbg_input - one piece of input, for SP800-90A's "||"
 * @buf: bytes (may be NULL when @len is 0)
 * @len: length
 */
struct cpurng_drbg_input {
	const u8 *buf;
	size_t len;
};

/* Up to this many pieces are concatenated into one input. */
#define CPURNG_DRBG_MAX_PARTS	4

/**
 * struct cpurng_drbg_cat - a concatenation of pieces, never copied
 * @part: the pieces, in order
 * @n: number of pieces used
 */
struct cpurng_drbg_cat {
	struct cpurng_drbg_input part[CPURNG_DRBG_MAX_PARTS];
	unsigned int n;
};

size_t cpurng_drbg_cat_len(const struct cpurng_drbg_cat *cat);

struct cpurng_drbg;

/**
 * struct cpurng_drbg_mech_ops - one DRBG mechanism (SP800-90A section 10)
 * @alloc: allocate the crypto API handles of an instance
 * @free: wipe the state and free the handles; leaves only zeros, so a
 *	second call does nothing
 * @instantiate: instantiate from seed material entropy || nonce || pers,
 *	given as the pieces of @seed
 * @reseed: reseed from entropy || additional input, the pieces of @seed
 * @generate: produce @len bytes (at most CPURNG_DRBG_MAX_REQUEST) with
 *	optional additional input
 */
struct cpurng_drbg_mech_ops {
	int (*alloc)(struct cpurng_drbg *d);
	void (*free)(struct cpurng_drbg *d);
	int (*instantiate)(struct cpurng_drbg *d,
			   const struct cpurng_drbg_cat *seed);
	int (*reseed)(struct cpurng_drbg *d, const struct cpurng_drbg_cat *seed);
	int (*generate)(struct cpurng_drbg *d, u8 *out, unsigned int len,
			const struct cpurng_drbg_input *addtl);
};

extern const struct cpurng_drbg_mech_ops cpurng_drbg_hmac_ops;
extern const struct cpurng_drbg_mech_ops cpurng_drbg_hash_ops;
extern const struct cpurng_drbg_mech_ops cpurng_drbg_ctr_ops;

/**
 * struct cpurng_drbg_mech - a mechanism with its primitive
 * @name: e.g. "hmac_sha256"; also the stock driver's suffix
 * @backend: crypto API name of the primitive ("sha256" for HMAC_DRBG and
 *	Hash_DRBG with SHA-256, "aes")
 * @ops: the mechanism
 * @strength: security strength in bits (SP800-57 part 1, table 3)
 * @outlen: output block length of the primitive in bytes
 * @seedlen: seedlen in bytes (Hash_DRBG, CTR_DRBG)
 * @keylen: AES key length in bytes (CTR_DRBG)
 */
struct cpurng_drbg_mech {
	const char *name;
	const char *backend;
	const struct cpurng_drbg_mech_ops *ops;
	u16 strength;
	u16 outlen;
	u16 seedlen;
	u16 keylen;
};

extern const struct cpurng_drbg_mech cpurng_drbg_mechs[];
extern const unsigned int cpurng_drbg_nmechs;

/**
 * enum cpurng_drbg_level - how well an instance is seeded
 * @CPURNG_DRBG_UNSEEDED: no credited entropy yet
 * @CPURNG_DRBG_PARTIAL: some credited entropy, less than required
 * @CPURNG_DRBG_FULL: credited entropy at least the security strength
 *	(plus half of it for the nonce at instantiation)
 * @CPURNG_DRBG_TEST: seeded from test entropy (set_ent), as testmgr does
 */
enum cpurng_drbg_level {
	CPURNG_DRBG_UNSEEDED,
	CPURNG_DRBG_PARTIAL,
	CPURNG_DRBG_FULL,
	CPURNG_DRBG_TEST,
};

const char *cpurng_drbg_level_name(enum cpurng_drbg_level level);

/**
 * struct cpurng_drbg - one DRBG instance, the context of one crypto tfm
 * @lock: serialises every operation on the instance
 * @mech: mechanism
 * @pr: prediction resistance: reseed before every generate
 * @instantiated: the instance holds a working state
 * @reseed_ctr: SP800-90A reseed_counter
 * @level: seed level
 * @last_bits: entropy credited at the last (re)seed
 * @seeded_at: jiffies of the last (re)seed
 * @reseeds: (re)seeds done
 * @fork_gen: generation of cpurng_drbg_forks at the last (re)seed
 * @src_gen: cpurng_drbg_sources_gen at the last (re)seed
 * @fork_reseeds: reseeds forced by a VM fork or a resume
 * @test_entropy: entropy from set_ent(), used instead of the sources
 * @test_entropy_len: its length
 * @id: instance number, for the status
 * @node: in the list of instances
 * @st: state of the mechanism
 */
struct cpurng_drbg {
	struct mutex lock;	/* see @lock above */
	const struct cpurng_drbg_mech *mech;
	bool pr;
	bool instantiated;
	u64 reseed_ctr;
	enum cpurng_drbg_level level;
	u32 last_bits;
	unsigned long seeded_at;
	u64 reseeds;
	unsigned int fork_gen;
	unsigned int src_gen;
	u64 fork_reseeds;
	u8 *test_entropy;
	unsigned int test_entropy_len;
	unsigned int id;
	struct list_head node;
	union {
		struct {
			u8 K[CPURNG_DRBG_MAX_OUTLEN];
			/* V, and a byte for the Update's V || 0x00 */
			u8 V[CPURNG_DRBG_MAX_OUTLEN + 1];
			struct crypto_shash *tfm;
			struct shash_desc *desc;
			/* hash states after K ^ ipad and K ^ opad */
			u8 *ipad;
			u8 *opad;
		} hmac;
		struct {
			/* prefix || V: Hash(0x03 || V) needs no copy */
			u8 prefix;
			u8 V[CPURNG_DRBG_MAX_SEEDLEN];
			u8 C[CPURNG_DRBG_MAX_SEEDLEN];
			/*
			 * generate's hash output, wiped after each request:
			 * kept here rather than on the stack, which the
			 * kernel zeroes on every call
			 * (CONFIG_INIT_STACK_ALL_ZERO)
			 */
			u8 w[CPURNG_DRBG_MAX_OUTLEN];
			struct crypto_shash *tfm;
			struct shash_desc *desc;
		} hash;
		struct {
			u8 V[CPURNG_DRBG_AES_BLOCK];
			struct crypto_skcipher *ctr;
			struct skcipher_request *req;
			u8 *scratch;
			struct cpurng_aes_key *aes;
		} ctr;
	} st;
};

/* Core (drbg_core.c). */
int cpurng_drbg_init(struct cpurng_drbg *d, const struct cpurng_drbg_mech *m,
		     bool pr);
void cpurng_drbg_fini(struct cpurng_drbg *d);
int cpurng_drbg_seed(struct cpurng_drbg *d, const u8 *in, unsigned int len);
int cpurng_drbg_generate(struct cpurng_drbg *d, const u8 *addtl,
			 unsigned int addtl_len, u8 *out, unsigned int len);
int cpurng_drbg_set_test_entropy(struct cpurng_drbg *d, const u8 *buf,
				 unsigned int len);
int cpurng_drbg_instantiate_raw(struct cpurng_drbg *d,
				const struct cpurng_drbg_input *entropy,
				const struct cpurng_drbg_input *nonce,
				const struct cpurng_drbg_input *pers);
int cpurng_drbg_reseed_raw(struct cpurng_drbg *d, const u8 *entropy,
			   size_t entropy_len, const u8 *addtl,
			   size_t addtl_len);
int cpurng_drbg_generate_raw(struct cpurng_drbg *d, u8 *out, unsigned int len,
			     const u8 *addtl, size_t addtl_len);
void cpurng_drbg_for_each(void (*fn)(struct cpurng_drbg *d, void *ctx),
			  void *ctx);
u64 cpurng_drbg_seeds(void);
int cpurng_drbg_last_seed(char *buf, size_t size);

/* VM forks and resumes (drbg_kcapi.c starts the watch, drbg_core.c acts). */
extern struct cpurng_fork_watch cpurng_drbg_forks;

/* Reseed policy (module parameters, drbg_core.c). */
extern unsigned int cpurng_drbg_reseed_requests;
extern unsigned int cpurng_drbg_reseed_seconds;
extern bool cpurng_drbg_require_full;

/* Seed sources (drbg_sources.c). */
#define CPURNG_DRBG_MAX_SOURCES	8
/* Credits are in bits per byte: 0 (none) to 8 (full entropy). */
#define CPURNG_DRBG_CREDIT_MAX	8

/**
 * struct cpurng_drbg_gathered - seed material from one round of the sources
 * @buf: the material, every source's output in turn
 * @len: bytes used in @buf
 * @credited_bits: entropy credited to the material
 * @usable_sources: credited sources that delivered
 */
struct cpurng_drbg_gathered {
	u8 buf[CPURNG_DRBG_MAX_SEED];
	size_t len;
	u32 credited_bits;
	unsigned int usable_sources;
};

int cpurng_drbg_sources_init(const char *spec);
/* @init: when the module's init began (for the status file init_us) */
void cpurng_drbg_sources_start(ktime_t init);
void cpurng_drbg_sources_exit(void);
int cpurng_drbg_sources_gather(u32 need_bits,
			       struct cpurng_drbg_gathered *g);
int cpurng_drbg_sources_show(char *buf, size_t size, bool state);
int cpurng_drbg_sources_timing(char *buf, size_t size);
/* Moves when a credited source a seed went without becomes ready. */
extern atomic_t cpurng_drbg_sources_gen;
extern const struct kernel_param_ops cpurng_drbg_sources_param_ops;

/* Module load: how long the self-tests and the registration took. */
extern u64 cpurng_drbg_selftest_ns;
extern u64 cpurng_drbg_register_ns;
extern u64 cpurng_drbg_sources_at_ns;

/* Self-tests (drbg_selftest.c). */
int cpurng_drbg_selftest(void);
const char *cpurng_drbg_selftest_result(void);

/* Status (drbg_status.c). */
int cpurng_drbg_status_init(void);
void cpurng_drbg_status_exit(void);

/* FIPS semantics: fips=1, or the test-only switch. */
bool cpurng_drbg_fips(void);

#if IS_ENABLED(CONFIG_CRYPTO_CPURNG_TESTING)
bool cpurng_drbg_test_fips(void);
const char *cpurng_drbg_test_corrupt_kat(void);
bool cpurng_drbg_test_ctr_long(void);
#else
static inline bool cpurng_drbg_test_ctr_long(void)
{
	return false;
}

static inline bool cpurng_drbg_test_fips(void)
{
	return false;
}

static inline const char *cpurng_drbg_test_corrupt_kat(void)
{
	return NULL;
}
#endif

#endif /* CPURNG_DRBG_H */
