/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_STATS_TREND_H
#define VB_STATS_TREND_H

#include <stdbool.h>
#include <stddef.h>

/*
 * struct trend: do a file's runs drift over their order? The seasonal
 * Mann-Kendall test (Hirsch, Slack and Smith 1982): the runs are split
 * into strata (the client counts, whose levels differ by design), and
 * within each stratum Kendall's S counts, over every pair of runs in run
 * order, +1 when the later run's value is larger and -1 when it is
 * smaller. S adds up over the strata; under the null hypothesis (the runs
 * of each stratum in random order) it is centred on 0.
 *
 * Two-sided p: P(|S| >= |s|). Exact (each stratum's S follows the
 * distribution of inversions of a random permutation, convolved over
 * the strata) when no stratum has ties and the strata hold at most
 * TREND_EXACT_MAX runs in all; otherwise the normal approximation with
 * the tie-corrected variance n(n - 1)(2n + 5) / 18 less the ties' terms,
 * per stratum, and a continuity correction of 1.
 */
#define TREND_EXACT_MAX 200

struct trend {
	long s; /* Kendall's S over all strata */
	double var; /* its variance under the null hypothesis */
	double p; /* two-sided p-value; 1 without a pair to compare */
	bool exact;
	/*
	 * How far the trend moves a stratum's runs, first to last, relative
	 * to the stratum's median: the seasonal Kendall slope (the median of
	 * the within-stratum slopes per run, each over its stratum's median)
	 * times the runs of the largest stratum less one. 0 without a pair.
	 * The factor 1 + span bounds what the drift could do to a centre.
	 */
	double span;
};

/*
 * @v: @n values in run order, @stratum[i] the stratum of v[i]. Strata
 * need not be contiguous or sorted. Returns 0.
 */
int trend_test(const double *v, const unsigned int *stratum, size_t n,
	       struct trend *t);

#endif /* VB_STATS_TREND_H */
