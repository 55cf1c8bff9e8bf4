/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The components a variant's lookups walk, for the text report's setup
 * line and the JSON's "walk".
 */
#include <config.h>
#include "report/walk.h"

#include "lang/loadfile.h"
#include "report/report.h"
#include "run/clientdir.h"
#include "run/runconfig.h"

/* The components of a loadfile path: "a/b/../c" is 4, "." is 1. */
static unsigned int components(const char *p)
{
	unsigned int n = 0;

	for (; *p; p++)
		if (*p != '/' && (p[1] == '/' || p[1] == '\0'))
			n++;
	return n;
}

void walk_figures(struct walk_figures *w, const struct report_config *rc,
		  const struct run_config *cfg, const struct loadfile *lf)
{
	const struct op *ops = loadfile_run_ops(lf);
	unsigned int paths = 0;
	double sum = 0;

	w->added = clientdir_walk_components(cfg, cfg->resolve == RESOLVE_ABS);
	w->mounts = 0;
	if (cfg->resolve == RESOLVE_ABS) {
		w->added += rc->abs_components;
		w->mounts = rc->abs_mounts;
	}
	for (unsigned int i = 0; i < loadfile_run_nops(lf); i++) {
		if (!op_resolves(ops[i].id) || !ops[i].path)
			continue;
		/* a symlink resolves its second path, not its target */
		sum += components(ops[i].id == OP_SYMLINK ? ops[i].path2 :
							    ops[i].path);
		paths++;
	}
	w->own = paths ? sum / paths : 0;
}

const char *walk_prefix(const struct run_config *cfg)
{
	/* dbench's tree, clientN/d/d/...: --cwd and --prefix unused */
	if (cfg->dbench_tree)
		return "private";
	return cfg->prefix == PREFIX_SHARED || cfg->cwd == CWD_SHARED ?
		       "shared" :
		       "private";
}
