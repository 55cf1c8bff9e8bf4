/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * compare's cells by boot (bootunit.h): which parts of a side share a
 * boot, and each boot's centre with the spreads between and within.
 */
#include <config.h>
#include "compare/bootunit.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "stats/summary.h"

bool bootunit_same(const struct resultfile *a, const struct resultfile *b)
{
	if (!a->boot_id || !b->boot_id)
		return !a->boot_id && !b->boot_id;
	return !strcmp(a->boot_id, b->boot_id);
}

/* The first part of @s in @p's boot: each boot is counted at its first. */
static unsigned int first_of_boot(const struct comparison_side *s,
				  unsigned int p)
{
	unsigned int i;

	for (i = 0; i < p && !bootunit_same(s->parts[i], s->parts[p]); i++)
		;
	return i;
}

unsigned int bootunit_count(const struct comparison_side *s)
{
	unsigned int n = 0;

	for (unsigned int p = 0; p < s->nparts; p++)
		n += first_of_boot(s, p) == p;
	return n;
}

void bootunit_pool(struct comparison_cell *c, const struct comparison_side *s,
		   unsigned int clients, enum compare_metric metric, bool mean)
{
	double *centres = xcalloc(s->nparts + 1, sizeof(*centres));
	double *runs = NULL, ss = 0, sum = 0;
	unsigned int nb = 0, df = 0, total = 0;

	for (unsigned int p = 0; p < s->nparts; p++) {
		struct summary u;
		size_t n = 0;

		if (first_of_boot(s, p) != p)
			continue;
		/* every part of this boot */
		for (unsigned int q = p; q < s->nparts; q++) {
			const struct resultfile_point *pt =
				resultfile_point(s->parts[q], clients);

			if (!bootunit_same(s->parts[p], s->parts[q]) || !pt ||
			    !pt->nruns)
				continue;
			runs = xrealloc(runs, (n + pt->nruns) * sizeof(*runs));
			memcpy(runs + n, resultfile_values(pt, metric),
			       pt->nruns * sizeof(*runs));
			n += pt->nruns;
		}
		if (!n)
			continue;
		summary_of(&u, runs, n);
		centres[nb++] = mean ? u.mean : u.median;
		sum += u.mean * (double)n;
		total += (unsigned int)n;
		if (n > 1) {
			ss += u.stddev * u.stddev * (double)(n - 1);
			df += (unsigned int)(n - 1);
		}
	}
	free(c->v);
	c->v = centres;
	summary_of(&c->s, centres, nb);
	c->nboots = nb;
	c->between_cv = nb > 1 ? c->s.cv : NAN;
	c->within_cv = df && sum > 0 ? sqrt(ss / df) / (sum / total) : NAN;
	free(runs);
}
