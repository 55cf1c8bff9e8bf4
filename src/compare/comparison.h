/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_COMPARE_COMPARISON_H
#define VB_COMPARE_COMPARISON_H

#include <stdbool.h>

#include "compare/resultfile.h"
#include "stats/padjust.h"
#include "stats/summary.h"
#include "stats/trend.h"

/*
 * The types of vfsbench compare (compare.h): its settings and the table
 * it works out, apart from the functions, so that the files that fill
 * parts of it (bootunit.c) need not include compare.h.
 */

/* The test behind a mark. */
enum compare_test {
	TEST_MWU, /* Mann-Whitney U, with the Hodges-Lehmann interval */
	TEST_WELCH, /* Welch's t, with the t interval of the means */
};

/*
 * vfsbench compare A.json B.json [C.json ...], or with sides of several
 * files, A1.json A2.json -- B1.json B2.json.
 */
struct compare_config {
	enum compare_metric metric;
	enum compare_test test;
	/* --test given: else Welch's where boots are the unit (below) */
	bool test_given;
	enum padjust_method correction;
	double confidence; /* 0.95 */
	/* |change| below this (0.01: 1%) is never marked */
	double threshold;
	bool pvalues; /* print each cell's p-value */
	char **files; /* owned */
	unsigned int nfiles;
	/*
	 * [nfiles]: the side (group) of each file, from 0; NULL when no
	 * "--" was given and every file is a side of its own.
	 */
	unsigned int *group;
	unsigned int ngroups;
};

/* Runs (or boots) a side needs before compare runs Welch's t-test. */
#define COMPARE_MIN_RUNS 3

/* The default of --threshold: 1%. */
#define COMPARE_THRESHOLD 0.01

/* What one cell of the table holds. */
enum cell_state {
	CELL_MISSING, /* the side has no complete run at this count: "-" */
	CELL_BASE, /* side A: the value and its spread, no change or test */
	CELL_NO_REF, /* A has no result at this count: the value only */
	CELL_FEW, /* too few runs for the test to reach the level: no test */
	CELL_TESTED, /* change, interval and test */
};

enum cell_mark {
	MARK_NONE, /* not tested */
	MARK_SIGNIFICANT, /* '*' */
	MARK_NOT, /* '~' */
	MARK_SUSPECT, /* '?': see the reasons */
};

/*
 * Why a tested cell is '?' (bits of comparison_cell.suspect), or what the
 * notes say of it (comparison_cell.alike: flagged runs on sides that ran
 * interleaved, spread over both alike).
 */
enum {
	SUSPECT_STARVED = 1, /* runs of A or of the side were starved */
	SUSPECT_IDLE = 2, /* runs with clients that measured no op */
	SUSPECT_DRIFT = 4, /* A's or the side's runs drift over their order */
	/* runs that were not the run asked for (runs[].incomplete) */
	SUSPECT_INCOMPLETE = 8,
	/*
	 * A and the side ran on different boots, one boot each: a boot's
	 * layout alone moves VFS results by several percent, so a change
	 * cannot be told from the boot (doc/kernels.md)
	 */
	SUSPECT_ONE_BOOT = 16,
};

/*
 * One side at one client count: its runs' values pooled over the side's
 * files, their summary, the centre (the median for the rank test, the
 * mean for Welch's), the centre relative to A's baseline and, against A
 * at the same count, the relative change with its interval and the test.
 */
struct comparison_cell {
	enum cell_state state;
	/*
	 * [s.n] the runs' values; where boots are the unit
	 * (comparison.by_boot), each boot's centre of its runs
	 */
	double *v;
	struct summary s;
	unsigned int nruns; /* the runs pooled (s.n but by boot) */
	unsigned int nboots; /* the boots they ran in (1: unknown, or one) */
	/*
	 * By boot: the coefficients of variation between the boots'
	 * centres and of the runs within a boot (pooled over the boots
	 * with two runs or more; NaN where none has)
	 */
	double between_cv, within_cv;
	double centre;
	double relative; /* centre / baseline; NaN when the baseline is 0 */
	unsigned int starved, idle, unasked; /* runs flagged, of s.n */
	/* the largest factor its flagged runs could account for (1: none
	 * flagged; resultfile_bound()) */
	double bound;
	/* CELL_FEW, CELL_TESTED: */
	/* centre / A's centre - 1: 0.12 for +12%; NaN if A's is 0 */
	double change;
	double lo, hi; /* its interval (Hodges-Lehmann or t), when bounded */
	bool bounded;
	/* CELL_TESTED: */
	double p; /* the test's two-sided p-value */
	double p_adj; /* after the correction over the table */
	bool below; /* |change| below the resolution: never '*' */
	unsigned int suspect; /* SUSPECT_* bits */
	unsigned int alike; /* SUSPECT_STARVED, _IDLE: flagged, not suspect */
	/*
	 * The interval lies beyond what the flagged runs and the drift of
	 * both sides could account for (their bounds): the '*' stands
	 * despite the starved, idle or incomplete runs, or the drift
	 */
	bool beyond;
	enum cell_mark mark;
};

/*
 * One column: the runs of one variant of one or more files (the files of
 * a group, pooled), and whether its runs drift over their order.
 */
struct comparison_side {
	char *label;
	const struct resultfile **parts; /* [nparts] */
	unsigned int nparts;
	/*
	 * The boots its parts ran in, by environment.boot_id; parts of
	 * files without one count as one boot together
	 */
	unsigned int nboots;
	unsigned int nruns; /* complete runs, all counts */
	/* the trend test of the part (file) whose runs drift most */
	struct trend trend;
	const struct resultfile *trend_part;
	bool drift; /* trend.p below 1 - confidence */
	/*
	 * With drift: 1 + the largest span (trend.h) of its drifting parts,
	 * the most the drift could have moved a centre, either way; 1 without
	 */
	double drift_bound;
};

/*
 * struct comparison: what vfsbench compare found, for report_compare().
 * sides[0] is A, the reference. clients holds every client count that
 * some side has a complete run of, ascending. cells is a clients x sides
 * matrix, row-major: cell (row r, side f) is cells[r * nsides + f]. The
 * baseline is A's centre at baseline_clients: 1 client, or A's smallest
 * count when A has no 1-client result. notlike[f] (NULL for A and for
 * sides measured like A) lists the settings in which side f differs
 * from A. ntests cells were tested; the correction is over them.
 */
struct comparison {
	const struct compare_config *cc;
	struct resultfile *files; /* [nfiles] one per variant, owned */
	unsigned int nfiles;
	struct comparison_side *sides; /* [nsides] */
	unsigned int nsides;
	unsigned int *clients; /* [nclients] */
	unsigned int nclients;
	unsigned int baseline_clients;
	double baseline; /* A's centre at baseline_clients */
	struct comparison_cell *cells; /* [nclients * nsides] */
	char **notlike; /* [nsides] */
	/*
	 * The environment fields in which each other file differs from
	 * A's first: for each such file a line "'B' against 'A':", then
	 * one line per field, indented by two spaces (envfields.h)
	 */
	char **envdiff;
	unsigned int nenvdiff;
	unsigned int ntests;
	/*
	 * A side ran in more than one boot: each cell's sample is its
	 * boots' centres, not its runs, since runs of one boot share its
	 * layout (doc/kernels.md); the test is Welch's unless --test says
	 */
	bool by_boot;
	enum compare_test test; /* the one used: cc->test, or by boot's */
	bool all_exact; /* every rank test was exact */
	bool resolution; /* p99: the histogram's resolution applies */
};

static inline const struct comparison_cell *
comparison_cell(const struct comparison *cmp, unsigned int row,
		unsigned int side)
{
	return &cmp->cells[row * cmp->nsides + side];
}

/* The level of the tests: 1 - the confidence (0.05). */
static inline double comparison_alpha(const struct comparison *cmp)
{
	return 1 - cmp->cc->confidence;
}

#endif /* VB_COMPARE_COMPARISON_H */
