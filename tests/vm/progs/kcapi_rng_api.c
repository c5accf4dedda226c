// SPDX-License-Identifier: GPL-2.0
/*
 * kcapi_rng_api: libkcapi's own RNG calls against our algorithms:
 * kcapi_rng_init, kcapi_rng_seedsize, kcapi_rng_seed (with and without a
 * personalization string), kcapi_rng_generate (more than AF_ALG's 128
 * bytes per read) and kcapi_rng_destroy for each name given, and
 * kcapi_rng_get_bytes (which uses stdrng).
 */
#include <kcapi.h>
#include <string.h>

#include "../../lib/ktap.h"

static void test_name(const char *name)
{
	static uint8_t a[300], b[300];
	struct kcapi_handle *h = NULL;
	ssize_t ga = 0, gb = 0;
	int init, seed = -1, ok;
	unsigned int size = 0;
	char label[128];

	init = kcapi_rng_init(&h, name, 0);
	if (!init) {
		size = kcapi_rng_seedsize(h);
		seed = kcapi_rng_seed(h, NULL, 0);
		ga = kcapi_rng_generate(h, a, sizeof(a));
		gb = kcapi_rng_generate(h, b, sizeof(b));
	}
	ok = !init && !size && !seed && ga == sizeof(a) && gb == sizeof(b) &&
	     memcmp(a, b, sizeof(a));
	if (!ok)
		ktap_diag("%s: init %d, seedsize %u, seed %d, generate %zd and %zd",
			  name, init, size, seed, ga, gb);
	kcapi_rng_destroy(h);
	snprintf(label, sizeof(label), "init_seed_generate_destroy_%s", name);
	ktap_check(ok, label);

	h = NULL;
	ok = !kcapi_rng_init(&h, name, 0) &&
	     !kcapi_rng_seed(h, (uint8_t *)"cpurng test", 11) &&
	     kcapi_rng_generate(h, a, 64) == 64;
	kcapi_rng_destroy(h);
	snprintf(label, sizeof(label), "seed_with_personalization_%s", name);
	ktap_check(ok, label);
}

int main(int argc, char **argv)
{
	uint8_t a[64], b[64];
	int i;

	ktap_plan(2 * (argc - 1) + 1);
	for (i = 1; i < argc; i++)
		test_name(argv[i]);
	ktap_check(kcapi_rng_get_bytes(a, sizeof(a)) == sizeof(a) &&
		   kcapi_rng_get_bytes(b, sizeof(b)) == sizeof(b) &&
		   memcmp(a, b, sizeof(a)), "kcapi_rng_get_bytes_from_stdrng");
	return ktap_exit();
}
