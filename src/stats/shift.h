/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_STATS_SHIFT_H
#define VB_STATS_SHIFT_H

#include <stdbool.h>
#include <stddef.h>

/*
 * struct shift: how much b moved against a, with a distribution-free
 * confidence interval, the estimate that goes with the Mann-Whitney U
 * test (Hodges and Lehmann 1963; the interval of Moses, in Hollander and
 * Wolfe, "Nonparametric Statistical Methods", section 4.3).
 *
 * Benchmark changes are ratios ("12% faster"), so the shift is taken on
 * the logarithms when every value is positive: the estimate is the
 * median of the na x nb ratios b_j / a_i, and the interval runs from the
 * (c + 1)-th smallest ratio to the (c + 1)-th largest, c the largest
 * count with P(U <= c) <= (1 - level) / 2 under the null hypothesis (the
 * exact distribution of U without ties up to MWU_EXACT_MAX values, the
 * normal approximation beyond). Ranks do not change under a logarithm, so
 * the interval is that of the shift of log values, and it leaves out 1
 * about when the U test is significant at the same level. Where a value
 * is 0 or negative, the differences b_j - a_i are used instead, divided
 * by a's median.
 *
 * With ties (and so with p99 latencies in the same histogram bucket) the
 * interval's level is approximate; with few runs there may be no interval
 * at the level asked: with 3 runs a side, P(U <= 0) = 0.05 > 0.025.
 */
struct shift {
	double est; /* relative change: 0.12 for +12%; NaN if a's median is 0 */
	double lo, hi; /* the interval, same unit; valid when bounded */
	bool bounded; /* false: these sample sizes give no interval */
	bool ratio; /* computed on ratios (every value positive) */
};

/*
 * The relative change of @b (nb values) against @a (na values) and its
 * interval at @level (0.95). Returns 0, or -EINVAL when a side is empty.
 */
int shift_estimate(const double *a, size_t na, const double *b, size_t nb,
		   double level, struct shift *s);

#endif /* VB_STATS_SHIFT_H */
