/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_SYS_PERF_H
#define VB_SYS_PERF_H

#include <stdbool.h>
#include <sys/types.h>

#include "sys/perfctl.h"
#include "sys/perflock.h"
#include "sys/perfstat.h"

/*
 * struct perf_record: a "perf record -g" that vfsbench started on
 * itself (--profile), attached to the process with its events off
 * (-D -1), under a control of pipes that vfsbench holds: the run turns
 * the events on for its measurement and off after it. Timestamps are
 * CLOCK_MONOTONIC (-k mono), the clock of the measurement windows in
 * the result files.
 */
struct perf_record {
	pid_t pid;
	struct perf_ctl ctl;
	char *file; /* perf.data written, as given */
	bool running;
	int status; /* wait status once stopped */
	/* the counters of the same windows (ctl.also), or why none */
	struct perf_stat stat;
	/* the lock contention of the same windows, or why none */
	struct perf_lock lock;
};

/*
 * Start perf record for process @target, writing @file, sampling @event
 * (NULL: perf's default, cycles, or cpu-clock where the CPU has no
 * counters), and wait until it is attached. Returns 0, or -errno with a
 * message that says why: perf missing, not permitted
 * (perf_event_paranoid), or exited early. A perf stat is started beside
 * it; one that cannot run leaves pr->stat.absent saying why. So is a perf
 * lock record writing @lock_file (NULL: none), or pr->lock.absent.
 * Each of them is waited for without a deadline, until it acks, exits,
 * or *@stop (a stop signal's count) is set.
 */
int perf_record_start(struct perf_record *pr, pid_t target, const char *file,
		      const char *event, const char *lock_file,
		      const volatile sig_atomic_t *stop);

/*
 * Send the record's commands to its perf stat and perf lock record too
 * (pr->ctl.also), once @pr is where it stays: the links point into @pr.
 */
void perf_record_pin(struct perf_record *pr);

/*
 * Stop it, its perf stat and perf lock record (SIGINT: perf writes the
 * file and exits) and wait. Returns 0
 * when it exited with status 0 or of that SIGINT, else -1 with a message.
 */
int perf_record_stop(struct perf_record *pr);

/* Stop it if it runs; free what it holds. */
void perf_record_release(struct perf_record *pr);

#endif /* VB_SYS_PERF_H */
