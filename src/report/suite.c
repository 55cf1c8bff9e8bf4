/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * vfsbench suite's table: workloads as rows, client counts as columns,
 * in ops/s and in the relative, efficiency and linear views; and the
 * same figures in FxMark's and LKP's line formats.
 */
#include <config.h>
#include "report/report.h"

#include <stdio.h>
#include <stdlib.h>

#include "base/escape.h"
#include "lang/suite.h"
#include "run/run.h"
#include "run/sweep.h"
#include "stats/result.h"

/* Mean ops/s of point (@v, @p) over its runs; 0 when none finished. */
static double mean_ops(const struct sweep *sw, unsigned int v, unsigned int p)
{
	const struct point *pt = &sw->points[v * sw->cfg->nclients + p];
	double sum = 0;

	for (unsigned int r = 0; r < pt->nruns; r++)
		sum += run_ops_per_sec(pt->runs[r]);
	return pt->nruns ? sum / pt->nruns : 0;
}

enum view { VIEW_OPS, VIEW_RELATIVE, VIEW_EFFICIENCY, VIEW_LINEAR };

static const char *const view_title[] = {
	[VIEW_OPS] = "ops/s (mean of the runs)",
	[VIEW_RELATIVE] = "relative (to the workload at the first count)",
	[VIEW_EFFICIENCY] =
		"efficiency (relative / (clients / first count); 1 is linear)",
	[VIEW_LINEAR] =
		"linear (ops/s at the first count x clients / first count, as will-it-scale's runtest.py)",
};

static void print_view(const struct sweep *sw, const struct suite *s,
		       enum view view)
{
	const struct run_config *cfg = sw->cfg;
	double c0 = cfg->clients[0];

	printf("\n%s\n%-8s", view_title[view], "workload");
	for (unsigned int p = 0; p < cfg->nclients; p++)
		printf(" %12u", cfg->clients[p]);
	putchar('\n');
	for (unsigned int v = 0; v < sw->nvariants && v < s->n; v++) {
		double base = mean_ops(sw, v, 0);
		char *name = escape_shown(s->w[v].name);

		printf("%-8s", name);
		free(name);
		for (unsigned int p = 0; p < cfg->nclients; p++) {
			double x = mean_ops(sw, v, p), n = cfg->clients[p] / c0;

			if (!sw->points[v * cfg->nclients + p].nruns)
				printf(" %12s", "-");
			else if (view == VIEW_OPS)
				printf(" %12.0f", x);
			else if (view == VIEW_LINEAR)
				printf(" %12.0f", base * n);
			else if (!base)
				printf(" %12s", "-");
			else if (view == VIEW_RELATIVE)
				printf(" %12.2f", x / base);
			else
				printf(" %12.2f", x / base / n);
		}
		putchar('\n');
	}
}

/*
 * FxMark's log lines, "## media:fs:bench:ncore:iotype" then its table:
 * LKP's fxmark parser reads a block only under a media it knows (mem,
 * nvme, ssd, hdd) and a first column equal to ncore.
 */
static void print_fxmark(const struct sweep *sw, const struct suite *s,
			 const char *media, const char *fs)
{
	const struct run_config *cfg = sw->cfg;

	for (unsigned int v = 0; v < sw->nvariants && v < s->n; v++)
		for (unsigned int p = 0; p < cfg->nclients; p++) {
			const struct point *pt =
				&sw->points[v * cfg->nclients + p];

			for (unsigned int r = 0; r < pt->nruns; r++) {
				const struct run *run = pt->runs[r];
				double secs = result_elapsed(&run->total) / 1e9;
				double works = (double)run->total.passes *
					       s->w[v].works;
				char *name = escape_shown(s->w[v].name);

				printf("## %s:%s:%s:%u:bufferedio\n", media, fs,
				       name, pt->clients);
				free(name);
				printf("# ncpu secs works works/sec\n");
				printf("%u %f %f %f\n", pt->clients, secs,
				       works, secs > 0 ? works / secs : 0);
			}
		}
}

/*
 * LKP's names: fxmark.MEDIA_FS_BENCH_N_IO.works/sec, what its parser
 * makes of print_fxmark()'s block, but the runs' mean (the parser keeps
 * the last of blocks of one name).
 */
static void print_lkp(const struct sweep *sw, const struct suite *s,
		      const char *media, const char *fs)
{
	const struct run_config *cfg = sw->cfg;

	for (unsigned int v = 0; v < sw->nvariants && v < s->n; v++)
		for (unsigned int p = 0; p < cfg->nclients; p++) {
			const struct point *pt =
				&sw->points[v * cfg->nclients + p];
			double sum = 0;
			char *name, *suite;

			if (!pt->nruns)
				continue;
			for (unsigned int r = 0; r < pt->nruns; r++) {
				const struct run *run = pt->runs[r];
				double secs = result_elapsed(&run->total) / 1e9;

				sum += secs > 0 ? (double)run->total.passes *
							  s->w[v].works / secs :
						  0;
			}
			name = escape_shown(s->w[v].name);
			suite = escape_shown(s->name);
			printf("%s.%s_%s_%s_%u_bufferedio.works/sec: %f\n",
			       suite, media, fs, name, pt->clients,
			       sum / pt->nruns);
			free(name);
			free(suite);
		}
}

void report_suite_table(const struct report_config *rc, const struct sweep *sw)
{
	const struct suite *s = rc->suite;
	const char *fs = rc->suite_fs ? rc->suite_fs : "unknown";
	const char *media = rc->suite_media ? rc->suite_media : "unknown";
	char *name = escape_shown(s->name), *source = escape_shown(s->source);

	/* an index of the user's: its names may hold any byte */
	printf("\nsuite %s (%s): %u workloads\n", name, source, s->n);
	free(name);
	free(source);
	for (enum view v = VIEW_OPS; v <= VIEW_LINEAR; v++)
		print_view(sw, s, v);
	if (rc->suite_lines == SUITE_LINES_FXMARK) {
		putchar('\n');
		print_fxmark(sw, s, media, fs);
	} else if (rc->suite_lines == SUITE_LINES_LKP) {
		putchar('\n');
		print_lkp(sw, s, media, fs);
	}
	fflush(stdout);
}
