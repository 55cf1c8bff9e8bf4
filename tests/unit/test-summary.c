/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests for summary.c and welch.c: summary_of() on hand-worked data
 * sets (mean, median of odd and even n, sample standard deviation, CV,
 * min, max, n = 0 and n = 1, large close values) and welch_test() against
 * t and Welch-Satterthwaite df worked out by hand, with p-values checked
 * against closed forms of the t distribution (df 1, 2 and 4) and against
 * t-table critical values. Output is TAP on stdout.
 */
#include <config.h>
#include "stats/summary.h"
#include "stats/welch.h"

#include <check.h>
#include <errno.h>
#include <math.h>
#include <string.h>

#include "base/compiler.h"
#include "unit.h"

#define TOL 1e-12

/*
 * One data set and its summary worked out by hand. The values are given
 * unsorted where the median needs the sort.
 */
struct summary_case {
	const char *what;
	size_t n;
	double v[8];
	double mean, median, stddev, cv, min, max;
};

static const struct summary_case summary_cases[] = {
	/*
	 * n = 3, odd: sorted 1 2 3, median 2; mean 6 / 3 = 2;
	 * squared deviations 1 + 0 + 1 = 2, over n - 1 = 2: variance 1.
	 */
	{ "3 1 2", 3, { 3, 1, 2 }, 2, 2, 1, 0.5, 1, 3 },
	/* mean 300 / 3 = 100; (0 + 1 + 1) / 2 = 1; cv 1 / 100 */
	{ "100 101 99", 3, { 100, 101, 99 }, 100, 100, 1, 0.01, 99, 101 },
	/*
	 * n = 8, even: sorted 2 4 4 4 5 5 7 9, median (4 + 5) / 2 = 4.5;
	 * mean 40 / 8 = 5; squared deviations 9+1+1+1+0+0+4+16 = 32;
	 * sample variance 32 / 7, stddev sqrt(32 / 7) = 2.1380899352993950,
	 * cv that / 5.
	 */
	{ "2 4 4 4 5 5 7 9 shuffled",
	  8,
	  { 5, 9, 4, 2, 7, 4, 5, 4 },
	  5,
	  4.5,
	  2.1380899352993950,
	  2.1380899352993950 / 5,
	  2,
	  9 },
	/* n = 2: median (10 + 20) / 2 = 15; (25 + 25) / 1 = 50 */
	{ "20 10",
	  2,
	  { 20, 10 },
	  15,
	  15,
	  7.0710678118654752,
	  7.0710678118654752 / 15,
	  10,
	  20 },
	/* n = 4, even, median from the middle two of 1 2 3 10: 2.5 */
	{ "10 1 3 2",
	  4,
	  { 10, 1, 3, 2 },
	  4,
	  2.5,
	  /* (36 + 9 + 1 + 4) / 3 = 50 / 3 */
	  4.0824829046386302,
	  4.0824829046386302 / 4,
	  1,
	  10 },
	/* no spread: stddev and cv 0 */
	{ "5 5 5 5", 4, { 5, 5, 5, 5 }, 5, 5, 0, 0, 5, 5 },
	/* n = 1: the value, no spread */
	{ "42", 1, { 42 }, 42, 42, 0, 0, 42, 42 },
	/* a mean of 0: cv 0 by definition, not a division by zero */
	{ "-1 1", 2, { -1, 1 }, 0, 0, 1.4142135623730951, 0, -1, 1 },
	{ "0 0 0", 3, { 0, 0, 0 }, 0, 0, 0, 0, 0, 0 },
	/*
	 * Large close values: 1e9 + 1 .. 1e9 + 5 (exact in a double). Mean
	 * 1e9 + 3, deviations -2 -1 0 1 2, variance 10 / 4 = 2.5, stddev
	 * sqrt(2.5) = 1.5811388300841898. The naive sum of squares is
	 * about 5e18, where a double's spacing is 1024: it would lose the
	 * 10 entirely.
	 */
	{ "1e9+1..1e9+5",
	  5,
	  { 1e9 + 4, 1e9 + 1, 1e9 + 5, 1e9 + 3, 1e9 + 2 },
	  1e9 + 3,
	  1e9 + 3,
	  1.5811388300841898,
	  1.5811388300841898 / (1e9 + 3),
	  1e9 + 1,
	  1e9 + 5 },
	/*
	 * Further out: 1e12 + 0.5 .. 1e12 + 2.5 step 0.5 (exact: the
	 * spacing at 1e12 is 2^-13). Deviations -1 -0.5 0 0.5 1: squares
	 * 2.5, variance 2.5 / 4 = 0.625, stddev 0.79056941504209483.
	 */
	{ "1e12+0.5..1e12+2.5",
	  5,
	  { 1e12 + 2.5, 1e12 + 0.5, 1e12 + 1.5, 1e12 + 2, 1e12 + 1 },
	  1e12 + 1.5,
	  1e12 + 1.5,
	  0.79056941504209483,
	  0.79056941504209483 / (1e12 + 1.5),
	  1e12 + 0.5,
	  1e12 + 2.5 },
};

START_TEST(test_summary)
{
	const struct summary_case *c = &summary_cases[_i];
	double copy[8];
	struct summary s;

	memcpy(copy, c->v, sizeof(copy));
	memset(&s, 0xa5, sizeof(s));
	ck_assert_ptr_eq(summary_of(&s, copy, c->n), &s);
	/* the input is not sorted in place */
	ck_assert_msg(!memcmp(copy, c->v, sizeof(copy)), "%s: input changed",
		      c->what);
	ck_assert_msg(s.n == c->n, "%s: n %zu, want %zu", c->what, s.n, c->n);
	ck_assert_msg(close_to(s.mean, c->mean, TOL),
		      "%s: mean %.17g, want %.17g", c->what, s.mean, c->mean);
	ck_assert_msg(s.median == c->median, "%s: median %.17g, want %.17g",
		      c->what, s.median, c->median);
	/*
	 * The stddev of large close values is what precision is about.
	 * Welford's update carries the rounding of the running mean (the
	 * spacing of doubles at 1e9 is 1.2e-7): a few 1e-9 of the stddev.
	 * The naive sum of squares, (sum x^2 - (sum x)^2 / n) / (n - 1),
	 * gives a variance of 0 for 1e9+1..1e9+5.
	 */
	ck_assert_msg(fabs(s.stddev - c->stddev) <= 1e-7 * fmax(1, c->stddev),
		      "%s: stddev %.17g, want %.17g", c->what, s.stddev,
		      c->stddev);
	ck_assert_msg(fabs(s.cv - c->cv) <= 1e-7 * c->cv,
		      "%s: cv %.17g, want %.17g", c->what, s.cv, c->cv);
	ck_assert_msg(s.min == c->min && s.max == c->max,
		      "%s: min %.17g max %.17g, want %.17g %.17g", c->what,
		      s.min, s.max, c->min, c->max);
}
END_TEST

/* n = 0: every field 0 (and v is not read). */
START_TEST(test_summary_empty)
{
	struct summary s;

	memset(&s, 0xa5, sizeof(s));
	summary_of(&s, NULL, 0);
	ck_assert_uint_eq(s.n, 0);
	ck_assert(s.mean == 0 && s.median == 0 && s.stddev == 0 && s.cv == 0 &&
		  s.min == 0 && s.max == 0);
}
END_TEST

/*
 * 1000 values 1e9 + (i % 10), i = 0..999: mean 1e9 + 4.5, each residue
 * 100 times, squared deviations 100 x (2 x (0.25 + 2.25 + 6.25 + 12.25 +
 * 20.25)) = 8250, variance 8250 / 999 = 8.258. The naive sum of squares
 * gives 1968 here.
 */
START_TEST(test_summary_many_close)
{
	double v[1000], want = sqrt(8250.0 / 999);
	struct summary s;

	for (unsigned int i = 0; i < 1000; i++)
		v[i] = 1e9 + (double)(i % 10);
	summary_of(&s, v, 1000);
	ck_close(s.mean, 1e9 + 4.5, 1e-14, "mean");
	ck_assert(s.median == 1e9 + 4.5);
	ck_close(s.stddev, want, 1e-7, "stddev");
	ck_assert(s.min == 1e9 && s.max == 1e9 + 9);
}
END_TEST

/*
 * Two-sided p-values of the t distribution in closed form, independent
 * of GSL (Abramowitz and Stegun 26.7.3, 26.7.4):
 *   df 1 (Cauchy): p = 1 - (2 / pi) atan |t|
 *   df 2:          p = 1 - |t| / sqrt(2 + t^2)
 *   df 4:          u = |t| / sqrt(1 + t^2 / 4), p = 1 - (3/4) u (1 - u^2 / 12)
 */
static double p_df1(double t)
{
	return 1 - 2 / M_PI * atan(fabs(t));
}

static double p_df2(double t)
{
	return 1 - fabs(t) / sqrt(2 + t * t);
}

static double p_df4(double t)
{
	double u = fabs(t) / sqrt(1 + t * t / 4);

	return 1 - 0.75 * u * (1 - u * u / 12);
}

/* Two-sided critical values of a t-table: P(|T| > c) = 0.05 and 0.01. */
#define T975_DF2 4.302653
#define T995_DF2 9.924843
#define T975_DF4 2.776445
#define T995_DF4 4.604095
#define T975_DF5 2.570582
#define T995_DF5 4.032143
#define T975_DF6 2.446912
#define T995_DF6 3.707428

/* The closed forms agree with the table: the reference is sound. */
START_TEST(test_reference)
{
	ck_close(p_df2(T975_DF2), 0.05, 1e-5, "df 2 at 97.5%");
	ck_close(p_df2(T995_DF2), 0.01, 1e-5, "df 2 at 99.5%");
	ck_close(p_df4(T975_DF4), 0.05, 1e-5, "df 4 at 97.5%");
	ck_close(p_df4(T995_DF4), 0.01, 1e-5, "df 4 at 99.5%");
	/* df 1 at 12.706205 (97.5%) */
	ck_close(p_df1(12.706205), 0.05, 1e-5, "df 1 at 97.5%");
	ck_assert(p_df4(0) == 1 && p_df2(0) == 1);
}
END_TEST

static void sum_of(struct summary *s, const double *v, size_t n)
{
	summary_of(s, v, n);
}

/*
 * a = 100 101 99, b = 150 151 149: means 100 and 150, s = 1 on both
 * sides, n = 3.
 *   va = vb = s^2 / n = 1/3; se^2 = 2/3
 *   t  = (150 - 100) / sqrt(2/3) = 50 sqrt(1.5) = 61.237243569579452
 *   df = (2/3)^2 / ((1/3)^2 / 2 + (1/3)^2 / 2) = (4/9) / (1/9) = 4
 * |t| far above the df-4 critical values 2.776 (95%) and 4.604 (99%).
 */
START_TEST(test_welch_clear)
{
	static const double a[] = { 100, 101, 99 }, b[] = { 150, 151, 149 };
	struct summary sa, sb;
	struct welch w;

	sum_of(&sa, a, 3);
	sum_of(&sb, b, 3);
	ck_assert_int_eq(welch_test(&sa, &sb, 0.95, &w), 0);
	ck_close(w.t, 61.237243569579452, 1e-12, "t");
	ck_close(w.df, 4, 1e-12, "df");
	ck_close(w.p, p_df4(w.t), 1e-9, "p");
	ck_assert(w.p < 0.01);
	ck_assert(w.significant);
	/* the interval: 50 +/- t(0.975, 4) x sqrt(2/3), t = 2.7764451 */
	ck_close(w.lo, 50 - T975_DF4 * sqrt(2.0 / 3), 1e-6, "lo");
	ck_close(w.hi, 50 + T975_DF4 * sqrt(2.0 / 3), 1e-6, "hi");
	ck_assert_int_eq(welch_test(&sa, &sb, 0.99, &w), 0);
	ck_assert(w.significant);
	ck_close(w.lo, 50 - T995_DF4 * sqrt(2.0 / 3), 1e-6, "lo 99%");

	/* the other way round: t changes sign, df and p do not */
	ck_assert_int_eq(welch_test(&sb, &sa, 0.95, &w), 0);
	ck_close(w.t, -61.237243569579452, 1e-12, "t reversed");
	ck_close(w.df, 4, 1e-12, "df reversed");
	ck_close(w.p, p_df4(w.t), 1e-9, "p reversed");
	ck_assert(w.significant);
}
END_TEST

/*
 * n = 3 and s = 1 on both sides, means 100 and 100 + d: t = d / sqrt(2/3),
 * df = 4 for every d. Significant at 95% exactly when |t| > 2.776445,
 * at 99% exactly when |t| > 4.604095; p matches the df-4 closed form.
 * The d are chosen so that no |t| lies within 0.01 of a critical value.
 */
START_TEST(test_welch_table_df4)
{
	static const double d[] = { 0.5, 1,   1.5, 2, 2.2, 2.3, 2.4,  3,  3.5,
				    3.7, 3.8, 4,   5, 8,   -2,	-2.4, -3, -4 };
	static const double a[] = { 99, 100, 101 };
	struct summary sa, sb;
	struct welch w;

	sum_of(&sa, a, 3);
	for (unsigned int i = 0; i < ARRAY_SIZE(d); i++) {
		double b[3] = { 99 + d[i], 100 + d[i], 101 + d[i] };
		double t = d[i] / sqrt(2.0 / 3);

		sum_of(&sb, b, 3);
		ck_assert_int_eq(welch_test(&sa, &sb, 0.95, &w), 0);
		ck_close(w.t, t, 1e-9, "t");
		ck_close(w.df, 4, 1e-9, "df");
		ck_assert_msg(close_to(w.p, p_df4(t), 1e-9),
			      "d %g: p %.17g, want %.17g", d[i], w.p, p_df4(t));
		ck_assert_msg(w.significant == (fabs(t) > T975_DF4),
			      "d %g (t %g): significant %d at 95%%", d[i], t,
			      w.significant);
		ck_assert_int_eq(welch_test(&sa, &sb, 0.99, &w), 0);
		ck_assert_msg(w.significant == (fabs(t) > T995_DF4),
			      "d %g (t %g): significant %d at 99%%", d[i], t,
			      w.significant);
	}
}
END_TEST

/*
 * The borderline case: a = 99 100 101, b = 102 103 104.
 *   t = 3 / sqrt(2/3) = 3 sqrt(1.5) = 3.6742346141747673, df = 4
 *   2.776445 < t < 4.604095: significant at 95%, not at 99%.
 *   p (df-4 form): t^2 = 13.5, u^2 = 13.5 / 4.375 = 108/35,
 *   p = 1 - 0.75 u (1 - 9/35) = 0.0213...
 */
START_TEST(test_welch_borderline)
{
	static const double a[] = { 99, 100, 101 }, b[] = { 102, 103, 104 };
	double u = sqrt(108.0 / 35), p = 1 - 0.75 * u * (1 - 9.0 / 35);
	struct summary sa, sb;
	struct welch w;

	sum_of(&sa, a, 3);
	sum_of(&sb, b, 3);
	ck_assert_int_eq(welch_test(&sa, &sb, 0.95, &w), 0);
	ck_close(w.t, 3.6742346141747673, 1e-12, "t");
	ck_close(w.df, 4, 1e-12, "df");
	ck_close(w.p, p, 1e-9, "p");
	ck_assert(w.p > 0.01 && w.p < 0.05);
	ck_assert(w.significant);
	ck_assert_int_eq(welch_test(&sa, &sb, 0.99, &w), 0);
	ck_close(w.p, p, 1e-9, "p at 99%");
	ck_assert(!w.significant);
	/* 0.978: p = 0.0213 < 0.022, significant; 0.98: 0.0213 > 0.02, not */
	ck_assert_int_eq(welch_test(&sa, &sb, 0.978, &w), 0);
	ck_assert(w.significant);
	ck_assert_int_eq(welch_test(&sa, &sb, 0.98, &w), 0);
	ck_assert(!w.significant);
}
END_TEST

/*
 * Unequal variances and sizes, where Welch differs from Student:
 * a = 1 2 3 (n 3, mean 2, s^2 1), b = 2 4 6 8 10 (n 5, mean 6, s^2 10).
 *   va = 1/3, vb = 10/5 = 2, se^2 = 7/3
 *   t  = 4 / sqrt(7/3) = 2.6186146828319083
 *   df = (7/3)^2 / ((1/3)^2 / 2 + 2^2 / 4) = (49/9) / (19/18) = 98/19
 *      = 5.1578947368421053
 * df lies between 5 and 6, so the 95% critical value lies between 2.4469
 * and 2.5706, below t: significant; the 99% one lies between 3.7074 and
 * 4.0321, above t: not significant.
 */
START_TEST(test_welch_satterthwaite)
{
	static const double a[] = { 1, 2, 3 }, b[] = { 2, 4, 6, 8, 10 };
	struct summary sa, sb;
	struct welch w;

	sum_of(&sa, a, 3);
	sum_of(&sb, b, 5);
	ck_assert_int_eq(welch_test(&sa, &sb, 0.95, &w), 0);
	ck_close(w.t, 2.6186146828319083, 1e-12, "t");
	ck_close(w.df, 98.0 / 19, 1e-12, "df");
	ck_assert(w.t > T975_DF5 && w.t < T995_DF6);
	ck_assert_msg(w.p > 0.01 && w.p < 0.05, "p %.17g", w.p);
	ck_assert(w.significant);
	ck_assert_int_eq(welch_test(&sa, &sb, 0.99, &w), 0);
	ck_assert(!w.significant);
}
END_TEST

/*
 * n = 2 on both sides, same variance: df = (2v)^2 / (v^2 + v^2) = 2.
 * a = 1 3 (mean 2, s^2 2), b = 3 5 (mean 4, s^2 2): va = vb = 1,
 * t = 2 / sqrt(2) = sqrt(2), p = 1 - sqrt(2) / sqrt(4) = 1 - 1/sqrt(2)
 * = 0.29289321881345248.
 */
START_TEST(test_welch_df2)
{
	static const double a[] = { 1, 3 }, b[] = { 3, 5 };
	struct summary sa, sb;
	struct welch w;

	sum_of(&sa, a, 2);
	sum_of(&sb, b, 2);
	ck_assert_int_eq(welch_test(&sa, &sb, 0.95, &w), 0);
	ck_close(w.t, M_SQRT2, 1e-12, "t");
	ck_close(w.df, 2, 1e-12, "df");
	ck_close(w.p, 1 - M_SQRT1_2, 1e-9, "p");
	ck_assert(!w.significant);
}
END_TEST

/*
 * No spread on one side: a = 5 5 5 (va 0), b = 4 6 8 (mean 6, s^2 4,
 * vb 4/3). df = vb^2 / (vb^2 / 2) = 2, t = 1 / sqrt(4/3) = sqrt(3)/2,
 * p = 1 - sqrt(3/4) / sqrt(11/4) = 1 - sqrt(3/11).
 */
START_TEST(test_welch_one_flat)
{
	static const double a[] = { 5, 5, 5 }, b[] = { 4, 6, 8 };
	struct summary sa, sb;
	struct welch w;

	sum_of(&sa, a, 3);
	sum_of(&sb, b, 3);
	ck_assert_int_eq(welch_test(&sa, &sb, 0.95, &w), 0);
	ck_close(w.t, sqrt(3) / 2, 1e-12, "t");
	ck_close(w.df, 2, 1e-12, "df");
	ck_close(w.p, 1 - sqrt(3.0 / 11), 1e-9, "p");
	ck_close(w.p, p_df2(w.t), 1e-9, "p (df-2 form)");
	ck_assert(!w.significant);
}
END_TEST

/*
 * Equal means: t = 0 and p = 1, not significant, whatever the spreads.
 * a = 1 2 3, b = 0 2 4: va = 1/3, vb = 4/3, df = (25/9) / (17/18) = 50/17.
 */
START_TEST(test_welch_equal_means)
{
	static const double a[] = { 1, 2, 3 }, b[] = { 0, 2, 4 };
	static const double c[] = { 100, 101, 99 };
	struct summary sa, sb, sc;
	struct welch w;

	sum_of(&sa, a, 3);
	sum_of(&sb, b, 3);
	sum_of(&sc, c, 3);
	ck_assert_int_eq(welch_test(&sa, &sb, 0.95, &w), 0);
	ck_assert(w.t == 0);
	ck_close(w.df, 50.0 / 17, 1e-12, "df");
	ck_close(w.p, 1, 1e-12, "p");
	ck_assert(!w.significant);
	/* a sample against itself */
	ck_assert_int_eq(welch_test(&sc, &sc, 0.95, &w), 0);
	ck_assert(w.t == 0);
	ck_close(w.df, 4, 1e-12, "df");
	ck_close(w.p, 1, 1e-12, "p itself");
	ck_assert(!w.significant);
	ck_assert_int_eq(welch_test(&sc, &sc, 0.51, &w), 0);
	ck_assert(!w.significant);
}
END_TEST

/* No spread on either side: significant exactly when the means differ. */
START_TEST(test_welch_no_spread)
{
	static const double a[] = { 5, 5, 5 }, b[] = { 6, 6, 6 };
	static const double c[] = { 5, 5, 5, 5 };
	struct summary sa, sb, sc;
	struct welch w;

	sum_of(&sa, a, 3);
	sum_of(&sb, b, 3);
	sum_of(&sc, c, 4);
	ck_assert_int_eq(welch_test(&sa, &sb, 0.95, &w), 0);
	ck_assert(w.p == 0);
	ck_assert(w.significant);
	ck_assert_int_eq(welch_test(&sa, &sb, 0.999, &w), 0);
	ck_assert(w.significant);
	ck_assert_int_eq(welch_test(&sb, &sa, 0.95, &w), 0);
	ck_assert(w.significant);
	ck_assert_int_eq(welch_test(&sa, &sc, 0.95, &w), 0);
	ck_assert(w.p == 1);
	ck_assert(!w.significant);
}
END_TEST

/* Fewer than 2 values on a side: -EINVAL, nothing significant. */
START_TEST(test_welch_too_few)
{
	static const double a[] = { 100, 101, 99 }, one[] = { 500 };
	struct summary sa, s1, s0;
	struct welch w;

	sum_of(&sa, a, 3);
	sum_of(&s1, one, 1);
	sum_of(&s0, NULL, 0);
	memset(&w, 0xa5, sizeof(w));
	ck_assert_int_eq(welch_test(&sa, &s1, 0.95, &w), -EINVAL);
	ck_assert(!w.significant);
	memset(&w, 0xa5, sizeof(w));
	ck_assert_int_eq(welch_test(&s1, &sa, 0.95, &w), -EINVAL);
	ck_assert(!w.significant);
	ck_assert_int_eq(welch_test(&s0, &sa, 0.95, &w), -EINVAL);
	ck_assert_int_eq(welch_test(&s1, &s1, 0.95, &w), -EINVAL);
	ck_assert_int_eq(welch_test(&s0, &s0, 0.95, &w), -EINVAL);
}
END_TEST

static Suite *summary_suite(void)
{
	Suite *s = suite_create("summary");
	TCase *tc;

	tc = tcase_create("summary");
	tcase_add_loop_test(tc, test_summary, 0,
			    (int)ARRAY_SIZE(summary_cases));
	tcase_add_test(tc, test_summary_empty);
	tcase_add_test(tc, test_summary_many_close);
	suite_add_tcase(s, tc);

	tc = tcase_create("welch");
	tcase_add_test(tc, test_reference);
	tcase_add_test(tc, test_welch_clear);
	tcase_add_test(tc, test_welch_table_df4);
	tcase_add_test(tc, test_welch_borderline);
	tcase_add_test(tc, test_welch_satterthwaite);
	tcase_add_test(tc, test_welch_df2);
	tcase_add_test(tc, test_welch_one_flat);
	tcase_add_test(tc, test_welch_equal_means);
	tcase_add_test(tc, test_welch_no_spread);
	tcase_add_test(tc, test_welch_too_few);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return unit_main(summary_suite());
}
