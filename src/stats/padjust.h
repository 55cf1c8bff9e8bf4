/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_STATS_PADJUST_H
#define VB_STATS_PADJUST_H

#include <stddef.h>

/*
 * Adjusted p-values for a table of tests, as R's p.adjust(): a test is
 * significant at level alpha when its adjusted p is below alpha.
 *
 * PADJUST_BH (Benjamini and Hochberg 1995) controls the false discovery
 * rate: of the rows marked, at most a share alpha is expected to be
 * false alarms. p_(i) (ascending) becomes min over j >= i of
 * n p_(j) / j, capped at 1 (the step-up rule).
 *
 * PADJUST_HOLM (Holm 1979) controls the family-wise error: the chance
 * that any row at all is a false alarm stays below alpha. p_(i) becomes
 * max over j <= i of (n - j + 1) p_(j), capped at 1 (the step-down
 * rule), which is uniformly more powerful than Bonferroni's n p.
 *
 * PADJUST_NONE copies the p-values: every row is a test of its own.
 */
enum padjust_method {
	PADJUST_BH,
	PADJUST_HOLM,
	PADJUST_NONE,
};

/* Adjust the @n p-values @p into @adj (which may be @p itself). */
void padjust(const double *p, size_t n, enum padjust_method method,
	     double *adj);

#endif /* VB_STATS_PADJUST_H */
