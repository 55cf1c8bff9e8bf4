/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_RUN_VERDICT_H
#define VB_RUN_VERDICT_H

#include <stdbool.h>
#include <stdint.h>

struct run;

/*
 * Why a run that ended "complete" is still not the run that was asked
 * for (bits of run_verdict.incomplete): compare treats such a run as it
 * treats a starved one.
 */
enum {
	INCOMPLETE_OVERRAN = 1, /* the window overran -t by over the margin */
	INCOMPLETE_RANK_LATE =
		2, /* a rank opened its gate late or ended late */
	INCOMPLETE_UNMEASURED = 4, /* clients measured no op */
};

/*
 * How far a window or a rank may stray from -t before the run is marked:
 * a tenth of -t, and at least 100 ms (an op in flight at the stop, and
 * a busy machine's wakeups, take that much).
 */
#define VERDICT_MARGIN_MIN_NS 100000000ull
#define VERDICT_MARGIN_DIV    10

/* What a finished run says about itself (rank 0's, for an MPI job). */
struct run_verdict {
	double cpu_share; /* result_cpu_share() */
	double wait_share; /* result_wait_share(), the unmeasured counted */
	unsigned int unmeasured; /* clients that measured no op */
	bool starved;
	uint64_t asked_ns; /* -t; 0 with --loops: no overrun then */
	uint64_t margin_ns;
	uint64_t overrun_ns; /* the window beyond -t, 0 if none */
	/* the first rank found late (-1: none), and by how much */
	int late_rank;
	uint64_t late_ns;
	bool late_start; /* it opened its gate late (else it ended late) */
	unsigned int incomplete; /* INCOMPLETE_* bits */
};

/* Work out @v for @run, after run_execute(). */
void run_verdict(const struct run *run, struct run_verdict *v);

/*
 * How many of @runs[0..@n) were starved (run_verdict.starved): a table's
 * cell of those runs is marked '!' where it is not 0.
 */
unsigned int run_verdict_starved(struct run *const *runs, unsigned int n);

/* The JSON and text names of INCOMPLETE_* bit @bit ("overran"...). */
const char *run_verdict_name(unsigned int bit);

#endif /* VB_RUN_VERDICT_H */
