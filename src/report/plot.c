/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * vfsbench plot: a chart of result files drawn by gnuplot. Owns reading
 * the files, the series of results of runs and sweeps (one per file) and
 * their script: two panels against the client count, data inline.
 * fdscale results go to fdplot.c; gnuplot itself is run by gnuplot.c.
 */
#include <config.h>
#include "report/plot.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/alloc.h"
#include "base/compiler.h"
#include "base/exit.h"
#include "base/msg.h"
#include "compare/resultfile.h"
#include "report/fdplot.h"
#include "report/profplot.h"
#include "report/gnuplot.h"
#include "run/signals.h"
#include "stats/summary.h"

/*
 * One line of the chart: a file's measured points, ascending. x is the
 * client count (fdscale results have their own struct fdseries).
 */
struct series {
	const char *label;
	unsigned int n;
	double *x;
	double *mean, *sd; /* the metric, in the chart's unit */
	double base_x; /* the baseline: 1 client, else the smallest count */
	double base; /* the mean there; relative values need base > 0 */
};

/* The chart: every series and what the axes show. */
struct chart {
	enum compare_metric metric;
	struct series *s;
	unsigned int ns;
	const char *xname; /* "clients" */
	const char *unit; /* p99: "ns", "us", "ms" or "s" */
	double scale; /* p99: ns per unit */
	bool log2x;
	enum plot_yscale yscale; /* --log-y, --linear-y or by the span */
	bool log_y1, log_y2; /* panel 1 and panel 2 logarithmic */
	/* the ideal lines are straight: both axes log, or both linear */
	bool ideal_lines;
};

static const char *const metric_names[] = {
	[CMP_OPS] = "ops/s",
	[CMP_MBPS] = "MB/s",
	[CMP_P99] = "p99 latency",
};

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* @rf's points with a complete run, ascending by client count. */
static void series_fill(struct series *s, const struct resultfile *rf,
			enum compare_metric metric)
{
	double *order = xcalloc(rf->npoints + 1, sizeof(*order));
	unsigned int n = 0;

	for (unsigned int p = 0; p < rf->npoints; p++)
		if (rf->points[p].nruns)
			order[n++] = rf->points[p].clients;
	qsort(order, n, sizeof(*order), cmp_double);
	s->label = rf->label;
	s->x = order;
	s->mean = xcalloc(n + 1, sizeof(*s->mean));
	s->sd = xcalloc(n + 1, sizeof(*s->sd));
	for (unsigned int i = 0; i < n; i++) {
		const struct resultfile_point *pt;
		struct summary sum;

		pt = resultfile_point(rf, (unsigned int)order[i]);
		summary_of(&sum, resultfile_values(pt, metric), pt->nruns);
		s->mean[i] = sum.mean;
		s->sd[i] = sum.stddev;
	}
	s->n = n;
	if (!n)
		return;
	/* order is ascending: 1 client, if there, comes first */
	s->base_x = s->x[0];
	s->base = s->mean[0];
}

static void series_release(struct series *s)
{
	free(s->x);
	free(s->mean);
	free(s->sd);
}

/* p99 in ns, us, ms or s, whichever fits the largest mean. */
static void chart_unit(struct chart *c)
{
	double max = 0;

	c->unit = NULL;
	c->scale = 1;
	if (c->metric != CMP_P99)
		return;
	for (unsigned int i = 0; i < c->ns; i++)
		for (unsigned int p = 0; p < c->s[i].n; p++)
			if (c->s[i].mean[p] > max)
				max = c->s[i].mean[p];
	c->unit = max >= 1e9 ? "s" :
		  max >= 1e6 ? "ms" :
		  max >= 1e3 ? "us" :
			       "ns";
	c->scale = max >= 1e9 ? 1e9 : max >= 1e6 ? 1e6 : max >= 1e3 ? 1e3 : 1;
	for (unsigned int i = 0; i < c->ns; i++) {
		for (unsigned int p = 0; p < c->s[i].n; p++) {
			c->s[i].mean[p] /= c->scale;
			c->s[i].sd[p] /= c->scale;
		}
		c->s[i].base /= c->scale;
	}
}

/* Every count across the series, ascending, once each; n: how many. */
static double *x_values(const struct chart *c, unsigned int *n)
{
	unsigned int total = 0, k = 0;
	double *all;

	for (unsigned int i = 0; i < c->ns; i++)
		total += c->s[i].n;
	all = xcalloc(total + 1, sizeof(*all));
	for (unsigned int i = 0; i < c->ns; i++)
		for (unsigned int p = 0; p < c->s[i].n; p++)
			all[k++] = c->s[i].x[p];
	qsort(all, total, sizeof(*all), cmp_double);
	*n = 0;
	for (unsigned int i = 0; i < total; i++)
		if (!i || all[i] != all[i - 1])
			all[(*n)++] = all[i];
	return all;
}

/* The largest count of any series. */
static double x_max(const struct chart *c)
{
	double xmax = 0;

	for (unsigned int i = 0; i < c->ns; i++)
		xmax = fmax(xmax, c->s[i].x[c->s[i].n - 1]);
	return xmax;
}

static bool is_pow2(double x)
{
	unsigned long v = (unsigned long)x;

	return (double)v == x && v && !(v & (v - 1));
}

/* The x axis: log2 when every count is a power of two, tics at them. */
static void gp_xaxis(FILE *out, const struct chart *c)
{
	unsigned int n;
	double *x = x_values(c, &n), min = x[0], max = x[n - 1];

	fprintf(out, "set xlabel \"%s\"\n", c->xname);
	if (c->log2x)
		fprintf(out, "set logscale x 2\nset xrange [%g:%g]\n",
			min / 1.4, max * 1.4);
	else
		fprintf(out, "set xrange [%g:%g]\n",
			min - fmax(0.5, (max - min) * 0.05),
			max + fmax(0.5, (max - min) * 0.05));
	if (n <= 16) {
		fprintf(out, "set xtics (");
		for (unsigned int i = 0; i < n; i++)
			fprintf(out, "%s%g", i ? ", " : "", x[i]);
		fprintf(out, ")\n");
	}
	free(x);
}

/* $dN: x, mean, stddev, mean / base, stddev / base (NaN: no base). */
static void gp_data(FILE *out, const struct chart *c)
{
	for (unsigned int i = 0; i < c->ns; i++) {
		const struct series *s = &c->s[i];

		fprintf(out, "$d%u << EOD\n", i + 1);
		for (unsigned int p = 0; p < s->n; p++) {
			if (s->base > 0)
				fprintf(out, "%.10g %.10g %.10g %.10g %.10g\n",
					s->x[p], s->mean[p], s->sd[p],
					s->mean[p] / s->base,
					s->sd[p] / s->base);
			else
				fprintf(out, "%.10g %.10g %.10g NaN NaN\n",
					s->x[p], s->mean[p], s->sd[p]);
		}
		fprintf(out, "EOD\n");
	}
}

/*
 * [0:top] holding every mean plus its error bar, 5% above, on a linear
 * axis: the panels share gnuplot's settings, and a log y left by panel 1
 * made panel 2's [0:top] fail ("y range must be greater than 0 for log
 * scale").
 */
static void gp_yrange(FILE *out, double top)
{
	fprintf(out, "unset logscale y\nset yrange [0:%.10g]\n",
		top > 0 ? top * 1.05 : 1);
}

/*
 * Tics at the powers of two from below @bottom to above @top, for ratios
 * on a log axis (a decade's tics would leave 1 alone between 0.5 and 8).
 * Each exactly: %g's six digits would put 2^-9 at 0.00195312, and 2^20
 * at 1.04858e+06; the labels keep the axis' format.
 */
static void gp_pow2_ytics(FILE *out, double bottom, double top)
{
	const char *sep = "";
	double t;

	/* more than 24 doublings: gnuplot's decades do better */
	if (!(bottom > 0) || !(top >= bottom) || top / bottom > (1 << 22))
		return;
	fprintf(out, "set ytics (");
	for (t = pow(2, floor(log2(bottom / 2))); t <= top * 2; t *= 2) {
		fprintf(out, "%s%.17g", sep, t);
		sep = ", ";
	}
	fprintf(out, ")\n");
}

/*
 * The columns of an error bar of mean column @m and stddev column @sd
 * for gnuplot's yerrorlines: y:delta, or y:low:high on a log axis, where
 * a bar reaching 0 or below keeps only its upper half.
 */
static void gp_bar_columns(FILE *out, bool log_y, unsigned int m,
			   unsigned int sd)
{
	if (log_y)
		fprintf(out, "%u:($%u - $%u > 0 ? $%u - $%u : $%u):($%u + $%u)",
			m, m, sd, m, sd, m, m, sd);
	else
		fprintf(out, "%u:%u", m, sd);
}

/*
 * The smallest positive and the largest mean of panel 1 (@rel: of panel
 * 2, relative to each baseline), and the top of the highest error bar.
 */
static void panel_span(const struct chart *c, bool rel, double *bottom,
		       double *mtop, double *top)
{
	*bottom = INFINITY;
	*mtop = *top = 0;
	for (unsigned int i = 0; i < c->ns; i++) {
		const struct series *s = &c->s[i];
		double d = rel ? s->base : 1;

		if (!(d > 0))
			continue;
		for (unsigned int p = 0; p < s->n; p++) {
			double m = s->mean[p] / d, sd = s->sd[p] / d;

			*top = fmax(*top, m + sd);
			*mtop = fmax(*mtop, m);
			/* by the means: a bar reaching near 0 would stretch
			 * a log axis over decades; gnuplot clips it */
			if (m > 0)
				*bottom = fmin(*bottom, m);
		}
	}
}

/*
 * Which y axes are logarithmic: each whose means span more than a decade,
 * unless --log-y or --linear-y said; the ideal lines are straight when
 * both axes of panel 2 are logarithmic or both linear, points otherwise.
 */
static void chart_axes(struct chart *c)
{
	double bottom, mtop, top;
	unsigned int n;
	double *x = x_values(c, &n);

	c->log2x = true;
	for (unsigned int i = 0; i < n; i++)
		c->log2x = c->log2x && is_pow2(x[i]);
	free(x);
	panel_span(c, false, &bottom, &mtop, &top);
	c->log_y1 = plot_y_is_log(c->yscale, bottom, mtop);
	panel_span(c, true, &bottom, &mtop, &top);
	c->log_y2 = plot_y_is_log(c->yscale, bottom, mtop);
	c->ideal_lines = c->log2x == c->log_y2;
}

/* Panel 1: the metric against the client count. */
static void gp_panel_metric(FILE *out, const struct chart *c)
{
	const char *name = metric_names[c->metric];
	double top, mtop, bottom;

	panel_span(c, false, &bottom, &mtop, &top);
	if (c->log_y1)
		gnuplot_log_yrange(out, bottom, top);
	else
		gp_yrange(out, top);
	if (c->metric == CMP_P99)
		fprintf(out, "set ylabel \"%s (%s)\"\n", name, c->unit);
	else
		fprintf(out, "set ylabel \"%s\"\n", name);
	/* ops/s in the millions: "2.5M" */
	fprintf(out, "set format y \"%s\"\n",
		c->metric == CMP_OPS && top >= 1e4 ? "%.1s%c" : "%g");
	fprintf(out,
		"set title \"%s: mean of runs, bars: standard deviation\"\n",
		name);
	fprintf(out, "plot");
	for (unsigned int i = 0; i < c->ns; i++) {
		fprintf(out, "%s $d%u using 1:", i ? "," : "", i + 1);
		gp_bar_columns(out, c->log_y1, 2, 3);
		fprintf(out, " with yerrorlines lt %u pt 7 title ", i + 1);
		gnuplot_string(out, c->s[i].label);
	}
	fprintf(out, "\n");
}

/* Points of an ideal line from its baseline to the largest count. */
#define IDEAL_POINTS 64

/*
 * Is @i the first series with its baseline count (and a baseline to be
 * relative to)? One ideal line per distinct baseline.
 */
static bool ideal_of(const struct chart *c, unsigned int i)
{
	if (!(c->s[i].base > 0))
		return false;
	for (unsigned int j = 0; j < i; j++)
		if (c->s[j].base > 0 && c->s[j].base_x == c->s[i].base_x)
			return false;
	return true;
}

/*
 * $iN: the ideal of linear scaling from series N's baseline count b to
 * @xmax, y = x / b. Where the axes draw it straight (log-log or
 * linear-linear), IDEAL_POINTS counts evenly spaced on a log axis, the
 * first at b itself (y = 1) and the last at @xmax, from the baseline and
 * not from wherever gnuplot's samples of a function begin. Elsewhere it
 * would be a curve that reads as super-linear: only the measured counts
 * from b on, drawn as points.
 */
static void gp_ideal_data(FILE *out, const struct chart *c, double xmax)
{
	unsigned int nx;
	double *xs = x_values(c, &nx);

	for (unsigned int i = 0; i < c->ns; i++) {
		double b = c->s[i].base_x;

		if (!ideal_of(c, i))
			continue;
		fprintf(out, "$i%u << EOD\n", i + 1);
		for (unsigned int k = 0; !c->ideal_lines && k < nx; k++)
			if (xs[k] >= b)
				fprintf(out, "%.10g %.10g\n", xs[k], xs[k] / b);
		for (unsigned int k = 0; c->ideal_lines && k < IDEAL_POINTS;
		     k++) {
			double x =
				k == IDEAL_POINTS - 1 ?
					xmax :
					b * pow(xmax / b,
						(double)k / (IDEAL_POINTS - 1));

			fprintf(out, "%.10g %.10g\n", x, x / b);
		}
		fprintf(out, "EOD\n");
	}
	free(xs);
}

/*
 * Panel 2: each file against its own baseline, and the ideal of linear
 * scaling (ops/s and MB/s) from each distinct baseline count. Colours
 * match panel 1, whose key names the files; this key holds the ideals.
 */
static void gp_panel_scaling(FILE *out, const struct chart *c)
{
	bool ideal = c->metric != CMP_P99, several = false, any = false;
	double top = 0, itop = 0, xmax = 0, bottom = INFINITY;
	const char *sep = "";

	for (unsigned int i = 0; i < c->ns; i++) {
		const struct series *s = &c->s[i];

		several = several || s->base_x != c->s[0].base_x;
		xmax = fmax(xmax, s->x[s->n - 1]);
		if (!(s->base > 0))
			continue;
		any = true;
		for (unsigned int p = 0; p < s->n; p++) {
			top = fmax(top, (s->mean[p] + s->sd[p]) / s->base);
			if (s->mean[p] > 0)
				bottom = fmin(bottom, s->mean[p] / s->base);
		}
	}
	/* the ideal may run off the top, not squash the measured lines */
	for (unsigned int i = 0; ideal && i < c->ns; i++)
		if (c->s[i].base > 0)
			itop = fmax(itop, xmax / c->s[i].base_x);
	if (ideal && any)
		bottom = fmin(bottom, 1);
	top = fmax(top, fmin(itop, 2 * top));
	if (c->log_y2) {
		gnuplot_log_yrange(out, bottom, top);
		gp_pow2_ytics(out, bottom, top);
	} else {
		gp_yrange(out, top);
	}
	fprintf(out, "set format y \"%%g\"\n");
	fprintf(out, "set ylabel \"relative to the baseline%s\"\n",
		c->metric == CMP_P99 ? " (lower is better)" : "");
	fprintf(out, "set title \"scaling: %s relative to each file's %s\"\n",
		metric_names[c->metric],
		several || c->s[0].base_x != 1 ? "smallest client count" :
						 "1-client result");
	if (!any) {
		fprintf(out,
			"set label 1 \"no relative values: every baseline is 0\" at graph 0.5,0.5 center\n"
			"plot NaN notitle\nunset label 1\n");
		return;
	}
	fprintf(out, "plot");
	for (unsigned int i = 0; i < c->ns; i++) {
		if (!(c->s[i].base > 0))
			continue;
		fprintf(out, "%s $d%u using 1:", sep, i + 1);
		gp_bar_columns(out, c->log_y2, 4, 5);
		fprintf(out, " with yerrorlines lt %u pt 7 notitle", i + 1);
		sep = ",";
	}
	for (unsigned int i = 0; ideal && i < c->ns; i++) {
		if (!ideal_of(c, i))
			continue;
		fprintf(out,
			", $i%u using 1:2 with %s lc rgb \"gray40\" title \"ideal",
			i + 1, c->ideal_lines ? "lines dt 2" : "points pt 6");
		if (several)
			fprintf(out, " from %g", c->s[i].base_x);
		fprintf(out, "\"");
	}
	fprintf(out, "\n");
}

/*
 * Rows of the files' key, which gnuplot fills with as many entries a row
 * (three at most) as fit the panel's 530 pixels: about 7 pixels a
 * character and 70 for the sample line.
 */
static unsigned int key_rows(const struct chart *c)
{
	size_t longest = 0, cols;

	for (unsigned int i = 0; i < c->ns; i++)
		if (strlen(c->s[i].label) > longest)
			longest = strlen(c->s[i].label);
	cols = 530 / (longest * 7 + 70);
	cols = cols < 1 ? 1 : cols > 3 ? 3 : cols;
	return (unsigned int)((c->ns + cols - 1) / cols);
}

/*
 * The whole script: terminal, data, two panels side by side. The chart
 * goes to gnuplot's stdout, the file plot_chart() opened.
 */
static char *gp_script(struct chart *c, const struct resultfile *rf,
		       unsigned int n, const char *output, size_t *len)
{
	char *buf = NULL;
	FILE *out;

	out = gnuplot_begin(&buf, len, output, 1280, 520);
	chart_axes(c);
	gp_data(out, c);
	if (c->metric != CMP_P99)
		gp_ideal_data(out, c, x_max(c));
	/*
	 * The same plot area in both panels, whatever their keys hold,
	 * below the title naming where the results were measured. Each key
	 * sits on its panel's title ("above" would put it at the top of
	 * the page, over that title).
	 */
	fprintf(out, "set multiplot layout 1,2 title ");
	plot_title(out, rf, n);
	fprintf(out,
		" margins 0.08,0.98,0.12,%.3f spacing 0.09\n"
		"set grid\nset key at graph 0.5,1.1 center bottom horizontal maxcols 3\n",
		fmax(0.5, 0.8 - 0.04 * key_rows(c)));
	gp_xaxis(out, c);
	gp_panel_metric(out, c);
	gp_panel_scaling(out, c);
	fprintf(out, "unset multiplot\n");
	gnuplot_end(out);
	return buf;
}

/* Draw @c, of the @n results @rf, into @output: see gnuplot_draw(). */
static int plot_chart(struct chart *c, const struct resultfile *rf,
		      unsigned int n, const char *output)
{
	size_t len;
	char *script = gp_script(c, rf, n, output, &len);

	return gnuplot_draw(script, len, output);
}

/*
 * Read the files into *@rfp, one entry per variant (*@n); 0, or -1 when
 * any cannot be read or they cannot be plotted together (all reported).
 * Sets *@fdscale when they are fdscale results.
 */
static int read_files(struct resultfile **rfp, unsigned int *n,
		      const struct plot_config *pc, bool *fdscale)
{
	int sweep = -1, fds = -1, ret = 0;
	struct resultfile *rf;

	for (unsigned int f = 0; f < pc->nfiles; f++) {
		int err = resultfile_read(pc->files[f], f, true, rfp, n);

		/* a signal while a FIFO was read: stop */
		if (err == -EINTR)
			return err;
		if (err)
			ret = -1;
	}
	rf = *rfp;
	for (unsigned int f = 0; f < *n; f++) {
		if (rf[f].kind == RESULTFILE_FDSCALE && fds < 0)
			fds = (int)f;
		else if (rf[f].kind == RESULTFILE_SWEEP && sweep < 0)
			sweep = (int)f;
	}
	if (sweep >= 0 && fds >= 0)
		ret = error(
			"'%s' is an fdscale result (vfsbench-fdscale) and '%s' a result of runs (vfsbench-result): plot draws one kind or the other, not both",
			rf[fds].path, rf[sweep].path);
	else if (fds >= 0 && pc->metric != CMP_OPS)
		ret = error(
			"--metric %s: an fdscale chart ('%s') shows the best and worst open() cost; --metric is for results of runs",
			pc->metric == CMP_MBPS ? "mbps" : "p99", rf[fds].path);
	*fdscale = fds >= 0;
	return ret;
}

int plot_files(const struct plot_config *pc)
{
	struct chart c = {
		.metric = pc->metric,
		.xname = "clients",
		.yscale = pc->yscale,
	};
	int status = VB_EXIT_USAGE;
	struct resultfile *rf = NULL;
	unsigned int n = 0;
	bool fdscale;

	/* a stop while the files were read draws nothing: main() says so */
	if (read_files(&rf, &n, pc, &fdscale) || signals.count)
		goto out;
	resultfile_labels(rf, n);
	if (pc->profile) {
		if (n != 1 || fdscale)
			error("plot --profile: one result of runs of one variant, not %u",
			      n);
		else
			status = profplot_draw(&rf[0], pc->output);
		goto out;
	}
	if (fdscale) {
		status = fdplot_draw(rf, n, pc->yscale, pc->output);
		goto out;
	}
	c.s = xcalloc(n, sizeof(*c.s));
	for (unsigned int f = 0; f < n; f++) {
		series_fill(&c.s[c.ns], &rf[f], pc->metric);
		if (c.s[c.ns].n) {
			c.ns++;
			continue;
		}
		warning("'%s': no run completed: left out of the chart",
			rf[f].path);
		series_release(&c.s[c.ns]);
	}
	if (!c.ns) {
		error("no run completed in any file: nothing to plot");
		goto out;
	}
	chart_unit(&c);
	status = plot_chart(&c, rf, n, pc->output) ? VB_EXIT_RUNTIME :
						     VB_EXIT_OK;
out:
	for (unsigned int i = 0; i < c.ns; i++)
		series_release(&c.s[i]);
	free(c.s);
	resultfile_release_all(rf, n);
	return status;
}
