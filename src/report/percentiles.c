/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ab's percentile table after a run (--percentiles): the latency within
 * which each share of the ops was served, per op kind and over all ops,
 * from the run's merged histograms.
 */
#include <config.h>
#include "report/report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/units.h"
#include "lang/loadfile.h"
#include "lang/ops.h"
#include "run/run.h"
#include "stats/hist.h"
#include "stats/result.h"

/*
 * The layout, for a stat and statfs loadfile:
 *
 * Percentage of the ops served within a certain time
 *           stat    statfs       all
 *   50%    812ns     1.2us     950ns
 *   ...
 *  100%   41.0us    52.3us    52.3us (longest op)
 *
 * A percentile is the nearest rank of its histogram, within 1/64 of the
 * true value; 100% is the exact maximum.
 */
void report_percentiles(const struct report_config *rc, const struct run *run)
{
	const struct result *r = &run->total;
	struct hist *all = xmalloc(sizeof(*all));
	/* a column per op and one for all: each in one unit */
	struct unit_col *col = xcalloc(r->nslots + 1, sizeof(*col));
	char b[32];

	result_all_ops(r, all);
	for (unsigned int s = 0; s <= r->nslots; s++) {
		const struct hist *h = s < r->nslots ? &r->lat[s] : all;

		unit_col_init(&col[s]);
		for (unsigned int i = 0; i < rc->npercentiles; i++)
			unit_col_add(&col[s],
				     hist_percentile(h, rc->percentiles[i]));
		unit_col_choose(&col[s], rc->units);
	}
	printf("Percentage of the ops served within a certain time\n%5s", "");
	for (unsigned int s = 0; s < r->nslots; s++)
		printf(" %9.9s", op_table[run->state.lf->slot_op[s]].name);
	printf(" %9s\n", "all");
	for (unsigned int i = 0; i < rc->npercentiles; i++) {
		double pct = rc->percentiles[i];

		printf("%4g%%", pct);
		for (unsigned int s = 0; s < r->nslots; s++)
			printf(" %9s",
			       unit_col_format(
				       &col[s], b, sizeof(b),
				       hist_percentile(&r->lat[s], pct)));
		printf(" %9s%s\n",
		       unit_col_format(&col[r->nslots], b, sizeof(b),
				       hist_percentile(all, pct)),
		       pct == 100 ? " (longest op)" : "");
	}
	free(col);
	free(all);
}
