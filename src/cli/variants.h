/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_CLI_VARIANTS_H
#define VB_CLI_VARIANTS_H

#include "lang/loadfile.h"
#include "run/runconfig.h"
#include "sys/placement.h"

/*
 * The variants of one invocation: -c given several times and each
 * --variant NAME=V1,V2,... multiply into one variant per combination
 * (the first -c with every value of the first --variant, then the next
 * ...), labelled by what they differ in ("statfs", "depth=3",
 * "statfs,depth=3"). Each round of the sweep runs all of them.
 */

/* The most variants one invocation may have. */
#define MAX_VARIANTS 64

/* One --variant (or the -c list): the option it varies and its values. */
struct variant_axis {
	int opt; /* the option's OPT_ value (optvalue.h) */
	char *name; /* the option's long name, "depth" */
	char **values; /* [nvalues], owned */
	unsigned int nvalues;
};

/* One variant, as main() runs it. */
struct variant_config {
	char *label;
	char *loadfile; /* -c */
	char *engine;
	struct run_config run; /* the sweep's, with this variant's settings */
	struct loadfile_opts lopts;
	char *placement_spec; /* --placement as given */
	struct placement placement; /* run.placement points here */
};

/*
 * Split "NAME=V1,V2,..." into @axis->name and its values; @axis->opt is
 * left to the caller. Returns 0, or -1 when there is no '=', no name, or
 * an empty value.
 */
int variant_axis_parse(struct variant_axis *axis, const char *spec);
void variant_axis_release(struct variant_axis *axis);

/*
 * The number of combinations of @n axes, or 0 when it is above
 * MAX_VARIANTS.
 */
unsigned int variant_count(const struct variant_axis *axes, unsigned int n);

/*
 * For combination @k, the value index of each axis into @idx[n]: the
 * first axis varies slowest.
 */
void variant_pick(const struct variant_axis *axes, unsigned int n,
		  unsigned int k, unsigned int *idx);

/*
 * The label of the combination @idx: for the -c axis (@loadfile_opt),
 * the loadfile's name without its directory and ".load"; for others
 * "NAME=VALUE"; joined by ','. Without axes, that of @loadfile. Labels
 * that repeat are made unique by variant_labels_unique(): "#N", N the
 * variant's position, 1-based.
 */
char *variant_label(const struct variant_axis *axes, unsigned int n,
		    const unsigned int *idx, int loadfile_opt,
		    const char *loadfile);
void variant_labels_unique(struct variant_config *v, unsigned int n);

void variant_config_release(struct variant_config *v);

#endif /* VB_CLI_VARIANTS_H */
