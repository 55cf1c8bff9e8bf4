/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * vfsbench suite's table: workloads as rows, client counts as columns,
 * in ops/s and in the relative, efficiency and linear views; and the
 * same figures in FxMark's and LKP's line formats.
 */
#include <config.h>
#include "report/report.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/compiler.h"
#include "base/escape.h"
#include "lang/suite.h"
#include "run/run.h"
#include "run/sweep.h"
#include "run/verdict.h"
#include "stats/result.h"
#include "stats/summary.h"

/*
 * The median ops/s of point (@v, @p) over its runs, as the tables of
 * variants and compare show them; 0 when none finished.
 */
static double median_ops(const struct sweep *sw, unsigned int v, unsigned int p)
{
	return sw->points[v * sw->cfg->nclients + p].ops_s.median;
}

enum view { VIEW_OPS, VIEW_RELATIVE, VIEW_EFFICIENCY, VIEW_LINEAR };

static const char *const view_title[] = {
	[VIEW_OPS] = "ops/s (median of the runs)",
	[VIEW_RELATIVE] = "relative (to the workload at the first count)",
	[VIEW_EFFICIENCY] =
		"efficiency (relative / (clients / first count); 1 is linear)",
	[VIEW_LINEAR] =
		"linear (ops/s at the first count x clients / first count, as will-it-scale's runtest.py)",
};

/* Append a cell to @line, at @n, of @len bytes; returns the new end. */
static size_t cell(char *line, size_t len, size_t n, const char *fmt, ...)
	PRINTF(4, 5);

static size_t cell(char *line, size_t len, size_t n, const char *fmt, ...)
{
	va_list ap;
	int k;

	if (n + 1 >= len)
		return n;
	va_start(ap, fmt);
	k = vsnprintf(line + n, len - n, fmt, ap);
	va_end(ap);
	return k < 0 ? n : n + (size_t)k >= len ? len - 1 : n + (size_t)k;
}

/* @line without its trailing blanks (an unmarked last cell's). */
static void put_line(char *line, size_t n)
{
	while (n && line[n - 1] == ' ')
		n--;
	line[n] = '\0';
	puts(line);
}

/*
 * One view: a row per workload, a column per count; a cell of starved
 * runs (@starved, per point) marked '!' right after it in the views of
 * its own figure (the linear one is the first count's).
 */
static void print_view(const struct sweep *sw, const struct suite *s,
		       enum view view, const unsigned int *starved, int width)
{
	const struct run_config *cfg = sw->cfg;
	double c0 = cfg->clients[0];
	size_t len = 16 + (size_t)width + 14 * (size_t)cfg->nclients, n;
	char *line = xmalloc(len);

	printf("\n%s\n", view_title[view]);
	n = cell(line, len, 0, "%-*s", width, "workload");
	for (unsigned int p = 0; p < cfg->nclients; p++)
		n = cell(line, len, n, " %12u ", cfg->clients[p]);
	put_line(line, n);
	for (unsigned int v = 0; v < sw->nvariants && v < s->n; v++) {
		double base = median_ops(sw, v, 0);
		char *name = escape_shown(s->w[v].name);

		n = cell(line, len, 0, "%-*s", width, name);
		free(name);
		for (unsigned int p = 0; p < cfg->nclients; p++) {
			unsigned int i = v * cfg->nclients + p;
			double x = median_ops(sw, v, p),
			       k = cfg->clients[p] / c0;
			char mark = starved[i] ? '!' : ' ';

			if (!sw->points[i].nruns)
				n = cell(line, len, n, " %12s ", "-");
			else if (view == VIEW_OPS)
				n = cell(line, len, n, " %12.0f%c", x, mark);
			else if (view == VIEW_LINEAR)
				n = cell(line, len, n, " %12.0f%c", base * k,
					 starved[v * cfg->nclients] ? '!' :
								      ' ');
			else if (!base)
				n = cell(line, len, n, " %12s ", "-");
			else if (view == VIEW_RELATIVE)
				n = cell(line, len, n, " %12.2f%c", x / base,
					 mark);
			else
				n = cell(line, len, n, " %12.2f%c",
					 x / base / k, mark);
		}
		put_line(line, n);
	}
	free(line);
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
 * makes of print_fxmark()'s block, but the runs' median (the parser keeps
 * the last of blocks of one name), the statistic of the table above.
 */
static void print_lkp(const struct sweep *sw, const struct suite *s,
		      const char *media, const char *fs)
{
	const struct run_config *cfg = sw->cfg;
	double *w = xcalloc(cfg->runs + 1, sizeof(*w));

	for (unsigned int v = 0; v < sw->nvariants && v < s->n; v++)
		for (unsigned int p = 0; p < cfg->nclients; p++) {
			const struct point *pt =
				&sw->points[v * cfg->nclients + p];
			struct summary sum;
			char *name, *suite;

			if (!pt->nruns)
				continue;
			for (unsigned int r = 0; r < pt->nruns; r++) {
				const struct run *run = pt->runs[r];
				double secs = result_elapsed(&run->total) / 1e9;

				w[r] = secs > 0 ? (double)run->total.passes *
							  s->w[v].works / secs :
						  0;
			}
			summary_of(&sum, w, pt->nruns);
			name = escape_shown(s->w[v].name);
			suite = escape_shown(s->name);
			printf("%s.%s_%s_%s_%u_bufferedio.works/sec: %f\n",
			       suite, media, fs, name, pt->clients, sum.median);
			free(name);
			free(suite);
		}
	free(w);
}

void report_suite_table(const struct report_config *rc, const struct sweep *sw)
{
	const struct suite *s = rc->suite;
	const char *fs = rc->suite_fs ? rc->suite_fs : "unknown";
	const char *media = rc->suite_media ? rc->suite_media : "unknown";
	char *name = escape_shown(s->name), *source = escape_shown(s->source);

	unsigned int *starved = xcalloc(sw->npoints + 1, sizeof(*starved));
	unsigned int cells = 0, marked = 0;
	int width = (int)strlen("workload");

	/* the name column as wide as the longest name (vfs-commits'), as
	 * shown: escaped */
	for (unsigned int v = 0; v < s->n; v++) {
		char *shown = escape_shown(s->w[v].name);

		if ((int)strlen(shown) > width)
			width = (int)strlen(shown);
		free(shown);
	}
	for (unsigned int p = 0; p < sw->npoints; p++) {
		starved[p] = run_verdict_starved(sw->points[p].runs,
						 sw->points[p].nruns);
		cells += sw->points[p].nruns > 0;
		marked += starved[p] > 0;
	}
	/* an index of the user's: its names may hold any byte */
	printf("\nsuite %s (%s): %u workloads\n", name, source, s->n);
	free(name);
	free(source);
	for (enum view v = VIEW_OPS; v <= VIEW_LINEAR; v++)
		print_view(sw, s, v, starved, width);
	if (marked)
		printf("! starved: %u of %u cells have starved runs: %s\n",
		       marked, cells, REPORT_STARVED_WHY);
	free(starved);
	if (rc->suite_lines == SUITE_LINES_FXMARK) {
		putchar('\n');
		print_fxmark(sw, s, media, fs);
	} else if (rc->suite_lines == SUITE_LINES_LKP) {
		putchar('\n');
		print_lkp(sw, s, media, fs);
	}
	fflush(stdout);
}
