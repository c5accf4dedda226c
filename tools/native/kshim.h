/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel interfaces the CPU Jitter RNG's instance, pool, health and
 * noise files use, implemented in userspace, so that cpurng-jitter runs
 * those very files natively (tools/cpurng-jitter.c).  The headers under
 * tools/native/linux and tools/native/crypto only include this one.
 *
 * Allocation, locking, logging and SHA-256 (OpenSSL's libcrypto, in a
 * descriptor laid out as the kernel's shash_desc is) behave as the kernel's
 * do for these callers; notifiers and sysfs exist only as declarations,
 * since the native program never registers anything.
 */
#ifndef CPURNG_KSHIM_H
#define CPURNG_KSHIM_H

#include <errno.h>
#include <malloc.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/types.h>
#include <openssl/sha.h>

#include "../../include/cpurng/types.h"

#ifndef KBUILD_MODNAME
#define KBUILD_MODNAME "cpurng_jitter"
#endif
#define IS_ENABLED(CONFIG_OPTION)	0
#define likely(x)		__builtin_expect(!!(x), 1)
#define unlikely(x)		__builtin_expect(!!(x), 0)
#define noinline		__attribute__((noinline))
#define __always_unused		__attribute__((unused))
#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))
#define BIT(n)			(1UL << (n))
/* Each argument evaluated once, as the kernel's. */
#define DIV_ROUND_UP(n, d) ({						\
	__typeof__(d) _d = (d);						\
	((n) + _d - 1) / _d;						\
})
#define min(a, b) ({							\
	__typeof__(a) _a = (a);						\
	__typeof__(b) _b = (b);						\
	_a < _b ? _a : _b;						\
})
#define max(a, b) ({							\
	__typeof__(a) _a = (a);						\
	__typeof__(b) _b = (b);						\
	_a > _b ? _a : _b;						\
})
#define min_t(type, a, b)	min((type)(a), (type)(b))
#define max_t(type, a, b)	max((type)(a), (type)(b))
#define container_of(p, type, member) \
	((type *)((char *)(p) - offsetof(type, member)))

/* Logging: the kernel's levels, to stderr. */
#ifndef pr_fmt
#define pr_fmt(fmt) fmt
#endif
#define pr_err(fmt, ...)	fprintf(stderr, pr_fmt(fmt), ##__VA_ARGS__)
#define pr_warn(fmt, ...)	fprintf(stderr, pr_fmt(fmt), ##__VA_ARGS__)
#define pr_notice(fmt, ...)	fprintf(stderr, pr_fmt(fmt), ##__VA_ARGS__)
#define pr_info(fmt, ...)	fprintf(stderr, pr_fmt(fmt), ##__VA_ARGS__)
#define pr_warn_ratelimited	pr_warn
#define pr_err_ratelimited	pr_err
#define panic(fmt, ...) \
	do { fprintf(stderr, "panic: " fmt, ##__VA_ARGS__); abort(); } while (0)

static inline void cond_resched(void)
{
}

/* Memory. */
#define GFP_KERNEL	0
typedef unsigned int gfp_t;

static inline void *kzalloc(size_t n, gfp_t gfp)
{
	return calloc(1, n);
}

static inline void *kmalloc(size_t n, gfp_t gfp)
{
	return malloc(n);
}

static inline void kfree(const void *p)
{
	free((void *)p);
}

static inline void memzero_explicit(void *p, size_t n)
{
	explicit_bzero(p, n);
}

static inline void kfree_sensitive(const void *p)
{
	if (p)
		explicit_bzero((void *)p, malloc_usable_size((void *)p));
	free((void *)p);
}

#define kvzalloc	kzalloc
#define kvfree		kfree

/* Locking and atomics. */
struct mutex {
	pthread_mutex_t m;
};

#define mutex_init(l)		pthread_mutex_init(&(l)->m, NULL)
#define mutex_lock(l)		pthread_mutex_lock(&(l)->m)
#define mutex_unlock(l)		pthread_mutex_unlock(&(l)->m)
#define mutex_destroy(l)	pthread_mutex_destroy(&(l)->m)

typedef struct {
	int counter;
} atomic_t;

typedef struct {
	long long counter;
} atomic64_t;

#define atomic_read(v)		__atomic_load_n(&(v)->counter, __ATOMIC_RELAXED)
#define atomic_add(i, v)	__atomic_add_fetch(&(v)->counter, i, __ATOMIC_SEQ_CST)
#define atomic_inc_return(v)	__atomic_add_fetch(&(v)->counter, 1, __ATOMIC_SEQ_CST)
#define atomic64_read(v)	__atomic_load_n(&(v)->counter, __ATOMIC_RELAXED)
#define atomic64_add(i, v)	__atomic_add_fetch(&(v)->counter, i, __ATOMIC_SEQ_CST)
#define atomic64_inc(v)		atomic64_add(1, v)

/* The kernel RNG: getrandom(2). */
static inline void get_random_bytes(void *buf, size_t n)
{
	size_t done = 0;

	while (done < n) {
		ssize_t r = getrandom((char *)buf + done, n - done, 0);

		if (r > 0)
			done += r;
		else if (errno != EINTR)
			abort();
	}
}

/* Notifier chains: declared for fork_watch.h, never called natively. */
struct notifier_block {
	int (*notifier_call)(struct notifier_block *nb, unsigned long action,
			     void *data);
};

#define NOTIFY_DONE		0
#define PM_POST_HIBERNATION	2
#define PM_POST_SUSPEND		4

static inline int register_random_vmfork_notifier(struct notifier_block *nb)
{
	return 0;
}

static inline int unregister_random_vmfork_notifier(struct notifier_block *nb)
{
	return 0;
}

static inline int register_pm_notifier(struct notifier_block *nb)
{
	return 0;
}

static inline int unregister_pm_notifier(struct notifier_block *nb)
{
	return 0;
}

static inline bool is_power_of_2(unsigned long n)
{
	return n && !(n & (n - 1));
}

/* sysfs: declared for module_util.h's helpers, never called natively. */
struct kobject;
struct attribute_group;
extern struct kobject *kernel_kobj;
struct kobject *kobject_create_and_add(const char *name,
				       struct kobject *parent);
int sysfs_create_group(struct kobject *kobj,
		       const struct attribute_group *grp);
void sysfs_remove_group(struct kobject *kobj,
			const struct attribute_group *grp);
void kobject_put(struct kobject *kobj);

/* Error pointers. */
#define MAX_ERRNO	4095
#define IS_ERR(p)	((unsigned long)(p) >= (unsigned long)-MAX_ERRNO)
#define PTR_ERR(p)	((long)(p))
#define ERR_PTR(e)	((void *)(long)(e))

/* SHA-256 through the shash interface, as jitter_pool.c uses it. */
#define SHA256_DIGEST_SIZE	32

struct crypto_shash {
	int unused;
};

struct shash_desc {
	struct crypto_shash *tfm;
	SHA256_CTX __ctx[];
};

static inline struct crypto_shash *crypto_alloc_shash(const char *name,
						      u32 type, u32 mask)
{
	if (strcmp(name, "sha256"))
		return ERR_PTR(-ENOENT);
	return calloc(1, sizeof(struct crypto_shash)) ?: ERR_PTR(-ENOMEM);
}

static inline void crypto_free_shash(struct crypto_shash *tfm)
{
	free(tfm);
}

static inline unsigned int crypto_shash_descsize(struct crypto_shash *tfm)
{
	return sizeof(SHA256_CTX);
}

static inline int crypto_shash_init(struct shash_desc *desc)
{
	return SHA256_Init(desc->__ctx) ? 0 : -EIO;
}

static inline int crypto_shash_update(struct shash_desc *desc, const u8 *data,
				      unsigned int len)
{
	return SHA256_Update(desc->__ctx, data, len) ? 0 : -EIO;
}

static inline int crypto_shash_final(struct shash_desc *desc, u8 *out)
{
	return SHA256_Final(out, desc->__ctx) ? 0 : -EIO;
}

static inline int crypto_shash_tfm_digest(struct crypto_shash *tfm,
					  const u8 *data, unsigned int len,
					  u8 *out)
{
	return SHA256(data, len, out) ? 0 : -EIO;
}

static inline void shash_desc_zero(struct shash_desc *desc)
{
	explicit_bzero(desc, sizeof(*desc) + sizeof(SHA256_CTX));
}

#endif /* CPURNG_KSHIM_H */
