/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_RUN_RUN_H
#define VB_RUN_RUN_H

#include <stdbool.h>
#include <stdint.h>

/* struct run, and the forward declarations its functions need */
#include "run/runtype.h"

void run_init(struct run *run, const struct run_config *cfg,
	      const struct loadfile *lf, const struct engine *engine,
	      unsigned int nclients, unsigned int index, unsigned int repeat);

/*
 * Set up, run and tear down. Returns 0 when something was measured (see
 * run->end for why it stopped), or -errno when setup failed (message
 * printed, run->end = RUN_END_FAILED) or the run's tree could not be
 * removed.
 */
int run_execute(struct run *run, struct workdir *wd);

/*
 * Clients that measured no op: with more runnable clients than CPUs, those
 * the scheduler did not run during the window (or that spent all of it
 * inside one op that had not started measuring). Valid after join.
 */
unsigned int run_idle_clients(const struct run *run);

/*
 * The clients a run counts where a report says clients: its client
 * threads (CLIENTS), each --uring-depth lanes, and each lane a client of
 * its own (its directory, ${client}, handles).
 */
unsigned int run_clients(const struct run *run);

/*
 * A run's figures: ops/s and MB/s over the measurement window, and the
 * p99 latency of all ops.
 */
double run_ops_per_sec(const struct run *run);
double run_mb_per_sec(const struct run *run);
double run_p99_ns(const struct run *run);

void run_release(struct run *run);

#endif /* VB_RUN_RUN_H */
