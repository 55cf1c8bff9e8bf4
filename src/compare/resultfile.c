/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * struct resultfile's lifetime and its figures by metric. Reading a
 * result file back is resultread.c's (with resultsweep.c, resultfdscale.c
 * and jsonfield.c under it), labels resultlabel.c's, the settings in
 * which two results differ resultdiff.c's: all declared in resultfile.h.
 */
#include <config.h>
#include "compare/resultfile.h"

#include <math.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

void resultfile_release(struct resultfile *rf)
{
	struct resultfile_settings *s = &rf->set;

	for (unsigned int i = 0; i < rf->npoints; i++) {
		free(rf->points[i].ops_s);
		free(rf->points[i].mb_s);
		free(rf->points[i].p99_ns);
		free(rf->points[i].index);
		free(rf->points[i].starved);
		free(rf->points[i].idle);
		free(rf->points[i].unasked);
		free(rf->points[i].bound);
	}
	free(rf->points);
	free(rf->fdsteps);
	json_decref(rf->profiles);
	env_fields_release(&rf->env);
	free(s->engine);
	free(s->cwd);
	free(s->fs_struct);
	free(s->fd_table);
	free(s->dcache);
	free(s->walk_resolve);
	free(s->walk_prefix);
	free(s->warmup_kind);
	free(s->dialect);
	free(s->fsinfo);
	free(rf->loadfile);
	free(rf->sha256);
	free(rf->label);
	free(rf->variant_label);
	free(rf->boot_id);
	free(rf->kernel_label);
	free(rf->path);
	memset(rf, 0, sizeof(*rf));
}

void resultfile_release_all(struct resultfile *rf, unsigned int n)
{
	for (unsigned int i = 0; rf && i < n; i++)
		resultfile_release(&rf[i]);
	free(rf);
}

const double *resultfile_values(const struct resultfile_point *pt,
				enum compare_metric metric)
{
	switch (metric) {
	case CMP_MBPS:
		return pt->mb_s;
	case CMP_P99:
		return pt->p99_ns;
	case CMP_OPS:
		break;
	}
	return pt->ops_s;
}

static double larger(double a, double b)
{
	return a > b ? a : b;
}

double resultfile_bound(const struct resultfile_flags *fl)
{
	double f = 1;

	if (fl->starved) {
		/* a share not recorded bounds nothing */
		if (fl->cpu_share < 0 && fl->wait_share < 0)
			return INFINITY;
		if (fl->cpu_share >= 0)
			f = larger(f, fl->cpu_share > 0 ? 1 / fl->cpu_share :
							  INFINITY);
		if (fl->wait_share >= 0)
			f = larger(f, fl->wait_share < 1 ?
					      1 / (1 - fl->wait_share) :
					      INFINITY);
	}
	if (fl->idle)
		f = larger(f, fl->idle < fl->clients ?
				      (double)fl->clients /
					      (double)(fl->clients - fl->idle) :
				      INFINITY);
	if (fl->unasked)
		f = larger(f, fl->stretch);
	return f;
}
