/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests for the rank statistics of vfsbench compare: ranksum.c (the
 * permutation distribution of a rank sum, ties included), mannwhitney.c
 * (the U test, exact and normal) and shift.c (Hodges-Lehmann estimate and
 * interval). Values are checked against a second implementation here (a
 * brute-force enumeration of every split of the pooled values), against
 * the critical values of published Mann-Whitney tables, and against
 * constants computed with SciPy 1.10.1 (Debian 12's python3-scipy):
 * scipy.stats.mannwhitneyu(b, a, method="exact" or "asymptotic",
 * use_continuity=True) and, for the exact p-value with ties,
 * scipy.stats.permutation_test() of |W - E(W)| with n_resamples=inf (an
 * exhaustive enumeration). Output is TAP on stdout.
 */
#include <config.h>
#include "stats/mannwhitney.h"
#include "stats/ranksum.h"
#include "stats/shift.h"

#include <check.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/compiler.h"
#include "unit.h"

#define MAXN 16

/*
 * The second implementation: every way of choosing which nb of the
 * pooled values are "b" (bitmasks), the midranks worked out by counting
 * (rank = 1 + values below + (values equal - 1) / 2), and the two-sided
 * p = the share of splits whose rank sum is at least as far from its
 * mean as the observed one.
 */
static double brute_p(const double *a, size_t na, const double *b, size_t nb,
		      double *p_min)
{
	double v[MAXN], rank[MAXN], w = 0, mean, far = 0, hits = 0, extreme = 0;
	size_t n = na + nb, total = 0;

	ck_assert(n <= MAXN);
	memcpy(v, a, na * sizeof(*v));
	memcpy(v + na, b, nb * sizeof(*v));
	for (size_t i = 0; i < n; i++) {
		double below = 0, equal = 0;

		for (size_t j = 0; j < n; j++) {
			below += v[j] < v[i];
			equal += v[j] == v[i];
		}
		rank[i] = 1 + below + (equal - 1) / 2;
	}
	for (size_t j = na; j < n; j++)
		w += rank[j];
	mean = (double)nb * (double)(n + 1) / 2;
	for (unsigned long m = 0; m < (1ul << n); m++) {
		double s = 0;

		if ((size_t)__builtin_popcountl(m) != nb)
			continue;
		for (size_t i = 0; i < n; i++)
			if (m & (1ul << i))
				s += rank[i];
		far = fmax(far, fabs(s - mean));
	}
	for (unsigned long m = 0; m < (1ul << n); m++) {
		double s = 0;

		if ((size_t)__builtin_popcountl(m) != nb)
			continue;
		for (size_t i = 0; i < n; i++)
			if (m & (1ul << i))
				s += rank[i];
		total++;
		hits += fabs(s - mean) >= fabs(w - mean) - 1e-9;
		extreme += fabs(s - mean) >= far - 1e-9;
	}
	*p_min = extreme / (double)total;
	return hits / (double)total;
}

struct mwu_case {
	const char *what;
	size_t na, nb;
	double a[MAXN], b[MAXN];
	double u, p; /* SciPy's, or 0 for p: the brute force only */
};

static const struct mwu_case exact_cases[] = {
	/* fully separated, 5 a side: 2 / C(10, 5) = 2 / 252 */
	{ "separated 5+5",
	  5,
	  5,
	  { 100, 101, 99, 102, 98 },
	  { 150, 151, 149, 152, 148 },
	  25,
	  0.007936507936507936 },
	/* n = 3: the smallest p is 2 / C(6, 3) = 0.1 */
	{ "separated 3+3", 3, 3, { 1, 2, 3 }, { 4, 5, 6 }, 9, 0.1 },
	{ "mixed 5+5",
	  5,
	  5,
	  { 1.1, 2.3, 3.5, 4.2, 5.9 },
	  { 2.0, 3.1, 6.2, 7.7, 8.4 },
	  18,
	  0.30952380952380953 },
	/*
	 * Hollander and Wolfe's depression data (R's ?wilcox.test),
	 * 10 against 5.
	 */
	{ "Hollander-Wolfe 10+5",
	  10,
	  5,
	  { 0.80, 0.83, 1.89, 1.04, 1.45, 1.38, 1.91, 1.64, 0.73, 1.46 },
	  { 1.15, 0.88, 0.90, 0.74, 1.21 },
	  15,
	  0.2544122544122544 },
	/* ties: p99s in histogram buckets; SciPy's exhaustive permutation */
	{ "p99 buckets",
	  5,
	  5,
	  { 353, 353, 359, 353, 347 },
	  { 359, 365, 359, 359, 365 },
	  23.5,
	  0.031746031746031744 },
	{ "ties 5+5",
	  5,
	  5,
	  { 1, 1, 2, 2, 3 },
	  { 2, 3, 3, 4, 4 },
	  22,
	  0.07936507936507936 },
	{ "ties 3+4",
	  3,
	  4,
	  { 5, 5, 5 },
	  { 5, 5, 6, 7 },
	  9,
	  0.42857142857142855 },
	/* zero variance on both sides, different values: separated */
	{ "flat 4+4", 4, 4, { 7, 7, 7, 7 }, { 8, 8, 8, 8 }, 16, 2.0 / 70 },
	/* the same values on both sides: nothing to see */
	{ "all equal", 3, 3, { 5, 5, 5 }, { 5, 5, 5 }, 4.5, 1 },
	/* b lower: U small, the same p as the mirror image */
	{ "b lower 4+6",
	  4,
	  6,
	  { 10, 11, 12, 13 },
	  { 1, 2, 3, 4, 5, 11.5 },
	  2,
	  0 },
};

START_TEST(test_mwu_exact)
{
	const struct mwu_case *c = &exact_cases[_i];
	double want_min, want = brute_p(c->a, c->na, c->b, c->nb, &want_min);
	struct mwu r;

	ck_assert_int_eq(mwu_test(c->a, c->na, c->b, c->nb, &r), 0);
	ck_assert_msg(r.exact, "%s: not exact", c->what);
	ck_close(r.u, c->u, 1e-12, c->what);
	ck_close(r.p, want, 1e-12, c->what);
	/* without ties, the most extreme split is the separated one */
	if (!r.ties)
		ck_close(r.p_min, want_min, 1e-12, c->what);
	ck_assert(r.p_min <= want_min + 1e-12);
	if (c->p > 0)
		ck_close(r.p, c->p, 1e-12, c->what);
}
END_TEST

/*
 * p_min is 2 / C(n, nb), ties or not: Mann-Whitney needs 4 runs a side
 * (or 3 and 5) to reach 5%.
 */
START_TEST(test_mwu_p_min)
{
	static const struct {
		size_t na, nb;
		double p_min;
	} t[] = {
		{ 3, 3, 0.1 },	    { 3, 4, 2.0 / 35 },	 { 3, 5, 2.0 / 56 },
		{ 4, 4, 2.0 / 70 }, { 5, 5, 2.0 / 252 }, { 2, 10, 2.0 / 66 }
	};
	double a[MAXN], b[MAXN];
	struct mwu r;

	for (unsigned int i = 0; i < ARRAY_SIZE(t); i++) {
		for (size_t j = 0; j < t[i].na; j++)
			a[j] = (double)j;
		for (size_t j = 0; j < t[i].nb; j++)
			b[j] = 0.5 + (double)j;
		ck_assert_int_eq(mwu_test(a, t[i].na, b, t[i].nb, &r), 0);
		ck_close(r.p_min, t[i].p_min, 1e-12, "p_min");
		/* all equal: p = 1, p_min the same */
		for (size_t j = 0; j < t[i].nb; j++)
			b[j] = 0;
		for (size_t j = 0; j < t[i].na; j++)
			a[j] = 0;
		ck_assert_int_eq(mwu_test(a, t[i].na, b, t[i].nb, &r), 0);
		ck_close(r.p_min, t[i].p_min, 1e-12, "p_min, ties");
		ck_close(r.p, 1, 1e-12, "p, ties");
	}
}
END_TEST

/*
 * 35 against 40 values (75 > MWU_EXACT_MAX): the normal approximation,
 * many ties (whole numbers). SciPy: U = 901.5, p = 0.03220471520124121.
 */
START_TEST(test_mwu_normal)
{
	static const double a[] = { 102, 104, 102, 93,	105, 102, 97,  103, 102,
				    101, 100, 103, 96,	99,  98,  103, 100, 99,
				    96,	 99,  100, 99,	106, 105, 86,  91,  99,
				    98,	 101, 101, 111, 94,  98,  110, 103 };
	static const double b[] = { 106, 100, 95,  104, 104, 97,  100, 103,
				    98,	 103, 103, 103, 100, 106, 107, 105,
				    99,	 107, 100, 107, 98,  108, 103, 97,
				    101, 103, 104, 98,	97,  104, 101, 104,
				    107, 95,  104, 109, 102, 99,  107, 104 };
	struct mwu r;

	ck_assert_int_eq(mwu_test(a, ARRAY_SIZE(a), b, ARRAY_SIZE(b), &r), 0);
	ck_assert(!r.exact);
	ck_assert(r.ties);
	ck_close(r.u, 901.5, 1e-12, "U");
	ck_close(r.p, 0.03220471520124121, 1e-9, "p");
	/* swapped sides: U becomes na nb - U, p stays */
	ck_assert_int_eq(mwu_test(b, ARRAY_SIZE(b), a, ARRAY_SIZE(a), &r), 0);
	ck_close(r.u, 35.0 * 40 - 901.5, 1e-12, "U swapped");
	ck_close(r.p, 0.03220471520124121, 1e-9, "p swapped");
}
END_TEST

START_TEST(test_mwu_empty)
{
	static const double a[] = { 1, 2, 3 };
	struct mwu r;

	ck_assert_int_eq(mwu_test(a, 3, NULL, 0, &r), -EINVAL);
	ck_assert(r.p == 1);
	ck_assert_int_eq(mwu_test(NULL, 0, a, 3, &r), -EINVAL);
}
END_TEST

/* Midranks: 10 20 20 30 20 -> 1, 3, 3, 5, 3; ties term 3^3 - 3 = 24. */
START_TEST(test_midranks)
{
	static const double v[] = { 10, 20, 20, 30, 20 };
	static const unsigned long want[] = { 2, 6, 6, 10, 6 };
	unsigned long r[5];

	ck_close(ranksum_midranks(v, 5, r), 24, 0, "ties term");
	for (unsigned int i = 0; i < 5; i++)
		EXPECT_UINT("rank2", r[i], want[i]);
}
END_TEST

/*
 * The critical values of U, two-sided 5% (largest c with P(U <= c) <=
 * 0.025), as published Mann-Whitney tables list them (e.g. Zar,
 * Biostatistical Analysis, table B.11), through the interval's width: the
 * interval is the (c + 1)-th smallest to the (c + 1)-th largest of the
 * na x nb differences. With a = 0..na-1 and b = 1000 + 0..nb-1 (no ratio:
 * a holds 0) the differences are 1000 + j - i, so the bounds give c.
 */
START_TEST(test_shift_critical)
{
	static const struct {
		size_t na, nb;
		long c; /* -1: no interval */
	} t[] = { { 3, 3, -1 },	  { 3, 5, 0 }, { 4, 4, 0 }, { 4, 5, 1 },
		  { 5, 5, 2 },	  { 6, 6, 5 }, { 7, 7, 8 }, { 8, 8, 13 },
		  { 10, 10, 23 }, { 5, 10, 8 } };

	for (unsigned int k = 0; k < ARRAY_SIZE(t); k++) {
		double a[MAXN], b[MAXN], *d;
		size_t m = t[k].na * t[k].nb, n = 0;
		struct shift s;

		for (size_t i = 0; i < t[k].na; i++)
			a[i] = (double)i;
		for (size_t j = 0; j < t[k].nb; j++)
			b[j] = 1000 + (double)j;
		/* the sorted differences, by a second route */
		d = calloc(m, sizeof(*d));
		for (size_t i = 0; i < t[k].na; i++)
			for (size_t j = 0; j < t[k].nb; j++)
				d[n++] = b[j] - a[i];
		for (size_t i = 0; i < m; i++)
			for (size_t j = i + 1; j < m; j++)
				if (d[j] < d[i]) {
					double x = d[i];

					d[i] = d[j];
					d[j] = x;
				}
		ck_assert_int_eq(
			shift_estimate(a, t[k].na, b, t[k].nb, 0.95, &s), 0);
		ck_assert(!s.ratio);
		if (t[k].c < 0) {
			ck_assert_msg(!s.bounded, "%zu+%zu: bounded", t[k].na,
				      t[k].nb);
		} else {
			double med = (double)(t[k].na - 1) / 2;

			ck_assert_msg(s.bounded, "%zu+%zu: unbounded", t[k].na,
				      t[k].nb);
			ck_close(s.lo * med, d[t[k].c], 1e-12, "lo");
			ck_close(s.hi * med, d[m - 1 - (size_t)t[k].c], 1e-12,
				 "hi");
		}
		free(d);
	}
}
END_TEST

/*
 * Ratios: the median of b_j / a_i, less 1, and the interval from the
 * same order statistics. Constants from the Python of the header (the
 * sorted log ratios, c from the table above).
 */
START_TEST(test_shift_ratio)
{
	static const double a5[] = { 100, 101, 99, 102, 98 };
	static const double b5[] = { 150, 151, 149, 152, 148 };
	static const double x[] = { 1.1, 2.3, 3.5, 4.2, 5.9 };
	static const double y[] = { 2.0, 3.1, 6.2, 7.7, 8.4 };
	static const double hx[] = { 0.80, 0.83, 1.89, 1.04, 1.45,
				     1.38, 1.91, 1.64, 0.73, 1.46 };
	static const double hy[] = { 1.15, 0.88, 0.90, 0.74, 1.21 };
	struct shift s;

	ck_assert_int_eq(shift_estimate(a5, 5, b5, 5, 0.95, &s), 0);
	ck_assert(s.ratio && s.bounded);
	ck_close(s.est, 0.5, 1e-12, "est");
	ck_close(s.lo, 0.4653465346534645, 1e-12, "lo");
	ck_close(s.hi, 0.5353535353535357, 1e-12, "hi");
	ck_assert_int_eq(shift_estimate(x, 5, y, 5, 0.95, &s), 0);
	ck_close(s.est, 0.7714285714285716, 1e-12, "est");
	ck_close(s.lo, -0.4745762711864407, 1e-12, "lo");
	ck_close(s.hi, 4.636363636363637, 1e-12, "hi");
	ck_assert_int_eq(shift_estimate(hx, 10, hy, 5, 0.95, &s), 0);
	ck_close(s.est, -0.23766957432151814, 1e-12, "est");
	ck_close(s.lo, -0.48965517241379314, 1e-12, "lo");
	ck_close(s.hi, 0.1634615384615384, 1e-12, "hi");
	/* 3 a side: an estimate, no interval at 95% */
	ck_assert_int_eq(shift_estimate(a5, 3, b5, 3, 0.95, &s), 0);
	ck_assert(!s.bounded);
	ck_close(s.est, 0.5, 1e-12, "est 3+3");
	/* but one at 90%: P(U <= 0) = 0.05 <= 0.05 */
	ck_assert_int_eq(shift_estimate(a5, 3, b5, 3, 0.90, &s), 0);
	ck_assert(s.bounded);
	ck_close(s.lo, 149.0 / 101 - 1, 1e-12, "lo 90%");
	ck_close(s.hi, 151.0 / 99 - 1, 1e-12, "hi 90%");
}
END_TEST

/* A median of 0 in a: no relative change. */
START_TEST(test_shift_zero)
{
	static const double a[] = { 0, 0, 0, 0 }, b[] = { 1, 2, 3, 4 };
	struct shift s;

	ck_assert_int_eq(shift_estimate(a, 4, b, 4, 0.95, &s), 0);
	ck_assert(!s.ratio);
	ck_assert(isnan(s.est));
	ck_assert(!s.bounded);
	ck_assert_int_eq(shift_estimate(a, 0, b, 4, 0.95, &s), -EINVAL);
}
END_TEST

static Suite *ranks_suite(void)
{
	Suite *s = suite_create("ranks");
	TCase *tc = tcase_create("mannwhitney");

	tcase_add_loop_test(tc, test_mwu_exact, 0,
			    (int)ARRAY_SIZE(exact_cases));
	tcase_add_test(tc, test_mwu_p_min);
	tcase_add_test(tc, test_mwu_normal);
	tcase_add_test(tc, test_mwu_empty);
	tcase_add_test(tc, test_midranks);
	suite_add_tcase(s, tc);
	tc = tcase_create("shift");
	tcase_add_test(tc, test_shift_critical);
	tcase_add_test(tc, test_shift_ratio);
	tcase_add_test(tc, test_shift_zero);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return unit_main(ranks_suite());
}
