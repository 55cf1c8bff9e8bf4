/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * vfsbench plot of fdscale results: one chart of the best and the worst
 * open() cost against the number of open fds, a pair of lines per file.
 */
#include <config.h>
#include "report/fdplot.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/exit.h"
#include "base/msg.h"
#include "report/gnuplot.h"
#include "report/plottitle.h"

/*
 * An fdscale result's lines: at each step (ascending num_fds) the best,
 * the mean and the worst open() cost in us.
 */
struct fdseries {
	const char *label;
	unsigned int n;
	uint64_t *x; /* num_fds */
	double *best, *mean, *worst; /* us */
};

/* The chart of fdscale results. */
struct fdchart {
	struct fdseries *s;
	unsigned int ns;
	/*
	 * What every file shares, for the title: ", engine posix,
	 * cache-hot", ", 3 threads, one fd table"... ("" when they differ).
	 */
	char mode[128];
	const struct resultfile *rf; /* the results read, for the title */
	unsigned int nrf;
	enum plot_yscale yscale;
};

static int cmp_fdstep(const void *a, const void *b)
{
	const struct resultfile_fdstep *x = a, *y = b;

	return (x->num_fds > y->num_fds) - (x->num_fds < y->num_fds);
}

static void fdseries_fill(struct fdseries *s, struct resultfile *rf)
{
	qsort(rf->fdsteps, rf->nfdsteps, sizeof(*rf->fdsteps), cmp_fdstep);
	s->label = rf->label;
	s->n = rf->nfdsteps;
	s->x = xcalloc(s->n + 1, sizeof(*s->x));
	s->best = xcalloc(s->n + 1, sizeof(*s->best));
	s->mean = xcalloc(s->n + 1, sizeof(*s->mean));
	s->worst = xcalloc(s->n + 1, sizeof(*s->worst));
	for (unsigned int i = 0; i < s->n; i++) {
		s->x[i] = rf->fdsteps[i].num_fds;
		s->best[i] = (double)rf->fdsteps[i].best_ns / 1e3;
		s->mean[i] = rf->fdsteps[i].mean_ns / 1e3;
		s->worst[i] = (double)rf->fdsteps[i].worst_ns / 1e3;
	}
}

static void fdseries_release(struct fdseries *s)
{
	free(s->x);
	free(s->best);
	free(s->mean);
	free(s->worst);
}

/* @v, or NaN where a log axis has no room for it (0 and below). */
static double positive(double v)
{
	return v > 0 ? v : NAN;
}

/*
 * The fdscale script: $dN holds num_fds, best, worst and mean (us); x is
 * logarithmic; each file one colour, best solid, mean dotted, worst
 * dashed.
 */
static char *gp_fdscale_script(const struct fdchart *c, const char *output,
			       size_t *len)
{
	uint64_t xmin = UINT64_MAX, xmax = 0;
	double top = 0, bottom = INFINITY;
	char *buf = NULL;
	FILE *out;

	out = gnuplot_begin(&buf, len, output, 1024, 600);
	for (unsigned int i = 0; i < c->ns; i++) {
		const struct fdseries *s = &c->s[i];

		fprintf(out, "$d%u << EOD\n", i + 1);
		for (unsigned int p = 0; p < s->n; p++) {
			/* a log axis has no 0: such a point is left out */
			fprintf(out, "%" PRIu64 " %.10g %.10g %.10g\n", s->x[p],
				positive(s->best[p]), positive(s->worst[p]),
				positive(s->mean[p]));
			xmin = s->x[p] < xmin ? s->x[p] : xmin;
			xmax = s->x[p] > xmax ? s->x[p] : xmax;
			top = fmax(top, fmax(s->best[p], s->worst[p]));
			/* the mean lies between: fmin(NaN, x) is x */
			bottom = fmin(bottom, positive(s->best[p]));
			bottom = fmin(bottom, positive(s->worst[p]));
		}
		fprintf(out, "EOD\n");
	}
	fprintf(out, "set grid\nset key above horizontal maxcols 3\n");
	fprintf(out, "set xlabel \"open fds (num_fds)\"\n");
	fprintf(out, "set logscale x 10\nset format x \"%%.0f\"\n");
	fprintf(out, "set xrange [%.10g:%.10g]\n", (double)xmin / 1.5,
		(double)xmax * 1.5);
	/* costs from under a microsecond to milliseconds: log y then */
	fprintf(out, "set ylabel \"open() cost (us)\"\nset format y \"%%g\"\n");
	if (plot_y_is_log(c->yscale, bottom, top))
		gnuplot_log_yrange(out, bottom, top);
	else
		fprintf(out, "set yrange [0:%.10g]\n",
			top > 0 ? top * 1.05 : 1);
	fprintf(out, "set title ");
	plot_title(out, c->rf, c->nrf);
	fprintf(out,
		" . \"\\nopen() refilling a freed fd%s: best (solid), mean (dotted) and worst (dashed) of each step\"\n",
		c->mode);
	fprintf(out, "plot");
	for (unsigned int i = 0; i < c->ns; i++) {
		char *title;
		size_t n = strlen(c->s[i].label) + 8;

		title = xmalloc(n);
		snprintf(title, n, "%s best", c->s[i].label);
		fprintf(out,
			"%s $d%u using 1:2 with linespoints lc %u dt 1 pt 7 title ",
			i ? "," : "", i + 1, i + 1);
		gnuplot_string(out, title);
		snprintf(title, n, "%s mean", c->s[i].label);
		fprintf(out,
			", $d%u using 1:4 with linespoints lc %u dt 3 pt 4 title ",
			i + 1, i + 1);
		gnuplot_string(out, title);
		snprintf(title, n, "%s worst", c->s[i].label);
		fprintf(out,
			", $d%u using 1:3 with linespoints lc %u dt 2 pt 6 title ",
			i + 1, i + 1);
		gnuplot_string(out, title);
		free(title);
	}
	fprintf(out, "\n");
	gnuplot_end(out);
	return buf;
}

/* The settings all of @n files share, for the title of the chart. */
static void fd_mode(char *buf, size_t len, const struct resultfile *rf,
		    unsigned int n)
{
	bool cold = true, threads = true, engine = true;
	size_t used = 0;

	for (unsigned int f = 1; f < n; f++) {
		engine = engine &&
			 !strcmp(rf[f].set.engine, rf[0].set.engine) &&
			 rf[f].uring_fixed == rf[0].uring_fixed;
		cold = cold && rf[f].cold == rf[0].cold;
		threads = threads && rf[f].threads == rf[0].threads &&
			  rf[f].private_fd_table == rf[0].private_fd_table;
	}
	buf[0] = '\0';
	if (engine)
		used += (size_t)snprintf(
			buf, len, ", engine %s%s", rf[0].set.engine,
			rf[0].uring_fixed ? " (fixed files)" : "");
	if (cold && used < len)
		used += (size_t)snprintf(buf + used, len - used, ", cache-%s",
					 rf[0].cold ? "cold" : "hot");
	if (threads && rf[0].threads > 1 && used < len)
		snprintf(buf + used, len - used, ", %u threads, %s",
			 rf[0].threads,
			 rf[0].private_fd_table ? "private fd tables" :
						  "one fd table");
}

/* fdscale results: one chart, a pair of lines per file. */
int fdplot_draw(struct resultfile *rf, unsigned int n, enum plot_yscale yscale,
		const char *output)
{
	struct fdchart c = {
		.s = xcalloc(n, sizeof(*c.s)),
		.rf = rf,
		.nrf = n,
		.yscale = yscale,
	};
	int status = VB_EXIT_USAGE;
	char *script;
	size_t len;

	for (unsigned int f = 0; f < n; f++) {
		if (!rf[f].nfdsteps) {
			warning("'%s': no step: left out of the chart",
				rf[f].path);
			continue;
		}
		fdseries_fill(&c.s[c.ns++], &rf[f]);
	}
	if (!c.ns) {
		error("no step in any file: nothing to plot");
		goto out;
	}
	fd_mode(c.mode, sizeof(c.mode), rf, n);
	script = gp_fdscale_script(&c, output, &len);
	status = gnuplot_draw(script, len, output) ? VB_EXIT_RUNTIME :
						     VB_EXIT_OK;
out:
	for (unsigned int i = 0; i < c.ns; i++)
		fdseries_release(&c.s[i]);
	free(c.s);
	return status;
}
