/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The Mann-Whitney U test, exact with ties up to MWU_EXACT_MAX values,
 * normal with the tie correction beyond.
 */
#include <config.h>
#include "stats/mannwhitney.h"

#include <errno.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_sf_gamma.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "stats/ranksum.h"

/* The exact p-value from the permutation distribution. */
static void exact_p(struct mwu *r, const unsigned long *rank2, long w2)
{
	size_t n = r->na + r->nb;
	long centre2 = (long)(r->nb * (n + 1));
	struct ranksum d;

	ranksum_init(&d, rank2, n, r->nb);
	r->p = ranksum_tail(&d, centre2, labs(w2 - centre2));
	ranksum_release(&d);
}

/*
 * The normal approximation: U's mean na nb / 2 and its variance with the
 * tie correction, na nb / 12 ((n + 1) - sum(t^3 - t) / (n (n - 1))).
 */
static void normal_p(struct mwu *r, double ties)
{
	double n = (double)(r->na + r->nb), m = (double)r->na * (double)r->nb;
	double var = m / 12 * ((n + 1) - ties / (n * (n - 1)));
	double z;

	if (!(var > 0)) {
		r->p = 1; /* every value the same */
		return;
	}
	z = fmax(fabs(r->u - m / 2) - 0.5, 0) / sqrt(var);
	r->p = fmin(1, 2 * gsl_cdf_ugaussian_Q(z));
}

int mwu_test(const double *a, size_t na, const double *b, size_t nb,
	     struct mwu *r)
{
	size_t n = na + nb;
	unsigned long *rank2;
	double *all, ties;
	long w2 = 0;

	memset(r, 0, sizeof(*r));
	r->p = r->p_min = 1;
	if (!na || !nb)
		return -EINVAL;
	r->na = na;
	r->nb = nb;
	all = xcalloc(n, sizeof(*all));
	rank2 = xcalloc(n, sizeof(*rank2));
	memcpy(all, a, na * sizeof(*all));
	memcpy(all + na, b, nb * sizeof(*all));
	ties = ranksum_midranks(all, n, rank2);
	for (size_t j = 0; j < nb; j++)
		w2 += (long)rank2[na + j];
	/* U = W - nb (nb + 1) / 2, from the doubled W */
	r->u = (double)w2 / 2 - (double)nb * (double)(nb + 1) / 2;
	r->ties = ties > 0;
	r->exact = n <= MWU_EXACT_MAX;
	/* the two splits that put every b above, or below, every a */
	r->p_min =
		fmin(1, 2 / gsl_sf_choose((unsigned int)n, (unsigned int)nb));
	if (r->exact)
		exact_p(r, rank2, w2);
	else
		normal_p(r, ties);
	free(rank2);
	free(all);
	return 0;
}
