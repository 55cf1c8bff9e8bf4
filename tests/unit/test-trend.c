/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests for trend.c (the seasonal Mann-Kendall test over run order)
 * and padjust.c (Benjamini-Hochberg and Holm). The trend's exact p-values
 * are checked against a brute-force enumeration of every ordering of
 * each stratum, and against SciPy 1.10.1's scipy.stats.kendalltau(range(n),
 * v, method="exact") for one stratum; the normal approximation's variance
 * with ties against kendalltau(..., method="asymptotic") (which has no
 * continuity correction: p = 0.18963769009740916 for the data below).
 * The adjusted p-values are worked out by hand from the definitions, and
 * the step-up and step-down rules are checked by brute force. Fisher's
 * exact test against SciPy 1.10.1's scipy.stats.fisher_exact(). Output
 * is TAP on stdout.
 */
#include <config.h>
#include "stats/fisher.h"
#include "stats/padjust.h"
#include "stats/trend.h"

#include <check.h>
#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/compiler.h"
#include "unit.h"

#define MAXN 12

static long kendall_s(const double *x, size_t n)
{
	long s = 0;

	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++)
			s += (x[j] > x[i]) - (x[j] < x[i]);
	return s;
}

/* Next permutation of idx[0..n) in lexicographic order; 0 at the end. */
static int next_perm(unsigned int *idx, size_t n)
{
	size_t i = n - 1, j = n - 1;
	unsigned int t;

	while (i > 0 && idx[i - 1] >= idx[i])
		i--;
	if (i == 0)
		return 0;
	while (idx[j] <= idx[i - 1])
		j--;
	t = idx[i - 1];
	idx[i - 1] = idx[j];
	idx[j] = t;
	for (size_t a = i, b = n - 1; a < b; a++, b--) {
		t = idx[a];
		idx[a] = idx[b];
		idx[b] = t;
	}
	return 1;
}

/*
 * Brute force over two strata: every ordering of each, S summed, the
 * share with |S| >= |s|.
 */
static double brute_two(const double *x, size_t nx, const double *y, size_t ny)
{
	unsigned int ix[MAXN], iy[MAXN];
	long s = kendall_s(x, nx) + kendall_s(y, ny);
	double hits = 0, total = 0, px[MAXN], py[MAXN];

	for (unsigned int i = 0; i < nx; i++)
		ix[i] = i;
	do {
		for (size_t i = 0; i < nx; i++)
			px[i] = x[ix[i]];
		for (unsigned int i = 0; i < ny; i++)
			iy[i] = i;
		do {
			for (size_t i = 0; i < ny; i++)
				py[i] = y[iy[i]];
			total++;
			hits += labs(kendall_s(px, nx) + kendall_s(py, ny)) >=
				labs(s);
		} while (next_perm(iy, ny));
	} while (next_perm(ix, nx));
	return hits / total;
}

/* One stratum, against SciPy's exact Kendall test. */
START_TEST(test_trend_one)
{
	static const struct {
		size_t n;
		double v[8];
		long s;
		double p;
	} t[] = {
		{ 5, { 1, 2, 3, 4, 5 }, 10, 0.016666666666666666 },
		{ 6, { 3, 1, 4, 5, 2, 6 }, 7, 0.2722222222222222 },
		{ 7, { 10, 12, 11, 15, 14, 16, 18 }, 17, 0.010714285714285714 },
	};
	unsigned int g[8] = { 0 };
	struct trend tr;

	for (unsigned int i = 0; i < ARRAY_SIZE(t); i++) {
		ck_assert_int_eq(trend_test(t[i].v, g, t[i].n, &tr), 0);
		ck_assert(tr.exact);
		EXPECT_INT("S", tr.s, t[i].s);
		ck_close(tr.p, t[i].p, 1e-12, "p");
	}
}
END_TEST

/*
 * Two strata (two client counts) interleaved in run order, as a sweep
 * writes them: 1 2 1 2 ... The strata's values differ by design (ops/s
 * at 1 and 2 clients); only the order within each counts.
 */
START_TEST(test_trend_strata)
{
	/* run order: c1 c2 c1 c2 ...; c1 rising, c2 mostly rising */
	static const double v[] = {
		100, 190, 101, 185, 103, 192, 104, 195, 106
	};
	static const unsigned int g[] = { 1, 2, 1, 2, 1, 2, 1, 2, 1 };
	static const double x[] = { 100, 101, 103, 104, 106 };
	static const double y[] = { 190, 185, 192, 195 };
	static const double flat[] = { 5, 3, 4, 6, 2, 9, 1, 8, 7 };
	struct trend tr;

	ck_assert_int_eq(trend_test(v, g, 9, &tr), 0);
	ck_assert(tr.exact);
	EXPECT_INT("S", tr.s, 10 + 4);
	ck_close(tr.p, brute_two(x, 5, y, 4), 1e-12, "p");
	/*
	 * The span: the 16 within-stratum slopes per run, each over its
	 * stratum's median (103 and 191), have the median 1.5 / 103 (four of
	 * c1's slopes are 1.5: 103-100 over 2, 106-100 over 4, ...); the
	 * largest stratum has 5 runs, 4 steps: 6 / 103.
	 */
	ck_close(tr.span, 6.0 / 103, 1e-12, "span");
	/* no trend at all: p = 1 when S = 0 */
	ck_assert_int_eq(trend_test(flat, g, 9, &tr), 0);
	ck_close(tr.p,
		 brute_two((const double[]){ 5, 4, 2, 1, 7 }, 5,
			   (const double[]){ 3, 6, 9, 8 }, 4),
		 1e-12, "p flat");
	/* one run per stratum: no pair, p = 1 */
	ck_assert_int_eq(
		trend_test(v, (const unsigned int[]){ 1, 2, 3 }, 3, &tr), 0);
	ck_close(tr.p, 1, 0, "no pairs");
	ck_close(tr.span, 0, 0, "no pairs, no span");
}
END_TEST

/*
 * Ties: the normal approximation. n = 20, S = 40, tie-corrected variance
 * (20 x 19 x 45 - sum t(t-1)(2t+5)) / 18 = 930 (SciPy's asymptotic
 * Kendall test, p = 2 Q(40 / sqrt(930)), confirms it); with the
 * continuity correction p = 2 Q(39 / sqrt(930)).
 */
START_TEST(test_trend_ties)
{
	static const double v[] = { 3, 1, 4, 1, 5, 9, 2, 6, 5, 3,
				    5, 8, 9, 7, 9, 3, 2, 3, 8, 4 };
	unsigned int g[20] = { 0 };
	struct trend tr;

	ck_assert_int_eq(trend_test(v, g, 20, &tr), 0);
	ck_assert(!tr.exact);
	EXPECT_INT("S", tr.s, 40);
	ck_close(tr.var, 930, 1e-12, "var");
	ck_close(2 * gsl_cdf_ugaussian_Q(40 / sqrt(tr.var)),
		 0.18963769009740916, 1e-12, "SciPy's p");
	ck_close(tr.p, 0.2009462268643072, 1e-12, "p");
}
END_TEST

/*
 * p.adjust by hand: p = 0.01 0.02 0.03 0.04 0.05, n = 5.
 * BH: n p_(i) / i = 0.05 for every i, so every adjusted p is 0.05.
 * Holm: (n - i + 1) p_(i) = 0.05 0.08 0.09 0.08 0.05, running max
 * 0.05 0.08 0.09 0.09 0.09. Given in another order, the same values
 * return in that order.
 */
START_TEST(test_padjust_hand)
{
	static const double p[] = { 0.03, 0.01, 0.05, 0.02, 0.04 };
	static const double bh[] = { 0.05, 0.05, 0.05, 0.05, 0.05 };
	static const double holm[] = { 0.09, 0.05, 0.09, 0.08, 0.09 };
	/* BH, uneven: 0.001 0.03 0.04 0.5 (n = 4): 0.004, min(0.06, 0.0533,
	 * 0.5) = 0.0533.., 0.0533.., 0.5 */
	static const double q[] = { 0.5, 0.04, 0.001, 0.03 };
	static const double qbh[] = { 0.5, 0.16 / 3, 0.004, 0.16 / 3 };
	/* Holm: 0.004, max(0.004, 0.09) = 0.09, max(0.09, 0.08) = 0.09, 0.5 */
	static const double qholm[] = { 0.5, 0.09, 0.004, 0.09 };
	double adj[5];

	padjust(p, 5, PADJUST_BH, adj);
	for (unsigned int i = 0; i < 5; i++)
		ck_close(adj[i], bh[i], 1e-12, "BH");
	padjust(p, 5, PADJUST_HOLM, adj);
	for (unsigned int i = 0; i < 5; i++)
		ck_close(adj[i], holm[i], 1e-12, "Holm");
	padjust(p, 5, PADJUST_NONE, adj);
	for (unsigned int i = 0; i < 5; i++)
		ck_close(adj[i], p[i], 0, "none");
	padjust(q, 4, PADJUST_BH, adj);
	for (unsigned int i = 0; i < 4; i++)
		ck_close(adj[i], qbh[i], 1e-12, "BH uneven");
	padjust(q, 4, PADJUST_HOLM, adj);
	for (unsigned int i = 0; i < 4; i++)
		ck_close(adj[i], qholm[i], 1e-12, "Holm uneven");
	/* a capped product: 3 x 0.5 = 1.5 becomes 1 */
	padjust((const double[]){ 0.5, 0.6, 0.7 }, 3, PADJUST_HOLM, adj);
	ck_close(adj[0], 1, 0, "Holm cap");
}
END_TEST

/*
 * The rules themselves, by brute force over pseudo-random p-values: BH
 * marks exactly the k smallest, k the largest i with p_(i) <= i alpha /
 * n; Holm marks the smallest ones up to the first p_(i) > alpha / (n - i
 * + 1).
 */
START_TEST(test_padjust_rules)
{
	static const double alphas[] = { 0.01, 0.05, 0.1, 0.2 };
	unsigned long seed = 12345;

	for (unsigned int round = 0; round < 200; round++) {
		size_t n = 1 + round % 11;
		double p[16], sorted[16], bh[16], holm[16];

		for (size_t i = 0; i < n; i++) {
			seed = seed * 6364136223846793005ul +
			       1442695040888963407ul;
			p[i] = (double)(seed >> 11) / 9007199254740992.0 *
			       (round % 3 ? 0.2 : 1);
			sorted[i] = p[i];
		}
		for (size_t i = 0; i < n; i++)
			for (size_t j = i + 1; j < n; j++)
				if (sorted[j] < sorted[i]) {
					double t = sorted[i];

					sorted[i] = sorted[j];
					sorted[j] = t;
				}
		padjust(p, n, PADJUST_BH, bh);
		padjust(p, n, PADJUST_HOLM, holm);
		for (unsigned int a = 0; a < ARRAY_SIZE(alphas); a++) {
			double al = alphas[a], bh_cut = -1, holm_cut = -1;

			for (size_t i = 0; i < n; i++)
				if (sorted[i] <=
				    (double)(i + 1) * al / (double)n)
					bh_cut = sorted[i];
			for (size_t i = 0; i < n; i++) {
				if (sorted[i] > al / (double)(n - i))
					break;
				holm_cut = sorted[i];
			}
			for (size_t i = 0; i < n; i++) {
				ck_assert_msg(
					(bh[i] <= al) == (p[i] <= bh_cut),
					"BH round %u alpha %g p %g adj %g",
					round, al, p[i], bh[i]);
				ck_assert_msg(
					(holm[i] <= al) == (p[i] <= holm_cut),
					"Holm round %u alpha %g p %g adj %g",
					round, al, p[i], holm[i]);
			}
		}
	}
}
END_TEST

/* [[ka, na - ka], [kb, nb - kb]] and SciPy's two-sided p */
START_TEST(test_fisher)
{
	static const struct {
		unsigned int ka, na, kb, nb;
		double p;
	} t[] = {
		{ 5, 5, 0, 5, 0.007936507936507938 },
		{ 4, 5, 0, 5, 0.04761904761904762 },
		{ 3, 5, 0, 5, 0.16666666666666666 },
		{ 1, 5, 3, 5, 0.5238095238095238 },
		{ 2, 10, 7, 10, 0.06977851869492736 },
		{ 0, 10, 0, 10, 1 },
		{ 10, 10, 10, 10, 1 },
	};

	for (unsigned int i = 0; i < ARRAY_SIZE(t); i++) {
		ck_close(fisher_exact(t[i].ka, t[i].na, t[i].kb, t[i].nb),
			 t[i].p, 1e-12, "fisher");
		/* the sides swapped: the same p */
		ck_close(fisher_exact(t[i].kb, t[i].nb, t[i].ka, t[i].na),
			 t[i].p, 1e-12, "fisher swapped");
	}
}
END_TEST

static Suite *trend_suite(void)
{
	Suite *s = suite_create("trend");
	TCase *tc = tcase_create("trend");

	tcase_add_test(tc, test_trend_one);
	tcase_add_test(tc, test_trend_strata);
	tcase_add_test(tc, test_trend_ties);
	suite_add_tcase(s, tc);
	tc = tcase_create("padjust");
	tcase_add_test(tc, test_padjust_hand);
	tcase_add_test(tc, test_padjust_rules);
	tcase_add_test(tc, test_fisher);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return unit_main(trend_suite());
}
