/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Minimal KTAP v1 producer for cpurng's C test programs, host and guest.
 *
 * A program declares its plan, reports each case with ktap_ok/ktap_fail/
 * ktap_skip, and returns ktap_exit(): 0 when everything passed or was
 * skipped, 1 on any failure, 4 when every case was skipped (the kselftest
 * exit codes).  Diagnostics go out as "# " lines.
 */
#ifndef CPURNG_TEST_KTAP_H
#define CPURNG_TEST_KTAP_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#define KTAP_EXIT_PASS	0
#define KTAP_EXIT_FAIL	1
#define KTAP_EXIT_SKIP	4

struct ktap_state {
	int planned;
	int number;
	int passed;
	int failed;
	int skipped;
};

static struct ktap_state ktap;

static inline void ktap_plan(int cases)
{
	ktap.planned = cases;
	printf("KTAP version 1\n1..%d\n", cases);
	fflush(stdout);
}

static inline void ktap_diag(const char *fmt, ...)
{
	va_list ap;

	fputs("# ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	fputc('\n', stdout);
	fflush(stdout);
}

static inline void ktap_result(int ok, const char *name, const char *directive)
{
	ktap.number++;
	printf("%sok %d %s%s%s\n", ok ? "" : "not ", ktap.number, name,
	       directive ? " # " : "", directive ? directive : "");
	fflush(stdout);
}

static inline void ktap_ok(const char *name)
{
	ktap.passed++;
	ktap_result(1, name, NULL);
}

static inline void ktap_fail(const char *name)
{
	ktap.failed++;
	ktap_result(0, name, NULL);
}

/* Report a case by a condition; returns the condition. */
static inline int ktap_check(int cond, const char *name)
{
	if (cond)
		ktap_ok(name);
	else
		ktap_fail(name);
	return cond;
}

static inline void ktap_skip(const char *name, const char *reason)
{
	char directive[256];

	ktap.skipped++;
	snprintf(directive, sizeof(directive), "SKIP %s", reason);
	ktap_result(1, name, directive);
}

static inline int ktap_exit(void)
{
	if (ktap.number != ktap.planned) {
		ktap_diag("planned %d cases, reported %d", ktap.planned,
			  ktap.number);
		return KTAP_EXIT_FAIL;
	}
	if (ktap.failed)
		return KTAP_EXIT_FAIL;
	if (ktap.number && ktap.skipped == ktap.number)
		return KTAP_EXIT_SKIP;
	return KTAP_EXIT_PASS;
}

#endif /* CPURNG_TEST_KTAP_H */
