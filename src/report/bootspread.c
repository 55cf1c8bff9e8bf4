/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The spreads of a comparison by boot (report.h): between the boots of
 * a side and within one, the figures that say whether a change is a
 * kernel's or a boot's.
 */
#include <config.h>
#include "report/report.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "compare/compare.h"

#define SPREAD_FIELD 48

/* "1.9% | 0.6%", "n/a" where a spread has no figure. */
static void spread_text(const struct comparison_cell *c, char *buf)
{
	char b[16], w[16];

	if (c->state == CELL_MISSING) {
		snprintf(buf, SPREAD_FIELD, "-");
		return;
	}
	if (isnan(c->between_cv))
		snprintf(b, sizeof(b), "n/a");
	else
		snprintf(b, sizeof(b), "%.1f%%", c->between_cv * 100);
	if (isnan(c->within_cv))
		snprintf(w, sizeof(w), "n/a");
	else
		snprintf(w, sizeof(w), "%.1f%%", c->within_cv * 100);
	snprintf(buf, SPREAD_FIELD, "%s | %s", b, w);
}

void report_boot_spread(const struct comparison *cmp)
{
	unsigned int width[64] = { 0 }, nsides = cmp->nsides;
	double worst = 0;
	char text[SPREAD_FIELD];

	if (nsides > 64)
		nsides = 64;
	for (unsigned int f = 0; f < nsides; f++) {
		width[f] = (unsigned int)strlen(cmp->sides[f].label);
		for (unsigned int r = 0; r < cmp->nclients; r++) {
			const struct comparison_cell *c =
				comparison_cell(cmp, r, f);

			spread_text(c, text);
			if (strlen(text) > width[f])
				width[f] = (unsigned int)strlen(text);
			if (!isnan(c->between_cv) && !isnan(c->within_cv) &&
			    c->within_cv > 0 &&
			    c->between_cv / c->within_cv > worst)
				worst = c->between_cv / c->within_cv;
		}
	}
	printf("Spread: between a side's boots | of the runs within a boot (coefficients of variation)\n");
	printf("%7s", "Clients");
	for (unsigned int f = 0; f < nsides; f++)
		printf("  %-*s", f + 1 < nsides ? (int)width[f] : 0,
		       cmp->sides[f].label);
	printf("\n");
	for (unsigned int r = 0; r < cmp->nclients; r++) {
		printf("%7u", cmp->clients[r]);
		for (unsigned int f = 0; f < nsides; f++) {
			spread_text(comparison_cell(cmp, r, f), text);
			printf("  %-*s", f + 1 < nsides ? (int)width[f] : 0,
			       text);
		}
		printf("\n");
	}
	/*
	 * Runs within a boot cannot see what differs between boots: where
	 * the boots spread more than the runs do, only more boots narrow
	 * the interval, not more runs.
	 */
	if (worst > 1)
		printf("The boots spread up to %.1f times as much as the runs within one: more boots a side narrow the intervals, more runs do not\n",
		       worst);
}
