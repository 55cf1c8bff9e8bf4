/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The Hodges-Lehmann estimate of a relative change and its
 * distribution-free interval.
 */
#include <config.h>
#include "stats/shift.h"

#include <errno.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "stats/mannwhitney.h"
#include "stats/ranksum.h"

/*
 * c: the largest count with P(U <= c) <= alpha / 2, or -1 when even
 * P(U <= 0) is larger (no interval at this level).
 */
static long critical_u(size_t na, size_t nb, double alpha)
{
	size_t n = na + nb;
	double m = (double)na * (double)nb;
	long c = -1;

	if (n <= MWU_EXACT_MAX) {
		unsigned long *rank2 = xcalloc(n, sizeof(*rank2));
		long base2 =
			(long)(nb * (nb + 1)); /* W = U + nb (nb + 1) / 2 */
		struct ranksum d;

		for (size_t i = 0; i < n; i++)
			rank2[i] = 2 * (i + 1);
		ranksum_init(&d, rank2, n, nb);
		/* the counts are exact: allow for 1 - 0.9 != 0.1 */
		while ((double)c + 1 <= m &&
		       ranksum_cdf(&d, base2 + 2 * (c + 1)) <=
			       alpha / 2 * (1 + 1e-9))
			c++;
		ranksum_release(&d);
		free(rank2);
		return c;
	}
	/* normal, with the continuity correction: P(U <= c) ~ Phi(...) */
	c = (long)floor(m / 2 - 0.5 -
			gsl_cdf_ugaussian_Qinv(alpha / 2) *
				sqrt(m * (double)(n + 1) / 12));
	return c < -1 ? -1 : c;
}

static int all_positive(const double *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!(v[i] > 0))
			return 0;
	return 1;
}

int shift_estimate(const double *a, size_t na, const double *b, size_t nb,
		   double level, struct shift *s)
{
	size_t m = na * nb, k = 0;
	double *d, *sa, med;
	long c;

	memset(s, 0, sizeof(*s));
	s->est = s->lo = s->hi = NAN;
	if (!na || !nb)
		return -EINVAL;
	s->ratio = all_positive(a, na) && all_positive(b, nb);
	sa = xcalloc(na, sizeof(*sa));
	memcpy(sa, a, na * sizeof(*sa));
	gsl_sort(sa, 1, na);
	med = gsl_stats_median_from_sorted_data(sa, 1, na);
	free(sa);
	d = xcalloc(m, sizeof(*d));
	for (size_t i = 0; i < na; i++)
		for (size_t j = 0; j < nb; j++)
			d[k++] = s->ratio ? log(b[j]) - log(a[i]) : b[j] - a[i];
	gsl_sort(d, 1, m);
	c = critical_u(na, nb, 1 - level);
	if (s->ratio) {
		s->est = expm1(gsl_stats_median_from_sorted_data(d, 1, m));
		if (c >= 0) {
			s->lo = expm1(d[c]);
			s->hi = expm1(d[m - 1 - (size_t)c]);
		}
	} else if (med != 0) {
		s->est = gsl_stats_median_from_sorted_data(d, 1, m) / fabs(med);
		if (c >= 0) {
			s->lo = d[c] / fabs(med);
			s->hi = d[m - 1 - (size_t)c] / fabs(med);
		}
	}
	s->bounded = c >= 0 && !isnan(s->est);
	free(d);
	return 0;
}
