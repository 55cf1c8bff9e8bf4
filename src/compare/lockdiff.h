/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_COMPARE_LOCKDIFF_H
#define VB_COMPARE_LOCKDIFF_H

#include <stdbool.h>
#include <stdint.h>

struct resultfile;

/*
 * struct lockdiff: the top locks (perf lock contention, profiles[].locks)
 * of two result files side by side, per client count both profiled: each
 * side's first LOCKDIFF_TOP lock callers, with how often each was
 * contended and its total wait on both sides. Not tested: a count of
 * contentions is no sample of a known population, and one run a side
 * gives no spread to test a change against.
 */
struct lockdiff_row {
	unsigned int clients;
	char *caller, *type;
	bool known_a, known_b; /* false: not in that file's list */
	uint64_t contended_a, contended_b;
	double wait_a, wait_b; /* total wait, ns */
};

/* A count where a side has no locks: why (profiles[].locks_absent). */
struct lockdiff_note {
	unsigned int clients;
	const char *absent_a, *absent_b; /* NULL: that side has its locks */
};

struct lockdiff {
	const char *label_a, *label_b;
	struct lockdiff_row *rows;
	unsigned int nrows;
	struct lockdiff_note *notes;
	unsigned int nnotes;
};

/* The rows of a count: each side's first so many lock callers. */
#define LOCKDIFF_TOP 5

/*
 * The top locks of @a and @b at each client count both profiled, where
 * either file has them (a file written before vfsbench recorded locks
 * has neither "locks" nor "locks_absent": no rows). Returns 0. Points
 * into @a and @b, which must outlive it.
 */
int lockdiff_build(struct lockdiff *ld, const struct resultfile *a,
		   const struct resultfile *b);

void lockdiff_release(struct lockdiff *ld);

#endif /* VB_COMPARE_LOCKDIFF_H */
