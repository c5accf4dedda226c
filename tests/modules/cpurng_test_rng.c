// SPDX-License-Identifier: GPL-2.0
/*
 * Test-only module: a kernel consumer of crypto_rng algorithms, driven from
 * the VM test cases through debugfs.  Write a command to
 * /sys/kernel/debug/cpurng_test_rng/ctl, read the result back:
 *
 *   get <alg> <bytes>            crypto_alloc_rng() + crypto_rng_get_bytes()
 *     -> driver=<name> ret=<errno> hex=<output>
 *   reset-get <alg> <bytes>      the same after crypto_rng_reset(tfm, NULL,
 *                                seedsize), how kernel users instantiate a
 *                                DRBG (see crypto_get_default_rng())
 *   default-get <bytes>          from the crypto API's default RNG
 *                                (crypto_get_default_rng(); 7.1 and
 *                                later: __crypto_stdrng_get_bytes(), and
 *                                driver=unexposed when it served, because
 *                                the kernel no longer shows which one did)
 *   stdrng-get <bytes>           crypto_stdrng_get_bytes() (7.1 and
 *     -> fips_enabled= ret=      later; ret=-EOPNOTSUPP before): the
 *                                kernel RNG, or the default RNG under
 *                                fips_enabled
 *   bench <alg> <req> <total>    reset, then <total> bytes in <req>-byte
 *     -> driver= ret= bytes= ns= requests (in-kernel throughput)
 *   bench-ctr-aes <req> <total> <how>
 *                                raw ctr(aes) keystream throughput, AES-256,
 *                                the reference for CTR_DRBG: <how> is
 *                                "inplace" (buffer cleared, encrypted in
 *                                place), "zero" (encrypted from the zero
 *                                page, up to a page) or "zero-rekey" (and
 *                                a new key before each request, as
 *                                CTR_DRBG's Update needs)
 *   bench-hash <alg> <len> <calls>
 *     -> driver= ret= calls= ns= crypto_shash_digest() of <len> bytes, the
 *                                cost of one compression call when <len>
 *                                fits one block (the DRBG bound's unit)
 *   bench-threads <alg> <threads> <req> <total>
 *     -> driver= ret= bytes= ns= <threads> kernel threads, each with its
 *                                own tfm (reset first), read <total> bytes
 *                                each in <req>-byte requests, all started
 *                                together; ns until the last one is done
 *   algtest <driver> <alg>       alg_test(): the kernel's own testmgr
 *     -> ret=<errno>             vectors against a driver
 *   cavp <driver> <entropy> <pers> <reseed-entropy> <reseed-addtl>
 *        <addtl1> <addtl2> <bytes>
 *     -> driver= ret= hex=       SP800-90A CAVP sequence through the crypto
 *                                API: set_ent(entropy), reset(pers), then
 *                                (unless reseed-entropy is "-")
 *                                set_ent(reseed-entropy), reset(reseed-
 *                                addtl), then generate(addtl1),
 *                                generate(addtl2), the second output
 *                                returned.  Hex arguments, "-" for empty.
 *   badinput <driver>            bad calls on a DRBG, and proof that
 *     -> before= pers= addtl= zero= same= big=
 *                                they left the state alone: errnos of
 *                                generate before instantiation, an
 *                                over-long personalization and additional
 *                                input, a zero-length request; same=1 when
 *                                the next output equals that of a twin tfm
 *                                that saw no bad call; the errno of a 1 MiB
 *                                request (split by the driver)
 *   hold <slot> <alg>            allocate and reset a tfm kept in slot
 *     -> driver= ret=            0-3 until release (a kernel user that
 *                                keeps its handle, as across a VM snapshot)
 *   held-get <slot> <bytes>      crypto_rng_get_bytes() on the held tfm
 *     -> driver= ret= hex=
 *   release <slot>               free it (module unload frees them all)
 *
 * Each other command allocates its own tfm, as a kernel user would.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <crypto/hash.h>
#include <crypto/internal/rng.h>
#include <crypto/rng.h>
#include <crypto/skcipher.h>
#include <linux/completion.h>
#include <linux/debugfs.h>
#include <linux/fips.h>
#include <linux/kernel.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/scatterlist.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>

#define CPURNG_TEST_GET_MAX	4096
#define CPURNG_TEST_REQ_MAX	SZ_1M
#define CPURNG_TEST_CMD_MAX	4096
#define CPURNG_TEST_ARGS	10
#define CPURNG_TEST_RESULT_MAX	(2 * CPURNG_TEST_GET_MAX + 256)

#include "../../include/cpurng/compat.h"
#include "testmgr.h"

static bool cavp_vmalloc;
module_param(cavp_vmalloc, bool, 0644);
MODULE_PARM_DESC(cavp_vmalloc, "cavp: output in vmalloc memory (not mappable by a scatterlist)");

#define CPURNG_TEST_SLOTS	4

static DEFINE_MUTEX(cpurng_test_lock);
static char *cpurng_test_result;
static struct crypto_rng *cpurng_test_held[CPURNG_TEST_SLOTS];
static struct dentry *cpurng_test_dir;

static const char *cpurng_test_driver(struct crypto_rng *rng)
{
	return crypto_tfm_alg_driver_name(crypto_rng_tfm(rng));
}

/* "driver=... ret=... hex=..." for @len bytes of @buf (none if ret). */
static void cpurng_test_report(const char *driver, int ret, const u8 *buf,
			       unsigned int len)
{
	size_t pos;

	pos = scnprintf(cpurng_test_result, CPURNG_TEST_RESULT_MAX,
			"driver=%s ret=%d hex=", driver, ret);
	if (!ret && buf) {
		bin2hex(cpurng_test_result + pos, buf, len);
		pos += 2 * len;
	}
	scnprintf(cpurng_test_result + pos, CPURNG_TEST_RESULT_MAX - pos,
		  "\n");
}

/* A zeroed buffer of <bytes> (1 to CPURNG_TEST_GET_MAX) for a get command. */
static u8 *cpurng_test_get_buf(const char *nbytes, unsigned int *len)
{
	u8 *buf;

	if (kstrtouint(nbytes, 0, len) || !*len || *len > CPURNG_TEST_GET_MAX)
		return ERR_PTR(-EINVAL);
	buf = kzalloc(*len, GFP_KERNEL);
	return buf ?: ERR_PTR(-ENOMEM);
}

static int cpurng_test_get(const char *alg, const char *nbytes, bool reset)
{
	struct crypto_rng *rng;
	unsigned int len;
	u8 *buf;
	int ret;

	buf = cpurng_test_get_buf(nbytes, &len);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	rng = crypto_alloc_rng(alg, 0, 0);
	if (IS_ERR(rng)) {
		cpurng_test_report("none", PTR_ERR(rng), NULL, 0);
	} else {
		ret = reset ? crypto_rng_reset(rng, NULL,
					       crypto_rng_seedsize(rng)) : 0;
		ret = ret ?: crypto_rng_get_bytes(rng, buf, len);
		cpurng_test_report(cpurng_test_driver(rng), ret, buf, len);
		crypto_free_rng(rng);
	}
	kfree_sensitive(buf);
	return 0;
}

static struct crypto_rng **cpurng_test_slot(const char *arg)
{
	unsigned int slot;

	if (kstrtouint(arg, 0, &slot) || slot >= CPURNG_TEST_SLOTS)
		return NULL;
	return &cpurng_test_held[slot];
}

static int cpurng_test_hold(const char *slot, const char *alg)
{
	struct crypto_rng **held = cpurng_test_slot(slot);
	struct crypto_rng *rng;
	int ret;

	if (!held || *held)
		return -EINVAL;
	rng = crypto_alloc_rng(alg, 0, 0);
	if (IS_ERR(rng)) {
		cpurng_test_report("none", PTR_ERR(rng), NULL, 0);
		return 0;
	}
	ret = crypto_rng_reset(rng, NULL, crypto_rng_seedsize(rng));
	cpurng_test_report(cpurng_test_driver(rng), ret, NULL, 0);
	if (ret)
		crypto_free_rng(rng);
	else
		*held = rng;
	return 0;
}

static int cpurng_test_held_get(const char *slot, const char *nbytes)
{
	struct crypto_rng **held = cpurng_test_slot(slot);
	unsigned int len;
	u8 *buf;
	int ret;

	if (!held || !*held)
		return -EINVAL;
	buf = cpurng_test_get_buf(nbytes, &len);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	ret = crypto_rng_get_bytes(*held, buf, len);
	cpurng_test_report(cpurng_test_driver(*held), ret, buf, len);
	kfree_sensitive(buf);
	return 0;
}

static int cpurng_test_release(const char *slot)
{
	struct crypto_rng **held = cpurng_test_slot(slot);

	if (!held || !*held)
		return -EINVAL;
	crypto_free_rng(*held);
	*held = NULL;
	return 0;
}

static int cpurng_test_default_get(const char *nbytes)
{
	char driver[CRYPTO_MAX_ALG_NAME];
	unsigned int len;
	u8 *buf;
	int ret;

	buf = cpurng_test_get_buf(nbytes, &len);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	ret = cpurng_default_rng_get_bytes(buf, len, driver, sizeof(driver));
	cpurng_test_report(*driver ? driver : "unexposed", ret, buf, len);
	kfree_sensitive(buf);
	return 0;
}

/* crypto_stdrng_get_bytes(), where the kernel has it (7.1 and later). */
static int cpurng_test_stdrng_get(const char *nbytes)
{
	unsigned int len;
	u8 *buf;
	int ret;

	buf = cpurng_test_get_buf(nbytes, &len);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	ret = cpurng_stdrng_get_bytes(buf, len);
	scnprintf(cpurng_test_result, CPURNG_TEST_RESULT_MAX,
		  "fips_enabled=%d ret=%d\n", fips_enabled, ret);
	kfree_sensitive(buf);
	return 0;
}

static int cpurng_test_parse_sizes(const char *req, const char *total,
				   unsigned int *r, u64 *t)
{
	if (kstrtouint(req, 0, r) || !*r || *r > CPURNG_TEST_REQ_MAX ||
	    kstrtou64(total, 0, t) || !*t)
		return -EINVAL;
	return 0;
}

static int cpurng_test_bench(const char *alg, const char *sreq,
			     const char *stotal)
{
	struct crypto_rng *rng;
	unsigned int req;
	u64 total, done = 0;
	ktime_t start;
	u8 *buf;
	int ret;

	if (cpurng_test_parse_sizes(sreq, stotal, &req, &total))
		return -EINVAL;
	buf = kvmalloc(req, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	rng = crypto_alloc_rng(alg, 0, 0);
	if (IS_ERR(rng)) {
		cpurng_test_report("none", PTR_ERR(rng), NULL, 0);
		goto out;
	}
	ret = crypto_rng_reset(rng, NULL, crypto_rng_seedsize(rng));
	start = ktime_get();
	while (!ret && done < total) {
		ret = crypto_rng_get_bytes(rng, buf, req);
		done += req;
		cond_resched();
	}
	scnprintf(cpurng_test_result, CPURNG_TEST_RESULT_MAX,
		  "driver=%s ret=%d bytes=%llu ns=%lld\n",
		  cpurng_test_driver(rng), ret, done,
		  ktime_to_ns(ktime_sub(ktime_get(), start)));
	crypto_free_rng(rng);
out:
	kvfree_sensitive(buf, req);
	return 0;
}

/* The same keystream work as CTR_DRBG's output, without the DRBG. */
static int cpurng_test_bench_ctr_aes(const char *sreq, const char *stotal,
				     const char *how)
{
	static const u8 key[32] = { 1 };
	struct skcipher_request *sk = NULL;
	struct crypto_skcipher *tfm;
	struct scatterlist sg, zero;
	DECLARE_CRYPTO_WAIT(wait);
	bool from_zero = strstarts(how, "zero");
	bool rekey = !strcmp(how, "zero-rekey");
	u8 iv[16] = { 0 }, *buf;
	unsigned int req;
	u64 total, done = 0;
	ktime_t start;
	int ret;

	if (strcmp(how, "inplace") && strcmp(how, "zero") && !rekey)
		return -EINVAL;
	if (cpurng_test_parse_sizes(sreq, stotal, &req, &total) ||
	    (from_zero && req > PAGE_SIZE))
		return -EINVAL;
	buf = kmalloc(req, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	tfm = crypto_alloc_skcipher("ctr(aes)", 0, 0);
	ret = PTR_ERR_OR_ZERO(tfm);
	if (!ret) {
		sk = skcipher_request_alloc(tfm, GFP_KERNEL);
		ret = sk ? crypto_skcipher_setkey(tfm, key, sizeof(key)) :
			   -ENOMEM;
	}
	start = ktime_get();
	while (!ret && done < total) {
		sg_init_one(&sg, buf, req);
		if (from_zero) {
			sg_init_table(&zero, 1);
			sg_set_page(&zero, ZERO_PAGE(0), req, 0);
		} else {
			memset(buf, 0, req);
		}
		if (rekey)
			ret = crypto_skcipher_setkey(tfm, key, sizeof(key));
		if (ret)
			break;
		skcipher_request_set_callback(sk, CRYPTO_TFM_REQ_MAY_SLEEP,
					      crypto_req_done, &wait);
		skcipher_request_set_crypt(sk, from_zero ? &zero : &sg, &sg,
					   req, iv);
		ret = crypto_wait_req(crypto_skcipher_encrypt(sk), &wait);
		done += req;
		cond_resched();
	}
	scnprintf(cpurng_test_result, CPURNG_TEST_RESULT_MAX,
		  "driver=%s ret=%d bytes=%llu ns=%lld\n",
		  IS_ERR(tfm) ? "none" :
		  crypto_tfm_alg_driver_name(crypto_skcipher_tfm(tfm)),
		  ret, done, ktime_to_ns(ktime_sub(ktime_get(), start)));
	skcipher_request_free(sk);
	if (!IS_ERR(tfm))
		crypto_free_skcipher(tfm);
	kfree(buf);
	return 0;
}

/* One compression call: a digest of a message that fits one block. */
static int cpurng_test_bench_hash(const char *alg, const char *slen,
				  const char *scalls)
{
	struct crypto_shash *tfm;
	struct shash_desc *desc = NULL;
	u8 in[128] = { 0 }, out[HASH_MAX_DIGESTSIZE];
	unsigned int len, calls, i;
	ktime_t start;
	int ret;

	if (kstrtouint(slen, 0, &len) || len > sizeof(in) ||
	    kstrtouint(scalls, 0, &calls) || !calls)
		return -EINVAL;
	tfm = crypto_alloc_shash(alg, 0, 0);
	ret = PTR_ERR_OR_ZERO(tfm);
	if (!ret) {
		desc = kzalloc(sizeof(*desc) + crypto_shash_descsize(tfm),
			       GFP_KERNEL);
		ret = desc ? 0 : -ENOMEM;
	}
	if (desc)
		desc->tfm = tfm;
	start = ktime_get();
	for (i = 0; !ret && i < calls; i++)
		ret = crypto_shash_digest(desc, in, len, out);
	scnprintf(cpurng_test_result, CPURNG_TEST_RESULT_MAX,
		  "driver=%s ret=%d calls=%u ns=%lld\n",
		  IS_ERR(tfm) ? "none" : crypto_shash_driver_name(tfm), ret,
		  i, ktime_to_ns(ktime_sub(ktime_get(), start)));
	kfree_sensitive(desc);
	if (!IS_ERR(tfm))
		crypto_free_shash(tfm);
	return 0;
}

#define CPURNG_TEST_THREADS	8

/**
 * struct cpurng_test_reader - one kernel consumer of bench-threads
 * @rng: its own tfm, reset before the start
 * @req: bytes per request
 * @total: bytes to read
 * @go: all readers start on it
 * @done: completed when this reader has finished
 * @ret: outcome
 */
struct cpurng_test_reader {
	struct crypto_rng *rng;
	unsigned int req;
	u64 total;
	struct completion *go;
	struct completion done;
	int ret;
};

static int cpurng_test_reader_fn(void *arg)
{
	struct cpurng_test_reader *r = arg;
	u64 got = 0;
	u8 *buf;

	buf = kmalloc(r->req, GFP_KERNEL);
	r->ret = buf ? 0 : -ENOMEM;
	wait_for_completion(r->go);
	while (!r->ret && got < r->total) {
		r->ret = crypto_rng_get_bytes(r->rng, buf, r->req);
		got += r->req;
		cond_resched();
	}
	kfree_sensitive(buf);
	complete(&r->done);
	return 0;
}

static int cpurng_test_bench_threads(char **argv)
{
	struct cpurng_test_reader *r;
	struct task_struct *task;
	DECLARE_COMPLETION_ONSTACK(go);
	unsigned int n, req, i, started = 0;
	const char *driver = "none";
	u64 total;
	ktime_t start;
	int ret = 0;

	if (kstrtouint(argv[1], 0, &n) || !n || n > CPURNG_TEST_THREADS ||
	    cpurng_test_parse_sizes(argv[2], argv[3], &req, &total))
		return -EINVAL;
	r = kcalloc(n, sizeof(*r), GFP_KERNEL);
	if (!r)
		return -ENOMEM;
	for (i = 0; !ret && i < n; i++) {
		r[i].rng = crypto_alloc_rng(argv[0], 0, 0);
		if (IS_ERR(r[i].rng)) {
			ret = PTR_ERR(r[i].rng);
			r[i].rng = NULL;
			break;
		}
		driver = cpurng_test_driver(r[i].rng);
		ret = crypto_rng_reset(r[i].rng, NULL,
				       crypto_rng_seedsize(r[i].rng));
		r[i].req = req;
		r[i].total = total;
		r[i].go = &go;
		init_completion(&r[i].done);
	}
	for (i = 0; !ret && i < n; i++) {
		task = kthread_run(cpurng_test_reader_fn, &r[i], "cpurng_rd%u", i);
		if (IS_ERR(task))
			ret = PTR_ERR(task);
		else
			started++;
	}
	start = ktime_get();
	complete_all(&go);
	for (i = 0; i < started; i++) {
		wait_for_completion(&r[i].done);
		ret = ret ?: r[i].ret;
	}
	scnprintf(cpurng_test_result, CPURNG_TEST_RESULT_MAX,
		  "driver=%s ret=%d bytes=%llu ns=%lld\n", driver, ret,
		  ret ? 0 : n * total,
		  ktime_to_ns(ktime_sub(ktime_get(), start)));
	for (i = 0; i < n; i++)
		if (r[i].rng)
			crypto_free_rng(r[i].rng);
	kfree(r);
	return 0;
}

static int cpurng_test_algtest(const char *driver, const char *alg)
{
	scnprintf(cpurng_test_result, CPURNG_TEST_RESULT_MAX, "ret=%d\n",
		  alg_test(driver, alg, 0, 0));
	return 0;
}

/* Decode hex (or "-" for empty) into a new buffer. */
static int cpurng_test_unhex(const char *hex, u8 **out, size_t *len)
{
	size_t n = strlen(hex);

	*out = NULL;
	*len = 0;
	if (!strcmp(hex, "-"))
		return 0;
	if (n % 2)
		return -EINVAL;
	*out = kmalloc(n / 2 ? n / 2 : 1, GFP_KERNEL);
	if (!*out)
		return -ENOMEM;
	*len = n / 2;
	if (hex2bin(*out, hex, n / 2)) {
		kfree(*out);
		*out = NULL;
		return -EINVAL;
	}
	return 0;
}

/* Arguments of the cavp command, after the driver name. */
enum {
	CAVP_ENT,
	CAVP_PERS,
	CAVP_RENT,
	CAVP_RADD,
	CAVP_ADD1,
	CAVP_ADD2,
	CAVP_N,
};

static int cpurng_test_cavp(char **argv)
{
	struct crypto_rng *rng;
	u8 *in[CAVP_N] = { NULL }, *out = NULL;
	size_t len[CAVP_N];
	unsigned int outlen, i;
	int ret;

	if (kstrtouint(argv[1 + CAVP_N], 0, &outlen) || !outlen ||
	    outlen > CPURNG_TEST_GET_MAX)
		return -EINVAL;
	for (i = 0, ret = 0; i < CAVP_N && !ret; i++)
		ret = cpurng_test_unhex(argv[1 + i], &in[i], &len[i]);
	out = ret ? NULL : cavp_vmalloc ? vzalloc(outlen) :
			   kzalloc(outlen, GFP_KERNEL);
	if (!ret && !out)
		ret = -ENOMEM;
	if (ret)
		goto out;

	rng = crypto_alloc_rng(argv[0], 0, 0);
	if (IS_ERR(rng)) {
		cpurng_test_report("none", PTR_ERR(rng), NULL, 0);
		goto out;
	}
	crypto_rng_set_entropy(rng, in[CAVP_ENT], len[CAVP_ENT]);
	ret = crypto_rng_reset(rng, in[CAVP_PERS], len[CAVP_PERS]);
	if (!ret && in[CAVP_RENT]) {
		crypto_rng_set_entropy(rng, in[CAVP_RENT], len[CAVP_RENT]);
		ret = crypto_rng_reset(rng, in[CAVP_RADD], len[CAVP_RADD]);
	}
	ret = ret ?: crypto_rng_generate(rng, in[CAVP_ADD1], len[CAVP_ADD1],
					 out, outlen);
	ret = ret ?: crypto_rng_generate(rng, in[CAVP_ADD2], len[CAVP_ADD2],
					 out, outlen);
	cpurng_test_report(cpurng_test_driver(rng), ret, out, outlen);
	crypto_free_rng(rng);
out:
	for (i = 0; i < CAVP_N; i++)
		kfree_sensitive(in[i]);
	kvfree_sensitive(out, outlen);
	return ret;
}

/* Just above the DRBG's bound on personalization and additional input. */
#define CPURNG_TEST_OVERLONG	((1U << 16) + 1)

static int cpurng_test_badinput(const char *driver)
{
	static const u8 entropy[48] = { 0x42 }, pers[16] = { 0x17 };
	struct crypto_rng *ref = NULL, *rng = NULL;
	int before, bpers, baddtl, zero, big = -ENOMEM, ret;
	u8 *huge, out[2][32];

	huge = kvzalloc(SZ_1M, GFP_KERNEL);
	if (!huge)
		return -ENOMEM;
	ref = crypto_alloc_rng(driver, 0, 0);
	rng = IS_ERR(ref) ? ref : crypto_alloc_rng(driver, 0, 0);
	if (IS_ERR(rng)) {
		ret = PTR_ERR(rng);
		goto out;
	}
	/* The twin: instantiate and generate with nothing wrong. */
	crypto_rng_set_entropy(ref, entropy, sizeof(entropy));
	ret = crypto_rng_reset(ref, pers, sizeof(pers)) ?:
	      crypto_rng_generate(ref, pers, sizeof(pers), out[0], 32);
	if (ret)
		goto out;

	before = crypto_rng_get_bytes(rng, out[1], 32);
	crypto_rng_set_entropy(rng, entropy, sizeof(entropy));
	bpers = crypto_rng_reset(rng, huge, CPURNG_TEST_OVERLONG);
	ret = crypto_rng_reset(rng, pers, sizeof(pers));
	if (ret)
		goto out;
	baddtl = crypto_rng_generate(rng, huge, CPURNG_TEST_OVERLONG,
				     out[1], 32);
	zero = crypto_rng_generate(rng, NULL, 0, out[1], 0);
	ret = crypto_rng_generate(rng, pers, sizeof(pers), out[1], 32);
	if (!ret)
		big = crypto_rng_generate(rng, NULL, 0, huge, SZ_1M);
	scnprintf(cpurng_test_result, CPURNG_TEST_RESULT_MAX,
		  "before=%d pers=%d addtl=%d zero=%d same=%d big=%d\n",
		  before, bpers, baddtl, zero,
		  !ret && !memcmp(out[0], out[1], 32), big);
out:
	if (!IS_ERR_OR_NULL(rng) && rng != ref)
		crypto_free_rng(rng);
	if (!IS_ERR_OR_NULL(ref))
		crypto_free_rng(ref);
	kvfree_sensitive(huge, SZ_1M);
	memzero_explicit(out, sizeof(out));
	return ret;
}

static int cpurng_test_run(char **argv, int argc)
{
	const char *cmd = argv[0];

	if (!strcmp(cmd, "get") && argc == 3)
		return cpurng_test_get(argv[1], argv[2], false);
	if (!strcmp(cmd, "reset-get") && argc == 3)
		return cpurng_test_get(argv[1], argv[2], true);
	if (!strcmp(cmd, "default-get") && argc == 2)
		return cpurng_test_default_get(argv[1]);
	if (!strcmp(cmd, "stdrng-get") && argc == 2)
		return cpurng_test_stdrng_get(argv[1]);
	if (!strcmp(cmd, "bench") && argc == 4)
		return cpurng_test_bench(argv[1], argv[2], argv[3]);
	if (!strcmp(cmd, "bench-ctr-aes") && argc == 4)
		return cpurng_test_bench_ctr_aes(argv[1], argv[2], argv[3]);
	if (!strcmp(cmd, "bench-hash") && argc == 4)
		return cpurng_test_bench_hash(argv[1], argv[2], argv[3]);
	if (!strcmp(cmd, "bench-threads") && argc == 5)
		return cpurng_test_bench_threads(argv + 1);
	if (!strcmp(cmd, "algtest") && argc == 3)
		return cpurng_test_algtest(argv[1], argv[2]);
	if (!strcmp(cmd, "badinput") && argc == 2)
		return cpurng_test_badinput(argv[1]);
	if (!strcmp(cmd, "hold") && argc == 3)
		return cpurng_test_hold(argv[1], argv[2]);
	if (!strcmp(cmd, "held-get") && argc == 3)
		return cpurng_test_held_get(argv[1], argv[2]);
	if (!strcmp(cmd, "release") && argc == 2)
		return cpurng_test_release(argv[1]);
	if (!strcmp(cmd, "cavp") && argc == 2 + CAVP_N + 1)
		return cpurng_test_cavp(argv + 1);
	return -EINVAL;
}

static ssize_t cpurng_test_write(struct file *file, const char __user *ubuf,
				 size_t count, loff_t *ppos)
{
	char *cmd, *p, *argv[CPURNG_TEST_ARGS];
	int argc = 0, ret;

	if (count >= CPURNG_TEST_CMD_MAX)
		return -EINVAL;
	cmd = memdup_user_nul(ubuf, count);
	if (IS_ERR(cmd))
		return PTR_ERR(cmd);
	p = strim(cmd);
	while (p && *p && argc < CPURNG_TEST_ARGS) {
		argv[argc++] = strsep(&p, " ");
		p = p ? skip_spaces(p) : NULL;
	}

	mutex_lock(&cpurng_test_lock);
	ret = argc && !p ? cpurng_test_run(argv, argc) : -EINVAL;
	mutex_unlock(&cpurng_test_lock);
	kfree(cmd);
	return ret ? ret : count;
}

static ssize_t cpurng_test_read(struct file *file, char __user *ubuf,
				size_t count, loff_t *ppos)
{
	ssize_t ret;

	mutex_lock(&cpurng_test_lock);
	ret = simple_read_from_buffer(ubuf, count, ppos, cpurng_test_result,
				      strlen(cpurng_test_result));
	mutex_unlock(&cpurng_test_lock);
	return ret;
}

static const struct file_operations cpurng_test_fops = {
	.owner = THIS_MODULE,
	.read = cpurng_test_read,
	.write = cpurng_test_write,
	.llseek = default_llseek,
};

static int __init cpurng_test_init(void)
{
	cpurng_test_result = kzalloc(CPURNG_TEST_RESULT_MAX, GFP_KERNEL);
	if (!cpurng_test_result)
		return -ENOMEM;
	cpurng_test_dir = debugfs_create_dir(KBUILD_MODNAME, NULL);
	debugfs_create_file("ctl", 0600, cpurng_test_dir, NULL,
			    &cpurng_test_fops);
	return 0;
}

static void __exit cpurng_test_exit(void)
{
	unsigned int i;

	debugfs_remove_recursive(cpurng_test_dir);
	for (i = 0; i < CPURNG_TEST_SLOTS; i++)
		if (cpurng_test_held[i])
			crypto_free_rng(cpurng_test_held[i]);
	kfree_sensitive(cpurng_test_result);
}

module_init(cpurng_test_init);
module_exit(cpurng_test_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("cpurng test helper: kernel consumer of crypto_rng");
