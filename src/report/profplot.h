/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_REPORT_PROFPLOT_H
#define VB_REPORT_PROFPLOT_H

struct resultfile;

/*
 * vfsbench plot --profile: the stacked chart of @rf's profiles, a bar per
 * profiled client count, each top symbol's share of the samples stacked
 * (the symbols with the largest share at any count, the rest as
 * "other"), drawn by gnuplot into @output. Returns an exit status: 0; 2
 * when @rf has no profiles; 3 when gnuplot fails.
 */
int profplot_draw(const struct resultfile *rf, const char *output);

#endif /* VB_REPORT_PROFPLOT_H */
