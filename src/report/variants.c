/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The table of a run's variants: the sweep's runs, variant by variant,
 * as the entries vfsbench compare reads from a result file, compared by
 * compare/compare.c and printed by report_compare(), so that a run of
 * several -c and vfsbench compare of its JSON print the same table.
 */
#include <config.h>
#include "report/report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "compare/compare.h"
#include "compare/resultfile.h"
#include "run/run.h"
#include "run/sweep.h"
#include "stats/result.h"

/* Point @pt's complete runs as a result file's point. */
static void fill_point(struct resultfile_point *rp, const struct point *pt)
{
	unsigned int n = pt->nruns;

	rp->clients = pt->clients;
	rp->nruns = n;
	rp->ops_s = xcalloc(n + 1, sizeof(*rp->ops_s));
	rp->mb_s = xcalloc(n + 1, sizeof(*rp->mb_s));
	rp->p99_ns = xcalloc(n + 1, sizeof(*rp->p99_ns));
	rp->index = xcalloc(n + 1, sizeof(*rp->index));
	rp->starved = xcalloc(n + 1, sizeof(*rp->starved));
	rp->idle = xcalloc(n + 1, sizeof(*rp->idle));
	for (unsigned int r = 0; r < n; r++) {
		const struct run *run = pt->runs[r];

		rp->ops_s[r] = run_ops_per_sec(run);
		rp->mb_s[r] = run_mb_per_sec(run);
		rp->p99_ns[r] = run_p99_ns(run);
		rp->index[r] = run->index;
		rp->starved[r] =
			result_starved(&run->total, run->nclients, run->cpus);
		rp->idle[r] = run_idle_clients(run);
	}
}

/* The sweep's variants as result-file entries of one file. */
static struct resultfile *entries(const struct sweep *sw)
{
	unsigned int nc = sw->cfg->nclients;
	struct resultfile *rf = xcalloc(sw->nvariants, sizeof(*rf));

	for (unsigned int v = 0; v < sw->nvariants; v++) {
		rf[v].path = xstrdup("this run");
		rf[v].label = xstrdup(sw->variants[v].label);
		rf[v].variant_label = xstrdup(sw->variants[v].label);
		rf[v].variant = v;
		rf[v].nvariants = sw->nvariants;
		rf[v].complete = !sw->stopped;
		rf[v].points = xcalloc(nc, sizeof(*rf[v].points));
		rf[v].npoints = nc;
		for (unsigned int p = 0; p < nc; p++)
			fill_point(&rf[v].points[p], &sw->points[v * nc + p]);
	}
	return rf;
}

void report_variants(const struct report_config *rc, const struct sweep *sw)
{
	struct compare_config cc = {
		.metric = rc->metric == METRIC_MBPS ? CMP_MBPS : CMP_OPS,
		.test = TEST_MWU,
		.correction = PADJUST_BH,
		.confidence = 0.95,
		.threshold = COMPARE_THRESHOLD,
	};
	struct comparison cmp;

	printf("\nVariants, each against %s (as vfsbench compare prints them):\n",
	       sw->variants[0].label);
	if (!comparison_build_from(&cmp, &cc, entries(sw), sw->nvariants))
		report_compare(&cmp);
	comparison_release(&cmp);
}
