/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The client-count sweep: one run per count, each reported as it ends,
 * then the table relative to the baseline count.
 */
#include <config.h>
#include "sweep.h"

#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "run.h"
#include "signals.h"
#include "util.h"

unsigned int sweep_rows_compute(struct sweep_row *rows, unsigned int n,
				enum metric metric)
{
	unsigned int base = 0;
	double bm;

	for (unsigned int i = 0; i < n; i++) {
		if (rows[i].clients == 1) {
			base = i;
			break;
		}
		if (rows[i].clients < rows[base].clients)
			base = i;
	}
	bm = metric == METRIC_MBPS ? rows[base].mb_s : rows[base].ops_s;
	for (unsigned int i = 0; i < n; i++) {
		double m = metric == METRIC_MBPS ? rows[i].mb_s : rows[i].ops_s;
		double scale = (double)rows[i].clients / rows[base].clients;

		rows[i].relative = bm > 0 ? m / bm : 0;
		rows[i].efficiency = rows[i].relative / scale;
	}
	return base;
}

static int exit_status(const struct run *run)
{
	switch (atomic_load(&run->end)) {
	case RUN_END_COMPLETE:
		return VB_EXIT_OK;
	case RUN_END_STRICT:
	case RUN_END_MAX_ERRORS:
		return VB_EXIT_UNEXPECTED;
	case RUN_END_SIGNAL:
		return signals.last == SIGTERM ? VB_EXIT_SIGTERM :
						 VB_EXIT_SIGINT;
	case RUN_END_FAILED:
		break;
	}
	return VB_EXIT_RUNTIME;
}

int sweep_execute(struct sweep *sw, const struct config *cfg,
		  const struct loadfile *lf, const struct engine *engine,
		  struct workdir *wd)
{
	int status = VB_EXIT_OK;

	memset(sw, 0, sizeof(*sw));
	sw->cfg = cfg;
	sw->runs = xcalloc(cfg->nclients, sizeof(*sw->runs));
	report_header(cfg, lf, wd);
	for (unsigned int i = 0; i < cfg->nclients; i++) {
		struct run *run = &sw->runs[i];
		int ret;

		run_init(run, cfg, lf, engine, cfg->clients[i], i);
		sw->nruns++;
		ret = run_execute(run, wd);
		if (atomic_load(&run->end) != RUN_END_FAILED)
			report_run(run);
		status = exit_status(run);
		if (ret && status == VB_EXIT_OK)
			status = VB_EXIT_RUNTIME;
		if (status != VB_EXIT_OK)
			break;
	}
	report_sweep(sw);
	return status;
}

void sweep_release(struct sweep *sw)
{
	for (unsigned int i = 0; i < sw->nruns; i++)
		run_release(&sw->runs[i]);
	free(sw->runs);
	memset(sw, 0, sizeof(*sw));
}
