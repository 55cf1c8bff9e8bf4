/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_STATS_SUMMARY_H
#define VB_STATS_SUMMARY_H

#include <stddef.h>

/*
 * struct summary: what a set of repeated measurements (one per run) says:
 * count, mean, median, sample standard deviation (n - 1), coefficient of
 * variation, min and max. The mean and variance use Welford's update, so
 * large close values (ops/s in the millions) keep their precision.
 */
struct summary {
	size_t n;
	double mean;
	double median;
	double stddev; /* 0 when n < 2 */
	double cv; /* stddev / |mean|; 0 when the mean is 0 */
	double min;
	double max;
};

/*
 * Summarise @n values (not modified). n == 0 gives all zeros. Returns
 * @s.
 */
struct summary *summary_of(struct summary *s, const double *v, size_t n);

#endif /* VB_STATS_SUMMARY_H */
