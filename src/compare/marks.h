/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_COMPARE_MARKS_H
#define VB_COMPARE_MARKS_H

#include "compare/comparison.h"

/*
 * The smallest |change| that may be marked: --threshold, and for p99 the
 * largest change two histogram percentiles of equal true values can
 * show, (1 + e) / (1 - e) - 1 = 2/63 for e = 1/64 (stats/hist.h).
 */
double comparison_resolution(const struct comparison *cmp);

/*
 * The marks of @n comparisons prepared (comparison_prepare()): the
 * correction over every tested cell of all of them (ntests counts them
 * all), then '*' where the adjusted p is below the level and the change
 * not below the resolution, '?' where starved, idle or incomplete runs,
 * drift between sides that did not run interleaved, or one boot a side
 * on different boots make it suspect (unless the change is beyond what
 * the flagged runs and the drift could account for), else '~'.
 */
void comparison_mark(struct comparison *cmps, unsigned int n);

#endif /* VB_COMPARE_MARKS_H */
