/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_RUN_SAMPLE_H
#define VB_RUN_SAMPLE_H

#include <stdbool.h>
#include <stdint.h>

#include "stats/result.h"

struct client;
struct pass_time;

/* --per-client-results: one op kind of one client, while measuring. */
struct op_brief {
	uint64_t count, timed, sum_ns, max_ns; /* as struct result's */
};

/*
 * One client's share of a run: for fixed-work samples (time per pass);
 * whether it was stuck, still in a system call when the main thread gave
 * up waiting for it after the stop (its figures are then missing); and
 * where it ran with what it used (the noise diagnostics). A run keeps one
 * per client of the whole job, by client number; in an MPI job rank 0
 * gets the other ranks' (run/peers.c), without their thread ids (0) and
 * affinity masks (NULL).
 */
struct client_sample {
	uint64_t passes;
	uint64_t ops;
	uint64_t elapsed_ns;
	bool stuck;
	int tid; /* its thread id, for /proc/self/task/TID and perf script */
	/* its host in an MPI job's layout: 0 is rank 0's, whose topology
	 * the report knows; cpu numbers are its host's */
	unsigned int host;
	int cpu; /* the CPU it was pinned to, -1 */
	int last_cpu; /* the CPU it last ran on when it stopped, -1 */
	char *affinity; /* its affinity mask as it saw it, owned; NULL */
	struct usage usage; /* while it measured */
	/* this rank's clients only (the dbench personality's figures) */
	uint64_t lines; /* ops since the release, warmup included */
	uint64_t bytes; /* while measuring */
	struct op_brief *brief; /* [nslots] with --per-client-results */
	struct pass_time *pass; /* [npass] with --show-execute-time */
	unsigned int npass;
};

/*
 * What the run keeps of client @c once it is joined: its figures, and its
 * affinity mask and pass times, which @cs takes over (NULL in @c); with
 * @brief (--per-client-results), @cs->brief.
 */
void client_sample_take(struct client_sample *cs, struct client *c, bool brief);

/*
 * @c did not return from a system call after the stop: @cs says so, with
 * its thread id and CPU (for the report).
 */
void client_sample_stuck(struct client_sample *cs, const struct client *c);

/*
 * The error for such a client, number @number, not back @stop_wait_ns
 * after the stop: which, and what the kernel says of its thread.
 */
void client_sample_report_stuck(const struct client_sample *cs,
				unsigned int number, uint64_t stop_wait_ns);

#endif /* VB_RUN_SAMPLE_H */
