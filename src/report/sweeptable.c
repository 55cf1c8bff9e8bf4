/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The sweep's tables after its runs: a table per variant, a row per
 * client count, relative to the baseline; then a suite's table, or the
 * variants' one (report/suite.c, report/variants.c).
 */
#include <config.h>
#include "report/report.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/alloc.h"
#include "base/units.h"
#include "run/runconfig.h"
#include "run/run.h"
#include "run/signals.h"
#include "run/sweep.h"
#include "run/verdict.h"

/* The legend of the '!' rows of a sweep table, when there are any. */
static void print_starved_rows(const struct sweep_row *rows,
			       const struct point *const *pts,
			       const unsigned int *starved, unsigned int n)
{
	const char *sep = "! starved: ";

	for (unsigned int i = 0; i < n; i++) {
		if (!starved[i])
			continue;
		printf("%s%u of %u run%s at %u client%s", sep, starved[i],
		       pts[i]->nruns, pts[i]->nruns == 1 ? "" : "s",
		       rows[i].clients, rows[i].clients == 1 ? "" : "s");
		sep = ", ";
	}
	if (*sep == ',')
		printf(": %s\n", REPORT_STARVED_WHY);
}

/*
 * The sweep table of variant @v: one row per client count, the median of
 * its runs (as the tables of variants and compare show them), the spread
 * (CV) when there are several, and the ratios to the baseline.
 */
static bool print_sweep(const struct report_config *rc, const struct sweep *sw,
			unsigned int v)
{
	bool printed = false;
	const struct run_config *cfg = sw->cfg;
	unsigned int nc = cfg->nclients, n = 0, base;
	struct sweep_row *rows = xcalloc(nc + 1, sizeof(*rows));
	const struct point **pts = xcalloc(nc + 1, sizeof(*pts));
	unsigned int *starved = xcalloc(nc + 1, sizeof(*starved));
	char b[16];

	for (unsigned int p = v * nc; p < (v + 1) * nc; p++) {
		const struct point *pt = &sw->points[p];

		if (!pt->nruns)
			continue;
		pts[n] = pt;
		/* a thread's lanes are clients of their own */
		rows[n].clients =
			pt->clients * run_config_lanes(sw->variants[v].cfg);
		/* the median of the runs, as compare's tables use */
		rows[n].ops_s = pt->ops_s.median;
		rows[n].mb_s = pt->mb_s.median;
		rows[n].cpus = pt->runs[0]->cpus;
		n++;
	}
	if (!n || (n < 2 && cfg->runs < 2))
		goto out;
	base = sweep_rows_compute(rows, n, rc->metric);
	printf("\nSweep%s%s: relative to %u client%s, by %s",
	       sw->nvariants > 1 ? " of " : "",
	       sw->nvariants > 1 ? sw->variants[v].label : "",
	       rows[base].clients, rows[base].clients == 1 ? "" : "s",
	       rc->metric == METRIC_MBPS ? "MB/s" : "ops/s");
	if (cfg->runs > 1)
		printf(" (median of %u runs)", cfg->runs);
	printf("\n%7s %14s %10s %9s %11s %5s %9s %6s\n", "Clients", "ops/s",
	       "MB/s", "relative", "efficiency", "runs", "p99", "CV");
	for (unsigned int i = 0; i < n; i++) {
		const struct summary *m = rc->metric == METRIC_MBPS ?
						  &pts[i]->mb_s :
						  &pts[i]->ops_s;

		starved[i] = run_verdict_starved(pts[i]->runs, pts[i]->nruns);
		printf("%7u %14.2f %10.2f %9.2f %11.2f %5zu %9s %5.1f%%%s\n",
		       rows[i].clients, rows[i].ops_s, rows[i].mb_s,
		       rows[i].relative, rows[i].efficiency, m->n,
		       units_format_ns(b, sizeof(b),
				       (uint64_t)pts[i]->p99_ns.median),
		       m->cv * 100, starved[i] ? " !" : "");
	}
	print_starved_rows(rows, pts, starved, n);
	for (unsigned int i = 0; i < n; i++) {
		const struct summary *m = rc->metric == METRIC_MBPS ?
						  &pts[i]->mb_s :
						  &pts[i]->ops_s;

		if (m->n > 1 && m->cv > rc->cv_warn)
			printf("warning: %u client%s: coefficient of variation %.1f%% is above %g%% (min %.2f, max %.2f): the runs disagree\n",
			       rows[i].clients, rows[i].clients == 1 ? "" : "s",
			       m->cv * 100, rc->cv_warn * 100, m->min, m->max);
	}
	printed = true;
out:
	free(starved);
	free(pts);
	free(rows);
	return printed;
}

/*
 * The sweep tables, one per variant; with several variants, then the
 * table that sets each against the first (report/variants.c).
 */
void report_sweep(const struct report_config *rc, const struct sweep *sw)
{
	bool printed = false;

	/* a suite: its own table, a row per workload */
	if (rc->suite)
		report_suite_table(rc, sw);
	for (unsigned int v = 0; !rc->suite && v < sw->nvariants; v++)
		printed = print_sweep(rc, sw, v) || printed;
	if (sw->nvariants > 1 && !rc->suite)
		report_variants(rc, sw);
	/* also when no table was printed: a sweep stopped after its first
	 * point says so too */
	if (sw->stopped)
		printf("note: the sweep stopped early%s; %s\n",
		       signals.count ? " (interrupted by a signal)" : "",
		       printed ? "the table holds the runs that finished" :
				 "the runs above are all that finished");
	fflush(stdout);
}
