/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_RUN_SAMPLE_H
#define VB_RUN_SAMPLE_H

#include <stdbool.h>
#include <stdint.h>

#include "stats/result.h"

struct op_brief;
struct pass_time;

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

#endif /* VB_RUN_SAMPLE_H */
