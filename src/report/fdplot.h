/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_REPORT_FDPLOT_H
#define VB_REPORT_FDPLOT_H

#include "compare/resultfile.h"
#include "report/plottitle.h"

/*
 * The chart of @n fdscale results into @output, its y axis chosen by
 * @yscale: an exit status, 0, 2 when no file has a step, 3 when gnuplot
 * fails (see gnuplot_draw()).
 */
int fdplot_draw(struct resultfile *rf, unsigned int n, enum plot_yscale yscale,
		const char *output);

#endif /* VB_REPORT_FDPLOT_H */
