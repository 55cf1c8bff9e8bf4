/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_SYS_PERFSTAT_H
#define VB_SYS_PERFSTAT_H

#include <stdbool.h>
#include <sys/types.h>

#include "sys/perfctl.h"

/* The hardware counters --profile asks perf stat for, per point. */
#define PERF_STAT_NEVENTS 3
extern const char *const perf_stat_events[PERF_STAT_NEVENTS];

/* One counter once perf stat stopped. */
struct perf_counter {
	bool counted;
	double value;
	/* not counted: why, as perf said it ("not supported"); else NULL */
	char *absent;
};

/*
 * struct perf_stat: a "perf stat -x," on the same process as a perf
 * record, its events off (-D -1) and turned on and off with the
 * record's (perf_ctl.also), so that it counts the same measured
 * windows. Its output comes back through a pipe (--log-fd).
 */
struct perf_stat {
	pid_t pid;
	struct perf_ctl ctl;
	int log; /* the read end of its --log-fd */
	int noise; /* the read end of its stderr (perf_ctl.noise) */
	bool running;
	/* once stopped: each of perf_stat_events[], or why none at all */
	struct perf_counter counter[PERF_STAT_NEVENTS];
	char *absent; /* perf stat did not run or count: why; else NULL */
};

/*
 * Start perf stat on @target and wait until it is attached. A perf stat
 * that cannot run does not stop the profile: ps->absent says why and
 * ps->running is false. As perf record's, the wait has no deadline but
 * *@stop. Returns 0, or -errno when a pipe could not be
 * made (with a message).
 */
int perf_stat_start(struct perf_stat *ps, pid_t target,
		    const volatile sig_atomic_t *stop);

/*
 * Stop it (SIGINT: perf stat prints its counters and exits), read them
 * into ps->counter[], or ps->absent when there are none.
 */
void perf_stat_stop(struct perf_stat *ps);

/*
 * Read perf stat -x, output @text into @counter[PERF_STAT_NEVENTS]: a
 * line "VALUE,UNIT,EVENT,..." per event; VALUE "<not supported>" or
 * "<not counted>" is the reason it is absent. An event without a line
 * is absent too, said so.
 */
void perf_stat_parse(struct perf_counter *counter, const char *text);

/* Stop it if it runs; free what it holds. */
void perf_stat_release(struct perf_stat *ps);

#endif /* VB_SYS_PERFSTAT_H */
