/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Summary statistics of repeated runs.
 */
#include <config.h>
#include "stats/summary.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

struct summary *summary_of(struct summary *s, const double *v, size_t n)
{
	double m2 = 0, *sorted;

	memset(s, 0, sizeof(*s));
	s->n = n;
	if (!n)
		return s;
	s->min = s->max = v[0];
	for (size_t i = 0; i < n; i++) {
		double d = v[i] - s->mean;

		s->mean += d / (double)(i + 1);
		m2 += d * (v[i] - s->mean);
		if (v[i] < s->min)
			s->min = v[i];
		if (v[i] > s->max)
			s->max = v[i];
	}
	if (n > 1)
		s->stddev = sqrt(m2 / (double)(n - 1));
	if (s->mean != 0)
		s->cv = s->stddev / fabs(s->mean);
	sorted = xmalloc(n * sizeof(*sorted));
	memcpy(sorted, v, n * sizeof(*sorted));
	qsort(sorted, n, sizeof(*sorted), cmp_double);
	s->median =
		n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
	free(sorted);
	return s;
}
