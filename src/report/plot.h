/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_REPORT_PLOT_H
#define VB_REPORT_PLOT_H

#include <stdbool.h>

#include "compare/resultfile.h"
#include "report/plottitle.h"

/* vfsbench plot FILE.json... -o chart.svg|png */
struct plot_config {
	enum compare_metric metric;
	enum plot_yscale yscale; /* --log-y, --linear-y, else by the span */
	bool profile; /* --profile: the stacked chart of one file's profiles */
	char *output;
	char **files; /* owned */
	unsigned int nfiles;
};

/*
 * vfsbench plot FILE.json... -o CHART.svg|png: for run results,
 * throughput and scaling relative to the baseline against client count,
 * with error bars; for fdscale results, the best and worst open() cost
 * against the number of open fds. One line per file, drawn by gnuplot (an
 * optional run-time dependency). Returns an exit status: 0; 2 when a file
 * cannot be read; 3 when gnuplot is missing (the message says how to
 * install it) or fails. A signal while the files are read (a FIFO's open
 * blocks) draws nothing: the caller looks at signals.count.
 */
int plot_files(const struct plot_config *pc);

#endif /* VB_REPORT_PLOT_H */
