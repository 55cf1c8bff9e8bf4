/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_COMPARE_COMPARESET_H
#define VB_COMPARE_COMPARESET_H

#include "compare/compare.h"

/*
 * struct compareset: what vfsbench compare prints, one comparison or
 * several. Files that each hold several variants (suite files: one
 * variant per workload; or runs with several -c) are compared variant
 * by variant: the variant of each file with the same label (a suite's
 * workload name) makes one comparison, its rows the client counts, so
 * MRPL of b.json is set against MRPL of a.json, never against a's first
 * workload. The correction runs over the tests of all of them. A label
 * that some files lack is listed in missing[]. Anything else (one file,
 * a file of one variant, sides given with "--", or files with no label
 * in common) is one comparison, as comparison_build() makes it.
 */
struct compareset {
	struct comparison *cmps; /* [ncmps] */
	unsigned int ncmps;
	bool paired; /* cmps[] are one per label */
	/* [ncmps] the label of each comparison when paired, else NULL */
	char **labels;
	/*
	 * [nmissing] one line per label some files lack: "NAME: only in
	 * 'a.json', not compared" when one file has it, else "NAME: not in
	 * 'c.json'" (every file that lacks it, ", " between them)
	 */
	char **missing;
	unsigned int nmissing;
};

/*
 * Read cc->files and build the comparisons. Returns 0, or what
 * comparison_build() returns (-1 with a message, -EINTR without); @set
 * needs compareset_release() either way; @cc must outlive it.
 */
int compareset_build(struct compareset *set, const struct compare_config *cc);

/*
 * The same of @n entries read already (taken over). The boots of a
 * vfsbench kernels file of several variants are compared variant by
 * variant too, the kernels the sides of each.
 */
int compareset_build_from(struct compareset *set,
			  const struct compare_config *cc,
			  struct resultfile *rf, unsigned int n);
void compareset_release(struct compareset *set);

#endif /* VB_COMPARE_COMPARESET_H */
