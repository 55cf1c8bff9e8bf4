/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Fisher's exact test of a 2 x 2 table.
 */
#include <config.h>
#include "stats/fisher.h"

#include <gsl/gsl_randist.h>
#include <math.h>

double fisher_exact(unsigned int ka, unsigned int na, unsigned int kb,
		    unsigned int nb)
{
	unsigned int k = ka + kb, lo, hi;
	double p0, p = 0;

	if (!k || k == na + nb)
		return 1;
	/* ka of the k flagged runs fell on a (na of na + nb runs) */
	lo = k > nb ? k - nb : 0;
	hi = k < na ? k : na;
	p0 = gsl_ran_hypergeometric_pdf(ka, na, nb, k);
	for (unsigned int x = lo; x <= hi; x++) {
		double px = gsl_ran_hypergeometric_pdf(x, na, nb, k);

		/* no more likely than the observed table, allowing rounding */
		if (px <= p0 * (1 + 1e-7))
			p += px;
	}
	return fmin(1, p);
}
