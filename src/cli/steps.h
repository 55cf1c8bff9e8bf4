/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_CLI_STEPS_H
#define VB_CLI_STEPS_H

/*
 * The steps of a run command around its sweep, shared by the main run
 * (main.c) and the dbench personality (dbenchmain.c).
 */
#include <stdbool.h>

#include "cli/options.h"
#include "workdir/workdir.h"

/*
 * --clock: the TSC where sys/tsc.h finds it usable (auto) or where asked
 * for (tsc: an error where it is not), else CLOCK_MONOTONIC. Before any
 * thread starts. Returns 0, or -ENOTSUP with a message.
 */
int steps_choose_clock(struct config *cfg);

/* die() removes @wd (NULL: nothing) where an allocation fails. */
void steps_guard_workdir(struct workdir *wd);

/*
 * Remove the work directory, or say why it stays (a stuck client,
 * --skip-cleanup (@skip_cleanup) with @say, a second signal). Returns 0,
 * or -errno where it could not be removed (said).
 */
int steps_finish_workdir(bool skip_cleanup, struct workdir *wd, bool stuck,
			 bool say);

/* A closed standard output stops the sweep as a signal does (SIGPIPE). */
void steps_check_stdout(void);

/*
 * The exit status once the sweep is over: a stop signal's where nothing
 * else failed, and 3 where the report did not reach a reader who is
 * still there (said).
 */
int steps_end_status(int status);

#endif /* VB_CLI_STEPS_H */
