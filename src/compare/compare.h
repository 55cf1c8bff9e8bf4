/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_COMPARE_COMPARE_H
#define VB_COMPARE_COMPARE_H

#include <stdbool.h>

#include "compare/comparison.h"
#include "compare/marks.h"
#include "compare/resultfile.h"
#include "stats/mannwhitney.h"

/*
 * vfsbench compare: reads the result files, makes one side per variant of
 * each file (or of each group of files, pooled), and works out one row
 * per client count and one column per side, each value relative to A's
 * baseline, with the change against A at the same count, its interval,
 * the test, the correction over the table, and '?' where starved or idle
 * runs or drift make a row untrustworthy; report_compare() prints it.
 * Warns loudly when sides were not measured alike. Returns 0, or -1 with
 * a message when a file cannot be read or is not a vfsbench result, or
 * A has no complete run, or -EINTR without one when a signal ended the
 * read of a file (a FIFO's). @cmp needs comparison_release() either way; @cc
 * must outlive it.
 */
int comparison_build(struct comparison *cmp, const struct compare_config *cc);

/*
 * The same for @n entries read already, or made from a sweep (a run's
 * variants): @rf is taken over, and released by comparison_release().
 * Each entry is a side of its own unless cc->group says otherwise.
 */
int comparison_build_from(struct comparison *cmp,
			  const struct compare_config *cc,
			  struct resultfile *rf, unsigned int n);

/*
 * The parts of comparison_build(): comparison_read() reads cc->files
 * into *@rf (*@n entries, one per variant; every bad file reported,
 * then nothing returned); comparison_prepare() is comparison_build_from()
 * but for the marks, which comparison_mark() (marks.h) sets with one
 * correction over the tested cells of all @n comparisons, as a table
 * split in several is still one family of tests.
 */
int comparison_read(const struct compare_config *cc, struct resultfile **rf,
		    unsigned int *n);
int comparison_prepare(struct comparison *cmp, const struct compare_config *cc,
		       struct resultfile *rf, unsigned int n);
void comparison_release(struct comparison *cmp);

#endif /* VB_COMPARE_COMPARE_H */
