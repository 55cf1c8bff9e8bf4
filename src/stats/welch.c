/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Welch's t-test for vfsbench compare.
 */
#include <config.h>
#include "stats/welch.h"

#include <errno.h>
#include <gsl/gsl_cdf.h>
#include <math.h>
#include <string.h>

#include "stats/summary.h"

int welch_test(const struct summary *a, const struct summary *b,
	       double confidence, struct welch *w)
{
	double va, vb, se2;

	memset(w, 0, sizeof(*w));
	if (a->n < 2 || b->n < 2)
		return -EINVAL;
	va = a->stddev * a->stddev / (double)a->n;
	vb = b->stddev * b->stddev / (double)b->n;
	se2 = va + vb;
	w->lo = w->hi = b->mean - a->mean;
	if (se2 == 0) {
		w->p = a->mean == b->mean ? 1 : 0;
		w->t = a->mean == b->mean ? 0 : INFINITY;
		w->df = (double)(a->n + b->n - 2);
	} else {
		double half;

		w->t = (b->mean - a->mean) / sqrt(se2);
		w->df = se2 * se2 /
			(va * va / (double)(a->n - 1) +
			 vb * vb / (double)(b->n - 1));
		w->p = 2 * gsl_cdf_tdist_Q(fabs(w->t), w->df);
		half = gsl_cdf_tdist_Qinv((1 - confidence) / 2, w->df) *
		       sqrt(se2);
		w->lo -= half;
		w->hi += half;
	}
	w->significant = w->p < 1 - confidence;
	return 0;
}
