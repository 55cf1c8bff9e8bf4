/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_STATS_WELCH_H
#define VB_STATS_WELCH_H

#include <stdbool.h>

struct summary;

/*
 * struct welch: Welch's two-sample t-test (unequal variances), two-sided,
 * and the confidence interval of the difference of the means. Chosen
 * over Student's t (benchmark runs on two kernels need not share a
 * variance); vfsbench compare --test welch. The rank test (mannwhitney.h)
 * is the default: a t-test on skewed data (p99 latencies, one slow run)
 * misses changes a rank test finds. The t distribution comes from GSL.
 */
struct welch {
	double t; /* (mean b - mean a) / standard error */
	double df; /* Welch-Satterthwaite degrees of freedom */
	double p; /* two-sided p-value */
	bool significant; /* p < 1 - confidence */
	/* mean b - mean a +/- the t quantile x standard error */
	double lo, hi;
};

/*
 * Test whether @b's mean differs from @a's at @confidence (0.95 for 95%).
 * Needs n >= 2 on both sides: returns -EINVAL otherwise, 0 on success.
 * Two samples without spread are significant exactly when their means
 * differ.
 */
int welch_test(const struct summary *a, const struct summary *b,
	       double confidence, struct welch *w);

#endif /* VB_STATS_WELCH_H */
