/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_SWEEP_H
#define VB_SWEEP_H

#include "options.h"

struct engine;
struct loadfile;
struct run;
struct workdir;

/*
 * struct sweep: one run per client count of the command line, in order,
 * and the table relative to the baseline (the 1-client run, or the
 * smallest client count when 1 is not in the list).
 */
struct sweep {
	const struct config *cfg;
	struct run *runs; /* [nruns], each with its merged result */
	unsigned int nruns;
};

/* One row of the sweep table. */
struct sweep_row {
	unsigned int clients;
	double ops_s;
	double mb_s;
	double relative; /* metric / baseline metric */
	double efficiency; /* relative / (clients / baseline clients) */
};

/*
 * Run every client count. Prints each run's report as it completes. Stops
 * early on a signal, a failed setup or an end forced by --strict or
 * --max-errors. Returns the exit status for main().
 */
int sweep_execute(struct sweep *sw, const struct config *cfg,
		  const struct loadfile *lf, const struct engine *engine,
		  struct workdir *wd);

/*
 * Fill relative and efficiency of @rows from clients, ops_s and mb_s,
 * against the baseline row, whose index is returned. Pure arithmetic,
 * unit-tested. A baseline metric of 0 gives relative 0.
 */
unsigned int sweep_rows_compute(struct sweep_row *rows, unsigned int n,
				enum metric metric);

void sweep_release(struct sweep *sw);

#endif /* VB_SWEEP_H */
