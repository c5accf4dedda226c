/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Expression forms of the kernel's kselftest.h calls, for cpurng's test
 * programs that report a sequence of computed results rather than
 * independent cases (those use kselftest_harness.h): the CAVP vector
 * runner, the AF_ALG fuzzer, the fail-nth sweep and the host unit tests.
 * The output is kselftest.h's own KTAP; kselftest.h comes from the
 * kernel source (scripts/kselftest-src.sh, -I in the Makefile).
 */
#ifndef CPURNG_TEST_KSFT_REPORT_H
#define CPURNG_TEST_KSFT_REPORT_H

#include <stdio.h>

#include "kselftest.h"

/*
 * Header and plan, with stdout line-buffered: what a program printed
 * before the kernel panicked has reached the serial port.
 */
static inline void report_start(unsigned int plan)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	ksft_print_header();
	ksft_set_plan(plan);
}

/* Report case @name by @cond; returns @cond. */
static inline int report_check(int cond, const char *name)
{
	ksft_test_result_code(cond ? KSFT_PASS : KSFT_FAIL, name, NULL);
	return cond;
}

static inline void report_skip(const char *name, const char *reason)
{
	ksft_test_result_code(KSFT_SKIP, name, "%s", reason);
}

#define report_diag(fmt, ...)	ksft_print_msg(fmt "\n", ##__VA_ARGS__)

/*
 * Exit status as kselftest defines it: KSFT_FAIL on a failure or a plan
 * not kept, KSFT_SKIP when every case was skipped, else KSFT_PASS.
 */
static inline int report_exit(void)
{
	unsigned int done = ksft_test_num();

	if (ksft_get_fail_cnt() || done != ksft_plan) {
		if (done != ksft_plan)
			report_diag("planned %u cases, reported %u", ksft_plan,
				    done);
		return KSFT_FAIL;
	}
	if (done && (unsigned int)ksft_get_xskip_cnt() == done)
		return KSFT_SKIP;
	return KSFT_PASS;
}

#endif /* CPURNG_TEST_KSFT_REPORT_H */
