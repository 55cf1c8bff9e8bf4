/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_COMPARE_BOOTUNIT_H
#define VB_COMPARE_BOOTUNIT_H

#include <stdbool.h>

#include "compare/comparison.h"

/*
 * The boot as the unit of sampling. What differs between two boots of
 * one kernel (where its code, its slabs, the dentries and inodes landed)
 * moves VFS figures by several percent, and every run of a boot shares
 * it: the runs of one boot are not independent samples of the kernel.
 * Where a side ran in several boots, compare's sample is each boot's
 * centre of its runs, and it shows the spread between boots beside the
 * spread of the runs within one (doc/kernels.md).
 */

/*
 * The boots of @s's parts: distinct environment.boot_id values; the
 * parts of files without one (older files) count as one boot together.
 */
unsigned int bootunit_count(const struct comparison_side *s);

/* Whether @a and @b ran in the same boot (unknown counts as the same). */
bool bootunit_same(const struct resultfile *a, const struct resultfile *b);

/*
 * Cell @c of side @s at @clients, by boot: each boot's runs of @metric
 * pooled over its parts, their centre (the mean with @mean, else the
 * median) into c->v, c->s their summary, c->nboots, and the spreads:
 * c->between_cv of the centres, c->within_cv the runs' standard
 * deviation within a boot (pooled over the boots with two runs or more,
 * weighted by their degrees of freedom) over the runs' mean. c->v is
 * replaced; c->nruns and the flags stay as pooled by run.
 */
void bootunit_pool(struct comparison_cell *c, const struct comparison_side *s,
		   unsigned int clients, enum compare_metric metric, bool mean);

#endif /* VB_COMPARE_BOOTUNIT_H */
