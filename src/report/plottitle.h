/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_REPORT_PLOTTITLE_H
#define VB_REPORT_PLOTTITLE_H

#include <stdbool.h>
#include <stdio.h>

#include "compare/resultfile.h"

/*
 * How a chart's y axes are chosen: by the span of what they show (log
 * when it exceeds a decade), or as --log-y or --linear-y says.
 */
enum plot_yscale {
	PLOT_Y_AUTO,
	PLOT_Y_LOG,
	PLOT_Y_LINEAR,
};

/*
 * Whether a y axis showing values from @bottom to @top (the smallest and
 * largest positive ones) is logarithmic under @mode.
 */
bool plot_y_is_log(enum plot_yscale mode, double bottom, double top);

/*
 * What a chart of @n results was measured on, as a gnuplot string
 * (escaped by gnuplot_string()): "loadfile L1, L2  kernel K  fs F  host H",
 * each distinct value once in file order, a field no file records left
 * out. fdscale results have no loadfile: "fdscale" stands for it,
 * without "loadfile ".
 */
void plot_title(FILE *out, const struct resultfile *rf, unsigned int n);

#endif /* VB_REPORT_PLOTTITLE_H */
