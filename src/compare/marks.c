/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * compare's marks (marks.h): the correction over the tested cells, then
 * '*', '~' or '?' for each, with what flagged runs, drift and boots make
 * of it.
 */
#include <config.h>
#include "compare/marks.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

#include "base/alloc.h"
#include "compare/bootunit.h"
#include "stats/fisher.h"
#include "stats/hist.h"
#include "stats/padjust.h"

double comparison_resolution(const struct comparison *cmp)
{
	double e = HIST_REL_ERROR, r = cmp->cc->threshold;

	if (cmp->cc->metric == CMP_P99)
		r = fmax(r, (1 + e) / (1 - e) - 1);
	return r;
}

/* Both sides' runs ran interleaved, in the same invocations. */
static bool interleaved(const struct comparison_side *a,
			const struct comparison_side *b)
{
	if (a->nparts != b->nparts)
		return false;
	for (unsigned int i = 0; i < a->nparts; i++)
		if (a->parts[i]->file != b->parts[i]->file ||
		    a->parts[i]->boot != b->parts[i]->boot)
			return false;
	return true;
}

/*
 * What flagged runs (starved, or with idle clients: @ka of A's @na runs,
 * @kb of @nb) make of a cell: nothing without any; suspect (@bit) when the
 * sides did not run interleaved, or when they did but the flags fell on
 * one side more than chance allows (Fisher's exact test): then they may
 * be what differs; otherwise a note (@bit in c->alike), since shuffled
 * rounds spread such conditions over both sides alike.
 */
static void flag_runs(const struct comparison *cmp, struct comparison_cell *c,
		      bool inter, unsigned int ka, unsigned int na,
		      unsigned int kb, unsigned int nb, unsigned int bit)
{
	if (!ka && !kb)
		return;
	if (!inter || fisher_exact(ka, na, kb, nb) < comparison_alpha(cmp))
		c->suspect |= bit;
	else
		c->alike |= bit;
}

/*
 * Whether the change of @c against @ref lies beyond what their flagged
 * runs and the sides' drift (@drift: the product of both sides' drift
 * bounds, 1 without) could account for. Starvation, idle clients and an
 * overrun pull a run's throughput down (its p99 up) by at most the run's
 * bound; a drift moves a side's centre by at most its bound, either way.
 * So the true ratio of the centres lies in [(1 + lo) / (bound(A) x
 * drift), (1 + hi) x bound(side) x drift] for throughput (the flags'
 * bounds swapped for p99); when that still excludes 1, neither explains
 * the change. Without an interval, the change itself stands for both
 * ends.
 */
static bool beyond_bound(const struct comparison *cmp,
			 const struct comparison_cell *ref,
			 const struct comparison_cell *c, double drift)
{
	double lo = c->bounded ? c->lo : c->change,
	       hi = c->bounded ? c->hi : c->change;
	double down = ref->bound, up = c->bound;

	if (isnan(lo) || isnan(hi))
		return false;
	if (cmp->cc->metric == CMP_P99) {
		down = c->bound;
		up = ref->bound;
	}
	return (1 + hi) * up * drift < 1 || (1 + lo) / (down * drift) > 1;
}

/*
 * A and @s each ran in one boot, and not the same one (both known): the
 * boot's layout and the kernel's change cannot be told apart.
 */
static bool one_boot_each(const struct comparison_side *a,
			  const struct comparison_side *s)
{
	return a->nboots == 1 && s->nboots == 1 && a->parts[0]->boot_id &&
	       s->parts[0]->boot_id && !bootunit_same(a->parts[0], s->parts[0]);
}

/*
 * The correction over every tested cell, then the marks: '*' when the
 * adjusted p is below the level and the change is not below the
 * resolution; '?' when starved, idle or incomplete runs, or drift
 * between sides that did not run interleaved, make it suspect, unless
 * the change is significant and beyond what the flagged runs and the
 * drift could account for (beyond_bound()).
 */
static void mark_cells(struct comparison *cmp, const double *p,
		       unsigned int *at)
{
	double res = comparison_resolution(cmp);
	unsigned int k = *at;

	for (unsigned int r = 0; r < cmp->nclients; r++) {
		const struct comparison_cell *ref = comparison_cell(cmp, r, 0);

		for (unsigned int f = 1; f < cmp->nsides; f++) {
			struct comparison_cell *c =
				&cmp->cells[r * cmp->nsides + f];
			const struct comparison_side *a = &cmp->sides[0],
						     *s = &cmp->sides[f];
			bool inter, significant;
			double drift;

			if (c->state != CELL_TESTED)
				continue;
			inter = interleaved(a, s);

			c->p_adj = p[k++];
			c->below = fabs(c->change) < res;
			flag_runs(cmp, c, inter, ref->starved, ref->nruns,
				  c->starved, c->nruns, SUSPECT_STARVED);
			flag_runs(cmp, c, inter, ref->idle, ref->nruns, c->idle,
				  c->nruns, SUSPECT_IDLE);
			flag_runs(cmp, c, inter, ref->unasked, ref->nruns,
				  c->unasked, c->nruns, SUSPECT_INCOMPLETE);
			/*
			 * by boot, a trend of the runs within a boot is in
			 * that boot's mean, and in every boot's alike
			 */
			if ((a->drift || s->drift) && !inter && !cmp->by_boot)
				c->suspect |= SUSPECT_DRIFT;
			if (one_boot_each(a, s))
				c->suspect |= SUSPECT_ONE_BOOT;
			significant =
				c->p_adj < comparison_alpha(cmp) && !c->below;
			drift = c->suspect & SUSPECT_DRIFT ?
					a->drift_bound * s->drift_bound :
					1;
			/* no bound is known of what a boot can move */
			c->beyond = significant && c->suspect &&
				    !(c->suspect & SUSPECT_ONE_BOOT) &&
				    beyond_bound(cmp, ref, c, drift);
			if (c->suspect && !c->beyond)
				c->mark = MARK_SUSPECT;
			else if (significant)
				c->mark = MARK_SIGNIFICANT;
			else
				c->mark = MARK_NOT;
		}
	}
	*at = k;
}

void comparison_mark(struct comparison *cmps, unsigned int n)
{
	unsigned int total = 0, k = 0;
	double *p;

	for (unsigned int i = 0; i < n; i++)
		for (unsigned int j = 0; j < cmps[i].nclients * cmps[i].nsides;
		     j++)
			total += cmps[i].cells[j].state == CELL_TESTED;
	p = xcalloc(total + 1, sizeof(*p));
	for (unsigned int i = 0; i < n; i++)
		for (unsigned int j = 0; j < cmps[i].nclients * cmps[i].nsides;
		     j++)
			if (cmps[i].cells[j].state == CELL_TESTED)
				p[k++] = cmps[i].cells[j].p;
	if (n)
		padjust(p, total, cmps[0].cc->correction, p);
	k = 0;
	for (unsigned int i = 0; i < n; i++) {
		cmps[i].ntests = total;
		mark_cells(&cmps[i], p, &k);
	}
	free(p);
}
