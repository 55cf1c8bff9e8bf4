/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_COMPARE_COMPARE_H
#define VB_COMPARE_COMPARE_H

#include "compare/resultfile.h"
#include "stats/summary.h"
#include "stats/welch.h"

/* vfsbench compare A.json B.json [C.json ...] */
struct compare_config {
	enum compare_metric metric;
	double confidence; /* 0.95 */
	char **files; /* owned */
	unsigned int nfiles;
};

/* Runs a side needs before compare runs the t-test. */
#define COMPARE_MIN_RUNS 3

/* What one cell of the table holds. */
enum cell_state {
	CELL_MISSING, /* the file has no complete run at this count: "-" */
	CELL_BASE, /* file A: the value only, no change or test */
	CELL_NO_REF, /* A has no result at this count: the value only */
	CELL_FEW, /* a side has fewer than COMPARE_MIN_RUNS runs: no test */
	CELL_TESTED, /* change and Welch's t-test */
};

/*
 * One file at one client count: the summary of the metric over the file's
 * complete runs, the mean relative to A's baseline, and against A at the
 * same count the change in percent (NaN where A's mean is 0) and, for
 * CELL_TESTED, the test.
 */
struct comparison_cell {
	enum cell_state state;
	struct summary s;
	double relative; /* s.mean / baseline; NaN when the baseline is 0 */
	double change; /* CELL_FEW, CELL_TESTED: % vs A, NaN if A's mean is 0 */
	struct welch w; /* CELL_TESTED only */
};

/*
 * struct comparison: what vfsbench compare found, for report_compare().
 * files[0] is A, the reference. clients holds every client count that
 * some file has a complete run of, ascending. cells is a clients x files
 * matrix, row-major: cell (row r, file f) is cells[r * nfiles + f]. The
 * baseline is A's mean at baseline_clients: 1 client, or A's smallest count
 * when A has no 1-client result. notlike[f] (NULL for A and for files measured
 * like A) lists the settings in which file f differs from A.
 */
struct comparison {
	enum compare_metric metric;
	double confidence; /* 0.95 */
	struct resultfile *files; /* [nfiles], owned */
	unsigned int nfiles;
	unsigned int *clients; /* [nclients] */
	unsigned int nclients;
	unsigned int baseline_clients;
	double baseline; /* A's mean at baseline_clients */
	struct comparison_cell *cells; /* [nclients * nfiles] */
	char **notlike; /* [nfiles] */
};

static inline const struct comparison_cell *
comparison_cell(const struct comparison *cmp, unsigned int row,
		unsigned int file)
{
	return &cmp->cells[row * cmp->nfiles + file];
}

/*
 * vfsbench compare A.json B.json [C.json ...]: reads the result files and
 * works out one row per client count and one column per file, each value
 * relative to A's baseline (A at 1 client, or A's smallest count), with
 * the change against A at the same count and a significance mark from
 * Welch's t-test; report_compare() prints it. Warns loudly when the files
 * were not measured alike. Returns 0, or -1 with a message when a file
 * cannot be read or is not a vfsbench result, or A has no complete run.
 * @cmp needs comparison_release() either way.
 */
int comparison_build(struct comparison *cmp, const struct compare_config *cc);
void comparison_release(struct comparison *cmp);

#endif /* VB_COMPARE_COMPARE_H */
