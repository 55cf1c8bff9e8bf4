/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_COMPARE_PROFDIFF_H
#define VB_COMPARE_PROFDIFF_H

#include <stdbool.h>
#include <stdint.h>

#include "stats/padjust.h"

struct resultfile;

/*
 * struct profdiff: the profiles of two result files side by side: per
 * client count both profiled, each symbol's (self) and each lock chain's
 * ("LOCK <- ENTRY") share of the samples in A and in B, and whether the
 * change is beyond what the sample counts allow: a two-proportion z-test
 * (pooled, two-sided) on the counts, the p-values corrected over the
 * table, a change under PROFDIFF_MIN_CHANGE never marked.
 */
struct profdiff_row {
	unsigned int clients;
	char *key; /* the symbol, or "LOCK <- ENTRY" */
	bool chain;
	uint64_t a, b; /* samples */
	uint64_t na, nb; /* of these */
	bool known_a, known_b; /* false: not among the file's listed ones */
	double p, p_adj; /* NaN: not tested */
	bool marked;
};

struct profdiff {
	const char *label_a, *label_b;
	char *event; /* both sampled it */
	struct profdiff_row *rows;
	unsigned int nrows;
	enum padjust_method correction;
	double alpha;
};

/* The rows of a count: each side's top symbols and lock chains. */
#define PROFDIFF_TOP_SYMBOLS 10
#define PROFDIFF_TOP_CHAINS  5

/* Changes smaller than this share (1 point of percentage) are not marked. */
#define PROFDIFF_MIN_CHANGE 0.01

/*
 * Compare the profiles of @a and @b at each client count both have;
 * @alpha: mark below it after @correction. Returns 0 (no rows: neither
 * or only one has profiles), or -EINVAL with a message when their events
 * differ: two profiles of different events are not like for like.
 */
int profdiff_build(struct profdiff *pd, const struct resultfile *a,
		   const struct resultfile *b, enum padjust_method correction,
		   double alpha);

void profdiff_release(struct profdiff *pd);

#endif /* VB_COMPARE_PROFDIFF_H */
