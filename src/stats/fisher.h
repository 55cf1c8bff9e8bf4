/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_STATS_FISHER_H
#define VB_STATS_FISHER_H

/*
 * Fisher's exact test of a 2 x 2 table, two-sided: were flagged runs
 * (starved, or with idle clients) more common on one side than chance
 * allows? Side a has @ka flagged of @na runs, side b @kb of @nb. Under the
 * null hypothesis the flagged runs are spread over the two sides at
 * random (hypergeometric, GSL's); p is the probability of every table
 * with the same margins that is no more likely than the one observed (R's
 * fisher.test, SciPy's fisher_exact). 1 when nothing or everything is
 * flagged.
 */
double fisher_exact(unsigned int ka, unsigned int na, unsigned int kb,
		    unsigned int nb);

#endif /* VB_STATS_FISHER_H */
