/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What differs between the kernels cpurng supports (Debian 12's 6.1 and
 * 6.12, Debian 13's 6.12 and trixie-backports' 7.x), in one place.  The
 * rest of the tree is written against 6.12 and uses the names below where
 * a later kernel changed an interface; nothing else tests the kernel.
 * Each entry tests for the feature itself, not for a version number, so a
 * distribution kernel with a backport works too: the CPURNG_HAVE_* flags
 * come from the top-level Kbuild, which looks at the tree built against.
 *
 * Each entry says what changed and where, so it can go when the oldest
 * supported kernel has it.
 */
#ifndef CPURNG_COMPAT_H
#define CPURNG_COMPAT_H

/*
 * 6.12 moved the generic unaligned accessors from <asm/unaligned.h> to
 * <linux/unaligned.h> and dropped the old name.
 */
#ifdef CPURNG_HAVE_LINUX_UNALIGNED_H
#include <linux/unaligned.h>
#else
#include <asm/unaligned.h>
#endif

/*
 * The SHA-256 library's sha256_init/update/final take struct sha256_ctx
 * after 6.12 (7.3 has only that); up to 6.12 they take struct
 * sha256_state.  Callers write struct cpurng_sha256_ctx.
 */
#ifdef CPURNG_HAVE_SHA256_CTX
#define cpurng_sha256_ctx sha256_ctx
#else
#define cpurng_sha256_ctx sha256_state
#endif

/*
 * The AES library after 6.12 (7.3) encrypts with a key that
 * aes_prepareenckey() prepared in a struct aes_enckey; aes_encrypt() no
 * longer takes the struct crypto_aes_ctx that aes_expandkey() fills, as
 * it does up to 6.12.  Callers write struct cpurng_aes_key and
 * cpurng_aes_setkey(); both kernels' aes_encrypt() take a pointer to it.
 */
#ifdef CPURNG_HAVE_AES_ENCKEY
#define cpurng_aes_key aes_enckey
#define cpurng_aes_setkey aes_prepareenckey
#else
#define cpurng_aes_key crypto_aes_ctx
#define cpurng_aes_setkey aes_expandkey
#endif

/*
 * hex2bin() and bin2hex() moved from <linux/kernel.h> to <linux/hex.h>
 * after 6.12 (7.3 no longer has them through <linux/kernel.h>).
 */
#ifdef CPURNG_HAVE_LINUX_HEX_H
#include <linux/hex.h>
#else
#include <linux/kernel.h>
#endif

/*
 * 6.13 made MODULE_IMPORT_NS() take a string literal; before, it
 * stringified a bare identifier.
 */
#ifdef CPURNG_HAVE_IMPORT_NS_STRING
#define CPURNG_IMPORT_NS(ns) MODULE_IMPORT_NS(#ns)
#else
#define CPURNG_IMPORT_NS(ns) MODULE_IMPORT_NS(ns)
#endif

/*
 * The unbound system workqueue is system_dfl_wq after 6.12 (7.3 calls
 * system_unbound_wq deprecated and warns once when work is queued on it).
 */
#ifdef CPURNG_HAVE_SYSTEM_DFL_WQ
#define cpurng_unbound_wq system_dfl_wq
#else
#define cpurng_unbound_wq system_unbound_wq
#endif

/*
 * The crypto API's default RNG, the "stdrng" instance kernel users share.
 * Up to 6.12 (and until 7.1) a caller takes it with crypto_get_default_rng()
 * and reads crypto_default_rng, so the driver that serves is visible.
 * 7.1 made it private to crypto/rng.c: its bytes come only through
 * __crypto_stdrng_get_bytes(), which is what crypto_stdrng_get_bytes()
 * calls when fips_enabled (otherwise that one reads the kernel RNG), and
 * the serving driver is not exposed.  cpurng_default_rng_get_bytes()
 * fills @buf from the default RNG and names its driver in @driver where
 * the kernel shows it ("" where it does not, "none" if there is no
 * default RNG).
 */
#ifdef _CRYPTO_RNG_H
#ifdef CPURNG_HAVE_CRYPTO_GET_DEFAULT_RNG
static inline int cpurng_default_rng_get_bytes(u8 *buf, unsigned int len,
					       char *driver, size_t size)
{
	struct crypto_tfm *tfm;
	int ret = crypto_get_default_rng();

	if (ret) {
		strscpy(driver, "none", size);
		return ret;
	}
	tfm = crypto_rng_tfm(crypto_default_rng);
	strscpy(driver, crypto_tfm_alg_driver_name(tfm), size);
	ret = crypto_rng_get_bytes(crypto_default_rng, buf, len);
	crypto_put_default_rng();
	return ret;
}
#else
static inline int cpurng_default_rng_get_bytes(u8 *buf, unsigned int len,
					       char *driver, size_t size)
{
	int ret = __crypto_stdrng_get_bytes(buf, len);

	/* An allocation that failed leaves no default: nothing served. */
	strscpy(driver, ret == -ENOENT ? "none" : "", size);
	return ret;
}
#endif

/*
 * crypto_stdrng_get_bytes() (7.1 and later): random bytes for kernel
 * users, from the kernel RNG unless fips_enabled, then from the default
 * stdrng.  Earlier kernels have no such function.
 */
#ifdef CPURNG_HAVE_CRYPTO_STDRNG_GET_BYTES
#define cpurng_stdrng_get_bytes crypto_stdrng_get_bytes
#else
static inline int cpurng_stdrng_get_bytes(void *buf, unsigned int len)
{
	return -EOPNOTSUPP;
}
#endif
#endif /* _CRYPTO_RNG_H */

#endif /* CPURNG_COMPAT_H */
