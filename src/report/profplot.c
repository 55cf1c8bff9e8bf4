/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The profile chart: which symbols the time went to, as the client count
 * grows, one stacked bar per profiled count (JSON "profiles").
 */
#include <config.h>
#include "report/profplot.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/exit.h"
#include "base/msg.h"
#include "compare/resultfile.h"
#include "report/gnuplot.h"

/* The symbols stacked; the rest is "other". */
#define PROFPLOT_SYMBOLS 8

static int by_clients(const void *a, const void *b)
{
	json_int_t x = json_integer_value(
		json_object_get(*(json_t *const *)a, "clients"));
	json_int_t y = json_integer_value(
		json_object_get(*(json_t *const *)b, "clients"));

	return (x > y) - (x < y);
}

/* @sym's share in profile @p; 0 when not listed. */
static double share_of(json_t *p, const char *sym)
{
	json_t *e;
	size_t i;

	for (i = 0; (e = json_array_get(json_object_get(p, "symbols"), i)); i++)
		if (!strcmp(json_string_value(json_object_get(e, "symbol")) ?:
									      "",
			    sym))
			return json_real_value(json_object_get(e, "share"));
	return 0;
}

int profplot_draw(const struct resultfile *rf, const char *output)
{
	size_t np = rf->profiles ? json_array_size(rf->profiles) : 0, len;
	const char *sym[PROFPLOT_SYMBOLS];
	double best[PROFPLOT_SYMBOLS];
	unsigned int ns = 0;
	json_t **p, *e;
	char *buf = NULL;
	FILE *out;

	if (!np) {
		error("'%s' has no profiles (vfsbench --profile ... --json): nothing to plot",
		      rf->path);
		return VB_EXIT_USAGE;
	}
	p = xcalloc(np, sizeof(*p));
	for (size_t i = 0; i < np; i++)
		p[i] = json_array_get(rf->profiles, i);
	qsort(p, np, sizeof(*p), by_clients);
	/* the symbols with the largest share at any count */
	for (size_t i = 0; i < np; i++) {
		size_t k;

		for (k = 0;
		     (e = json_array_get(json_object_get(p[i], "symbols"), k));
		     k++) {
			const char *s =
				json_string_value(json_object_get(e, "symbol"));
			double v = json_real_value(json_object_get(e, "share"));
			unsigned int at = ns, j;

			if (!s)
				continue;
			for (j = 0; j < ns && strcmp(sym[j], s); j++)
				;
			if (j < ns) {
				if (v > best[j])
					best[j] = v;
				continue;
			}
			if (ns == PROFPLOT_SYMBOLS) {
				at = 0;
				for (j = 1; j < ns; j++)
					if (best[j] < best[at])
						at = j;
				if (best[at] >= v)
					continue;
			} else {
				ns++;
			}
			sym[at] = s;
			best[at] = v;
		}
	}
	out = gnuplot_begin(&buf, &len, output, 1024, 600);
	fprintf(out, "$d << EOD\n");
	for (size_t i = 0; i < np; i++) {
		double other = 100;

		fprintf(out, "%lld",
			(long long)json_integer_value(
				json_object_get(p[i], "clients")));
		for (unsigned int j = 0; j < ns; j++) {
			double v = 100 * share_of(p[i], sym[j]);

			fprintf(out, " %.6f", v);
			other -= v;
		}
		fprintf(out, " %.6f\n", other > 0 ? other : 0);
	}
	fprintf(out, "EOD\n");
	fprintf(out,
		"set style data histograms\nset style histogram rowstacked\n");
	fprintf(out, "set style fill solid 0.85 border -1\nset boxwidth 0.7\n");
	fprintf(out, "set key outside right\nset grid y\nset yrange [0:100]\n");
	fprintf(out,
		"set xlabel \"clients\"\nset ylabel \"share of the samples (%%)\"\n");
	fprintf(out, "set title ");
	gnuplot_string(out, "where the time goes: self samples by symbol");
	fprintf(out, "\nplot");
	for (unsigned int j = 0; j <= ns; j++) {
		/* "other" grey: gnuplot's 8 colours would come round again */
		fprintf(out, "%s $d using %u%s %s title ", j ? "," : "", j + 2,
			j ? "" : ":xtic(1)",
			j < ns ? "" : "lc rgb \"#c0c0c0\"");
		gnuplot_string(out, j < ns ? sym[j] : "other");
	}
	fprintf(out, "\n");
	gnuplot_end(out);
	free(p);
	return gnuplot_draw(buf, len, output) ? VB_EXIT_RUNTIME : VB_EXIT_OK;
}
