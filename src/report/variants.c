/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The table of a run's variants: the sweep's runs, variant by variant,
 * as the entries vfsbench compare reads from a result file, compared by
 * compare/compare.c and printed by report_compare(), so that a run of
 * several -c and vfsbench compare of its JSON print the same table.
 */
#include <config.h>
#include "report/report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "compare/compare.h"
#include "compare/resultfile.h"
#include "run/run.h"
#include "run/sweep.h"
#include "run/verdict.h"
#include "stats/result.h"

/*
 * The window against -t, for what an overrun or a late rank could
 * account for: nothing bounds them without -t; unmeasured clients are
 * bounded by their count.
 */
static double stretch_of(const struct run *run, const struct run_verdict *v)
{
	if (!(v->incomplete & (INCOMPLETE_OVERRAN | INCOMPLETE_RANK_LATE)))
		return 1;
	if (!v->asked_ns)
		return INFINITY;
	return (double)result_elapsed(&run->total) / (double)v->asked_ns;
}

/* Point @pt's complete runs as a result file's point. */
static void fill_point(struct resultfile_point *rp, const struct point *pt,
		       unsigned int lanes)
{
	unsigned int n = pt->nruns;

	/* a thread's lanes are clients of their own, as compare counts */
	rp->clients = pt->clients * lanes;
	rp->nruns = n;
	rp->ops_s = xcalloc(n + 1, sizeof(*rp->ops_s));
	rp->mb_s = xcalloc(n + 1, sizeof(*rp->mb_s));
	rp->p99_ns = xcalloc(n + 1, sizeof(*rp->p99_ns));
	rp->index = xcalloc(n + 1, sizeof(*rp->index));
	rp->starved = xcalloc(n + 1, sizeof(*rp->starved));
	rp->idle = xcalloc(n + 1, sizeof(*rp->idle));
	rp->unasked = xcalloc(n + 1, sizeof(*rp->unasked));
	rp->bound = xcalloc(n + 1, sizeof(*rp->bound));
	for (unsigned int r = 0; r < n; r++) {
		const struct run *run = pt->runs[r];
		struct run_verdict v;

		rp->ops_s[r] = run_ops_per_sec(run);
		rp->mb_s[r] = run_mb_per_sec(run);
		rp->p99_ns[r] = run_p99_ns(run);
		rp->index[r] = run->index;
		run_verdict(run, &v);
		rp->starved[r] = v.starved;
		rp->idle[r] = v.unmeasured;
		rp->unasked[r] = v.incomplete != 0;
		rp->bound[r] = resultfile_bound(&(struct resultfile_flags){
			.starved = v.starved,
			.cpu_share = v.cpu_share,
			.wait_share = v.wait_share,
			.clients = run->nclients,
			.idle = v.unmeasured,
			.unasked = v.incomplete != 0,
			.stretch = stretch_of(run, &v),
		});
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
			fill_point(&rf[v].points[p], &sw->points[v * nc + p],
				   run_config_lanes(sw->variants[v].cfg));
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
