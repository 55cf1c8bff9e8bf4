/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ab's "Connection Times" block after a run (--percentiles, printed
 * before ab's percentile table): min, mean, sd, median and max per op
 * kind and over all ops, from the run's merged histograms. The sd is
 * that of the exact sums (stats/hist.h), the median the histogram's
 * nearest rank, like the percentile table's 50%.
 */
#include <config.h>
#include "report/report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "lang/loadfile.h"
#include "lang/ops.h"
#include "report/unitcol.h"
#include "run/run.h"
#include "stats/hist.h"
#include "stats/result.h"

/* Print @ns in the block's unit, right-aligned in @width. */
static void cell(const struct unit_col *u, int width, double ns)
{
	printf(" %*.*f", width, u->decimals, ns / u->per);
}

static void row(const struct unit_col *u, int namew, const char *name,
		const struct hist *h)
{
	printf("%-*s", namew, name);
	cell(u, 8, (double)(h->count ? h->min : 0));
	cell(u, 8, hist_mean(h));
	cell(u, 7, hist_sd(h));
	cell(u, 8, (double)hist_percentile(h, 50));
	cell(u, 8, (double)h->max);
	putchar('\n');
}

/*
 * The layout, for a stat and statfs loadfile, one unit for the whole
 * block (as ab's "(ms)"), chosen from its values or --units:
 *
 * Connection Times (us)
 *              min     mean  [+/-sd]   median      max
 * stat:      0.812    1.020    0.310    0.950   41.000
 * statfs:    ...
 * Total:     ...
 */
void report_conntimes(const struct report_config *rc, const struct run *run)
{
	const struct result *r = &run->total;
	struct hist *all = xmalloc(sizeof(*all));
	struct unit_col u;
	int namew = (int)strlen("Total:");

	result_all_ops(r, all);
	unit_col_init(&u);
	for (unsigned int s = 0; s <= r->nslots; s++) {
		const struct hist *h = s < r->nslots ? &r->lat[s] : all;
		int len;

		if (h->count) {
			unit_col_add(&u, h->min);
			unit_col_add(&u, h->max);
		}
		if (s == r->nslots)
			continue;
		len = (int)strlen(op_table[run->state.lf->slot_op[s]].name) + 1;
		if (len > namew)
			namew = len;
	}
	unit_col_choose(&u, rc->units);
	printf("Connection Times (%s)\n%-*s %8s %8s %7s %8s %8s\n", u.name,
	       namew, "", "min", "mean", "[+/-sd]", "median", "max");
	for (unsigned int s = 0; s < r->nslots; s++) {
		char name[64];

		snprintf(name, sizeof(name),
			 "%s:", op_table[run->state.lf->slot_op[s]].name);
		row(&u, namew, name, &r->lat[s]);
	}
	row(&u, namew, "Total:", all);
	free(all);
}
