/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Benjamini-Hochberg and Holm adjusted p-values.
 */
#include <config.h>
#include "stats/padjust.h"

#include <gsl/gsl_sort.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"

void padjust(const double *p, size_t n, enum padjust_method method, double *adj)
{
	size_t *order;
	double *out, run;

	if (!n)
		return;
	if (method == PADJUST_NONE) {
		memmove(adj, p, n * sizeof(*adj));
		return;
	}
	order = xcalloc(n, sizeof(*order));
	out = xcalloc(n, sizeof(*out));
	gsl_sort_index(order, p, 1, n); /* p[order[0]] is the smallest */
	if (method == PADJUST_BH) {
		run = 1;
		for (size_t i = n; i-- > 0;) {
			double v = (double)n / (double)(i + 1) * p[order[i]];

			run = fmin(run, v);
			out[order[i]] = run;
		}
	} else {
		run = 0;
		for (size_t i = 0; i < n; i++) {
			double v = fmin(1, (double)(n - i) * p[order[i]]);

			run = fmax(run, v);
			out[order[i]] = run;
		}
	}
	memcpy(adj, out, n * sizeof(*adj));
	free(out);
	free(order);
}
