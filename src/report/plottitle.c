/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What every chart of vfsbench plot shares whatever it draws: the title
 * naming where its results were measured, and the choice of a linear or
 * a logarithmic y axis.
 */
#include <config.h>
#include "report/plottitle.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/escape.h"
#include "base/msg.h"
#include "report/gnuplot.h"

/* A decade: beyond it, small values lie flat on zero on a linear axis. */
#define LOG_SPAN 10.0

bool plot_y_is_log(enum plot_yscale mode, double bottom, double top)
{
	if (mode != PLOT_Y_AUTO)
		return mode == PLOT_Y_LOG;
	return bottom > 0 && top > bottom * LOG_SPAN;
}

/* The environment field @name of @rf ("kernel.release"), or NULL. */
static const char *env_value(const struct resultfile *rf, const char *name)
{
	const struct env_fields *f = &rf->env;

	for (unsigned int i = 0; i < f->n; i++)
		if (!strcmp(f->name[i], name))
			return strcmp(f->value[i], "null") ? f->value[i] : NULL;
	return NULL;
}

/* The value of @rf that a field shows (@env: an environment field). */
static const char *field_of(const struct resultfile *rf, const char *env)
{
	if (env)
		return env_value(rf, env);
	if (rf->kind == RESULTFILE_FDSCALE)
		return "fdscale";
	return rf->loadfile;
}

/*
 * " NAME V1, V2": the distinct values of a field over @n results, in
 * file order, onto @out; nothing when no result has one.
 */
static void title_field(FILE *out, const char *name, const char *env,
			const struct resultfile *rf, unsigned int n)
{
	const char *sep = "";

	for (unsigned int f = 0; f < n; f++) {
		const char *v = field_of(&rf[f], env);
		bool seen = false;
		char *shown;

		if (!v || !*v)
			continue;
		for (unsigned int g = 0; g < f && !seen; g++) {
			const char *w = field_of(&rf[g], env);

			seen = w && !strcmp(v, w);
		}
		if (seen)
			continue;
		/* escaped as every label is shown: no raw control bytes */
		shown = escape_shown(v);
		fprintf(out, "%s%s%s", *sep ? sep : "  ", *sep ? "" : name,
			shown);
		free(shown);
		sep = ", ";
	}
}

void plot_title(FILE *out, const struct resultfile *rf, unsigned int n)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *s = open_memstream(&buf, &len);

	if (!s)
		die("open_memstream: %s", strerror(errno));
	/* a chart holds results of runs or fdscale results, not both */
	title_field(s, n && rf[0].kind == RESULTFILE_FDSCALE ? "" : "loadfile ",
		    NULL, rf, n);
	title_field(s, "kernel ", "kernel.release", rf, n);
	title_field(s, "fs ", "target.fs_type", rf, n);
	title_field(s, "host ", "hostname", rf, n);
	if (fclose(s))
		die("open_memstream: %s", strerror(errno));
	/* the leading two spaces separate fields, not begin the title */
	gnuplot_string(out, len > 2 ? buf + 2 : "");
	free(buf);
}
