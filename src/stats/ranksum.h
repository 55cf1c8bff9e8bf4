/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_STATS_RANKSUM_H
#define VB_STATS_RANKSUM_H

#include <stddef.h>

/*
 * struct ranksum: the exact permutation distribution of a rank sum, the
 * null distribution of the Mann-Whitney U test. N values are ranked
 * together (ties get their midrank); under the null hypothesis every
 * choice of k of them as "sample b" is equally likely, and count[s] is the
 * number of choices whose ranks add up to s / 2 (ranks are kept doubled,
 * so midranks stay integers). With ranks 1..N (no ties) this is the
 * distribution of Wilcoxon's W, and W - k(k + 1)/2 is Mann-Whitney's U.
 *
 * Worked out by dynamic programming over the values, one subset size at a
 * time: O(N x k x max sum) operations, about 10^7 at N = 60. Counts are
 * doubles: C(100, 50) is about 10^29.
 */
struct ranksum {
	size_t k; /* the size of sample b */
	size_t nsums; /* sums run from 0 to nsums - 1 (doubled) */
	double *count; /* [nsums] */
	double total; /* C(N, k) */
};

/*
 * The distribution of the sum of @k of the @n doubled ranks @rank2
 * (each 2 x rank, positive integers). Returns 0, or -EINVAL when k > n.
 */
int ranksum_init(struct ranksum *d, const unsigned long *rank2, size_t n,
		 size_t k);

/* P(|S - @centre2| >= @dist2), sums and distances doubled. */
double ranksum_tail(const struct ranksum *d, long centre2, long dist2);

/* P(S <= @s2), @s2 doubled. */
double ranksum_cdf(const struct ranksum *d, long s2);

void ranksum_release(struct ranksum *d);

/*
 * Doubled midranks of @v (n values, not modified) into @rank2: the
 * smallest value has rank 1; a run of t equal values shares the mean of
 * their ranks. Returns sum(t^3 - t) over the runs of ties, the term of
 * the tie correction of the normal approximation (0: no ties).
 */
double ranksum_midranks(const double *v, size_t n, unsigned long *rank2);

#endif /* VB_STATS_RANKSUM_H */
