/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The share changes of two files' profiles (compare/profdiff.h), one row
 * per client count and symbol or lock chain.
 */
#include <config.h>
#include "report/profcompare.h"

#include <math.h>
#include <stdio.h>

#include "compare/profdiff.h"

static const char *method(enum padjust_method m)
{
	switch (m) {
	case PADJUST_BH:
		return "Benjamini-Hochberg";
	case PADJUST_HOLM:
		return "Holm";
	default:
		return "no";
	}
}

static void cell(bool known, uint64_t n, uint64_t of)
{
	if (known && of)
		printf(" %8.1f%%", 100.0 * (double)n / (double)of);
	else
		printf(" %9s", "-");
}

void report_profdiff(const struct profdiff *pd)
{
	if (!pd->nrows)
		return;
	printf("\nProfiles: share of the %s samples, '%s' against '%s'\n",
	       pd->event, pd->label_a, pd->label_b);
	printf("(* the change is beyond what the sample counts allow: two-proportion z-test, %s correction, p < %.2f, and at least %.0f point; - not among the file's listed ones)\n",
	       method(pd->correction), pd->alpha, 100 * PROFDIFF_MIN_CHANGE);
	printf("%7s  %-50s %9s %9s %8s\n", "Clients",
	       "Symbol, or lock <- VFS entry", pd->label_a, pd->label_b,
	       "change");
	for (unsigned int i = 0; i < pd->nrows; i++) {
		const struct profdiff_row *r = &pd->rows[i];

		printf("%7u  %-50.50s", r->clients, r->key);
		cell(r->known_a, r->a, r->na);
		cell(r->known_b, r->b, r->nb);
		if (isnan(r->p))
			printf(" %8s\n", "-");
		else
			printf(" %+7.1f%%%s\n",
			       100.0 * ((double)r->b / (double)r->nb -
					(double)r->a / (double)r->na),
			       r->marked ? " *" : "");
	}
}
