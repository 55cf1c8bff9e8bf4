/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Edge cases of the arithmetic, each worked out by hand: a sweep whose
 * baseline count comes twice or not first (every row's relative column,
 * not only the baseline's 1.00), percentile ranks a hair above a whole
 * number, and the coefficient of variation of a negative or zero mean.
 */
#include <config.h>

#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/compiler.h"
#include "run/sweep.h"
#include "stats/hist.h"
#include "stats/summary.h"
#include "unit.h"

#define TOL 1e-12

struct sweep_case {
	const char *what;
	enum metric metric;
	unsigned int n;
	unsigned int clients[6];
	double value[6]; /* of the metric; the other one is 7 everywhere */
	unsigned int base;
	double relative[6];
	double efficiency[6];
};

static const struct sweep_case sweep_cases[] = {
	/* "1 2 1": the first 1 is the baseline; the second is just a row */
	{ "1 2 1",
	  METRIC_OPS,
	  3,
	  { 1, 2, 1 },
	  { 100, 150, 80 },
	  0,
	  { 1.00, 1.50, 0.80 },
	  { 1.00, 0.75, 0.80 } },
	{ "1 2 1 by MB/s",
	  METRIC_MBPS,
	  3,
	  { 1, 2, 1 },
	  { 10, 30, 12 },
	  0,
	  { 1.00, 3.00, 1.20 },
	  { 1.00, 1.50, 1.20 } },
	/* 1 not first, and twice: relative to the first 1, not to row 0 */
	{ "4 1 2 1",
	  METRIC_OPS,
	  4,
	  { 4, 1, 2, 1 },
	  { 300, 100, 160, 90 },
	  1,
	  { 3.00, 1.00, 1.60, 0.90 },
	  { 0.75, 1.00, 0.80, 0.90 } },
	/* no 1: the first of the smallest count, which comes twice */
	{ "8 2 4 2",
	  METRIC_OPS,
	  4,
	  { 8, 2, 4, 2 },
	  { 640, 200, 300, 250 },
	  1,
	  { 3.20, 1.00, 1.50, 1.25 },
	  { 0.80, 1.00, 0.75, 1.25 } },
};

START_TEST(test_sweep_baseline)
{
	const struct sweep_case *c = &sweep_cases[_i];
	struct sweep_row rows[6];
	unsigned int base;

	memset(rows, 0, sizeof(rows));
	for (unsigned int i = 0; i < c->n; i++) {
		rows[i].clients = c->clients[i];
		rows[i].ops_s = c->metric == METRIC_OPS ? c->value[i] : 7;
		rows[i].mb_s = c->metric == METRIC_MBPS ? c->value[i] : 7;
	}
	base = sweep_rows_compute(rows, c->n, c->metric);
	ck_assert_msg(base == c->base, "%s: baseline row %u, want %u", c->what,
		      base, c->base);
	for (unsigned int i = 0; i < c->n; i++) {
		ck_assert_msg(fabs(rows[i].relative - c->relative[i]) < TOL,
			      "%s: row %u: relative %.17g, want %g", c->what, i,
			      rows[i].relative, c->relative[i]);
		ck_assert_msg(fabs(rows[i].efficiency - c->efficiency[i]) < TOL,
			      "%s: row %u: efficiency %.17g, want %g", c->what,
			      i, rows[i].efficiency, c->efficiency[i]);
	}
}
END_TEST

struct rank_case {
	unsigned int low, high; /* how many 10s, then how many 20s */
	double pct;
	uint64_t want;
};

/*
 * Two exact values (buckets below 64 hold one value each): the rank
 * ceil(pct / 100 x count) is at most `low` for 10 and above it for 20.
 * A rank a hair above a whole number must round up: 50.00001% of 1000 is
 * rank 500.0001, that is 501; one exactly whole (50%, 99.9%) must not.
 */
static const struct rank_case rank_cases[] = {
	{ 500, 500, 50, 10 },	      { 500, 500, 50.00001, 20 },
	{ 500, 500, 50.0000001, 20 }, { 500, 500, 49.99999, 10 },
	{ 999, 1, 99.9, 10 },	      { 999, 1, 99.90001, 20 },
	{ 999, 1, 99.900001, 20 },    { 99, 1, 99, 10 },
	{ 99, 1, 99.0001, 20 },	      { 1, 999, 0.1, 10 },
	{ 1, 999, 0.10001, 20 },      { 999999, 1, 99.9999, 10 },
	{ 999999, 1, 99.99991, 20 },
};

START_TEST(test_rank_above_whole)
{
	const struct rank_case *c = &rank_cases[_i];
	struct hist *h = malloc(sizeof(*h));
	uint64_t got;

	ck_assert_ptr_nonnull(h);
	hist_init(h);
	for (unsigned int i = 0; i < c->low; i++)
		hist_add(h, 10);
	for (unsigned int i = 0; i < c->high; i++)
		hist_add(h, 20);
	got = hist_percentile(h, c->pct);
	ck_assert_msg(got == c->want, "%u x 10, %u x 20: p%.9g = %ju, want %ju",
		      c->low, c->high, c->pct, (uintmax_t)got,
		      (uintmax_t)c->want);
	free(h);
}
END_TEST

/* The CV is stddev / |mean|: never negative, 0 for a mean of 0. */
START_TEST(test_cv_sign)
{
	static const double neg[] = { -1, -2, -3 };
	static const double zero[] = { -2, 0, 2 };
	static const double mixed[] = { -4, 2 };
	struct summary s;

	/* mean -2, stddev 1 */
	summary_of(&s, neg, ARRAY_SIZE(neg));
	ck_assert_double_eq_tol(s.mean, -2, TOL);
	ck_assert_double_eq_tol(s.stddev, 1, TOL);
	ck_assert_msg(fabs(s.cv - 0.5) < TOL, "cv of -1 -2 -3: %.17g", s.cv);
	/* mean 0: cv 0, not a division by zero */
	summary_of(&s, zero, ARRAY_SIZE(zero));
	ck_assert_double_eq_tol(s.stddev, 2, TOL);
	ck_assert_msg(s.cv == 0 && !isnan(s.cv), "cv of -2 0 2: %.17g", s.cv);
	/* mean -1, stddev sqrt(18) */
	summary_of(&s, mixed, ARRAY_SIZE(mixed));
	ck_assert_msg(fabs(s.cv - sqrt(18)) < 1e-9, "cv of -4 2: %.17g", s.cv);
	ck_assert_double_eq_tol(s.median, -1, TOL);
}
END_TEST

static Suite *arith_suite(void)
{
	Suite *s = suite_create("arith");
	TCase *tc = tcase_create("edges");

	tcase_add_loop_test(tc, test_sweep_baseline, 0,
			    (int)ARRAY_SIZE(sweep_cases));
	tcase_add_loop_test(tc, test_rank_above_whole, 0,
			    (int)ARRAY_SIZE(rank_cases));
	tcase_add_test(tc, test_cv_sign);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return unit_main(arith_suite());
}
