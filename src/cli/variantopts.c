/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The options about variants: each --variant checked as it is given, and
 * after the parse the variants themselves, each the base settings with
 * its values applied through the option's own handler (optvalue.c). The
 * cross product and the labels are variants.c's.
 */
#include <config.h>
#include "cli/variantopts.h"

#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/compiler.h"
#include "cli/optvalue.h"
#include "cli/variants.h"

/* The options --variant may vary, and the option each stands for. */
static const struct {
	const char *name;
	int opt;
} variable[] = {
	{ "engine", OPT_ENGINE },
	{ "cwd", OPT_CWD },
	{ "fs-struct", OPT_FS },
	{ "fd-table", OPT_FDT },
	{ "depth", OPT_DEPTH },
	{ "dialect", OPT_DIALECT },
	{ "fsinfo", OPT_FSINFO },
	{ "placement", OPT_PLACEMENT },
	{ "prefix", OPT_PREFIX },
	{ "resolve", OPT_RESOLVE },
	{ "dcache", OPT_DCACHE },
	{ "uring-depth", OPT_URING_DEPTH },
	{ "uring-fixed", OPT_URING_FIXED },
};

enum options_action variantopts_axis(struct config *cfg, const char *arg)
{
	struct variant_axis axis;
	unsigned int i;

	if (variant_axis_parse(&axis, arg))
		return usage_error(
			"bad --variant '%s': expected OPTION=V1,V2,..., such as depth=0,3",
			arg);
	for (i = 0; i < ARRAY_SIZE(variable); i++)
		if (!strcmp(variable[i].name, axis.name))
			break;
	if (i == ARRAY_SIZE(variable)) {
		variant_axis_release(&axis);
		return usage_error(
			"bad --variant '%s': expected one of engine, cwd, fs-struct, fd-table, depth, prefix, resolve, dialect, fsinfo, placement, dcache, uring-depth, uring-fixed (for loadfiles, give -c several times)",
			arg);
	}
	for (unsigned int a = 0; a < cfg->naxes; a++)
		if (cfg->axes[a].opt == variable[i].opt) {
			variant_axis_release(&axis);
			return usage_error("--variant %s given twice",
					   variable[i].name);
		}
	if (axis.nvalues < 2) {
		variant_axis_release(&axis);
		return usage_error(
			"bad --variant '%s': give two values or more (one value is the option itself: --%s)",
			arg, variable[i].name);
	}
	axis.opt = variable[i].opt;
	cfg->fsinfo_varies = cfg->fsinfo_varies || axis.opt == OPT_FSINFO;
	cfg->axes = xrealloc(cfg->axes, (cfg->naxes + 1) * sizeof(*cfg->axes));
	cfg->axes[cfg->naxes++] = axis;
	return OPTIONS_RUN;
}

/*
 * --uring-depth above 1: lanes are io_uring's, each with its own handles
 * (a fixed file table has one slot per handle) and its own directory
 * (--dcache negative's names are made in the thread's cwd). @label:
 * the variant's, NULL when there is one.
 */
static enum options_action check_lanes(const struct config *cfg,
				       const char *label)
{
	const char *why = NULL;

	if (cfg->run.uring_depth <= 1)
		return OPTIONS_RUN;
	if (strcmp(cfg->engine, "uring"))
		why = "--engine uring: lanes are a ring's ops in flight";
	else if (cfg->run.uring_fixed)
		why = "no --uring-fixed: the lanes would share the ring's slots";
	else if (cfg->run.dcache == DCACHE_NEGATIVE)
		why = "no --dcache negative: it is made in one cwd per thread";
	if (!why)
		return OPTIONS_RUN;
	if (label)
		return usage_error("variant %s: --uring-depth %u needs %s",
				   label, cfg->run.uring_depth, why);
	return usage_error("--uring-depth %u needs %s", cfg->run.uring_depth,
			   why);
}

/*
 * Variant @k of the cross product: the base settings, with each axis's
 * value applied through the option's own handler (so a bad value gets
 * the option's own message), and the defaults and checks that depend on
 * them.
 */
static enum options_action make_variant(struct config *cfg,
					const struct variant_axis *axes,
					unsigned int n, unsigned int k,
					bool fs_set, struct variant_config *v)
{
	enum options_action act = OPTIONS_RUN;
	struct config scratch = *cfg;
	unsigned int idx[8];
	bool unused;

	scratch.loadfile = xstrdup(cfg->loadfile);
	scratch.engine = xstrdup(cfg->engine);
	scratch.placement = cfg->placement ? xstrdup(cfg->placement) : NULL;
	variant_pick(axes, n, k, idx);
	for (unsigned int i = 0; i < n && act == OPTIONS_RUN; i++) {
		const char *val = axes[i].values[idx[i]];

		if (axes[i].opt == OPT_LOADFILE) {
			free(scratch.loadfile);
			scratch.loadfile = xstrdup(val);
		} else {
			act = optvalue_apply(&scratch, axes[i].opt, val,
					     &unused, &unused, &unused);
		}
	}
	v->label = variant_label(axes, n, idx, OPT_LOADFILE, cfg->loadfile);
	v->loadfile = scratch.loadfile;
	v->engine = scratch.engine;
	v->placement_spec = scratch.placement;
	if (act != OPTIONS_RUN)
		return act;
	if (!fs_set)
		scratch.run.fs =
			scratch.run.cwd == CWD_SHARED ? FS_SHARED : FS_PRIVATE;
	if (scratch.run.cwd == CWD_PRIVATE && scratch.run.fs == FS_SHARED)
		return usage_error(
			"variant %s: --fs-struct shared needs --cwd shared: with one fs_struct all clients have one cwd",
			v->label);
	for (unsigned int i = 0; i < OP_NR; i++)
		if (cfg->null_fail[i] && strcmp(v->engine, "null"))
			return usage_error(
				"variant %s: --null-fail needs --engine null",
				v->label);
	act = check_lanes(&scratch, n ? v->label : NULL);
	if (act != OPTIONS_RUN)
		return act;
	v->run = scratch.run;
	v->lopts = scratch.lopts;
	return OPTIONS_RUN;
}

/*
 * --uring-strict and --uring-fixed say how the uring engine runs: with
 * no variant on it they would be ignored, so they are refused.
 */
static enum options_action check_uring_only(const struct config *cfg)
{
	const char *opt = cfg->run.uring_fixed	? "--uring-fixed" :
			  cfg->run.uring_strict ? "--uring-strict" :
						  NULL;

	for (unsigned int a = 0; a < cfg->naxes; a++)
		if (cfg->axes[a].opt == OPT_URING_FIXED)
			opt = "--variant uring-fixed";

	if (!opt)
		return OPTIONS_RUN;
	for (unsigned int k = 0; k < cfg->nvariants; k++)
		if (!strcmp(cfg->variants[k].engine, "uring"))
			return OPTIONS_RUN;
	return usage_error("%s needs --engine uring (or a variant on it)", opt);
}

/* The variants: every -c times every --variant value; at least one. */
enum options_action variantopts_build(struct config *cfg, bool fs_set,
				      bool order_set)
{
	struct variant_axis axes[8];
	unsigned int n = 0;
	enum options_action act = OPTIONS_RUN;

	if (cfg->nloadfiles > 1)
		axes[n++] = (struct variant_axis){ .opt = OPT_LOADFILE,
						   .name = (char *)"loadfile",
						   .values = cfg->loadfiles,
						   .nvalues = cfg->nloadfiles };
	for (unsigned int i = 0; i < cfg->naxes && n < ARRAY_SIZE(axes); i++)
		axes[n++] = cfg->axes[i];
	cfg->nvariants = variant_count(axes, n);
	if (!cfg->nvariants)
		return usage_error(
			"too many variants: -c and --variant make more than %d",
			MAX_VARIANTS);
	cfg->variants = xcalloc(cfg->nvariants, sizeof(*cfg->variants));
	for (unsigned int k = 0; k < cfg->nvariants && act == OPTIONS_RUN; k++)
		act = make_variant(cfg, axes, n, k, fs_set, &cfg->variants[k]);
	if (act == OPTIONS_RUN)
		act = check_uring_only(cfg);
	variant_labels_unique(cfg->variants, cfg->nvariants);
	if (cfg->nvariants > 1 && !order_set) {
		cfg->run.order = ORDER_SHUFFLED;
		for (unsigned int k = 0; k < cfg->nvariants; k++)
			cfg->variants[k].run.order = ORDER_SHUFFLED;
	}
	return act;
}
