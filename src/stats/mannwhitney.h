/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_STATS_MANNWHITNEY_H
#define VB_STATS_MANNWHITNEY_H

#include <stdbool.h>
#include <stddef.h>

/*
 * struct mwu: the Mann-Whitney U test (Wilcoxon rank-sum test) of two
 * independent samples, two-sided: are b's values larger or smaller than
 * a's more often than chance allows? It assumes no distribution, so a
 * skewed tail or one outlier run does not decide it (benchstat uses it
 * for the same reason).
 *
 * Up to MWU_EXACT_MAX values in all, the p-value is exact: the
 * permutation distribution of the rank sum (struct ranksum), conditional
 * on the ties, so tied values (p99 latencies that fall in the same
 * histogram bucket) are handled exactly too. Two-sided p is the
 * probability of a rank sum at least as far from its mean as the one
 * observed. Beyond, the normal approximation with the tie correction of
 * the variance and a continuity correction of 1/2 (R's wilcox.test with
 * correct = TRUE).
 */
#define MWU_EXACT_MAX 60

struct mwu {
	size_t na, nb;
	double u; /* pairs with b_j > a_i, plus half the pairs with b_j == a_i
		   */
	double p; /* two-sided p-value */
	/*
	 * The smallest two-sided p-value any data with these sample sizes
	 * could give, 2 / C(na + nb, na) (two samples that do not overlap):
	 * with fewer runs the test cannot be significant at a level below
	 * it, whatever the data. Ties only make p larger.
	 */
	double p_min;
	bool exact; /* p from the exact distribution, else normal */
	bool ties; /* some values are equal */
};

/*
 * Test @b (nb values) against @a (na values); neither is modified.
 * Returns 0, or -EINVAL when a side is empty (@r zeroed, p = 1).
 */
int mwu_test(const double *a, size_t na, const double *b, size_t nb,
	     struct mwu *r);

#endif /* VB_STATS_MANNWHITNEY_H */
