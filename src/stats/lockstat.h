/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_STATS_LOCKSTAT_H
#define VB_STATS_LOCKSTAT_H

#include <stdint.h>

/*
 * struct lock_stat: the top locks of one profiled point, read back from
 * "perf lock contention" (tracepoint mode, over a perf lock record of the
 * point's measured windows): per lock caller as perf names it, how often
 * it was contended and how long the waits took. Where perf gave no table
 * (it failed, or found nothing to read), @absent holds what it said.
 */
struct lock_row {
	uint64_t contended;
	/* nanoseconds, as perf printed them (rounded to its 2 decimals) */
	double wait_total, wait_max, wait_avg;
	char *type; /* "spinlock", "rwsem:W", "mutex"... */
	char *caller; /* "do_unlinkat+0x160" */
};

struct lock_stat {
	struct lock_row *row; /* [n], in perf's order (total wait) */
	unsigned int n;
	char *absent; /* NULL when perf printed its table */
};

/*
 * Read perf lock contention's output @text (its standard output and
 * error, where perf 6.1 prints the table). @status: how perf ended in
 * words ("exited with status 234"), NULL for a clean exit. A table read
 * back gives the rows (possibly none); a failed perf, or one that
 * printed no table, gives ls->absent: its own messages, one line each
 * joined by "; ", and how it ended. Returns 0.
 */
int lock_stat_parse(struct lock_stat *ls, const char *text, const char *status);

void lock_stat_release(struct lock_stat *ls);

#endif /* VB_STATS_LOCKSTAT_H */
