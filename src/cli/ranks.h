/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_CLI_RANKS_H
#define VB_CLI_RANKS_H

#include <stdbool.h>

#include "run/layout.h"

struct config;
struct loadfile;
struct workdir;

/*
 * main()'s part of an MPI job (doc/multi-host.md): the layout of the
 * ranks, and the meetings before and after the sweep at which every rank
 * must agree or every rank stops. Without mpirun each is a no-op and the
 * process is one rank.
 *
 * struct ranks: what main() keeps of the job for the report.
 */
struct ranks {
	struct layout layout; /* valid when active */
	bool active; /* started by mpirun: the meetings take place */
	bool *attached; /* [nranks]: works in rank 0's work directory */
	char **envs; /* [nranks]: each rank's "environment" as JSON text */
};

/*
 * A build without MPI that an MPI launcher started as one of several
 * processes, or of a job whose size the launcher does not say (PMIx):
 * each process would run a sweep of its own, unseen. Says so, with the
 * way to the MPI build, and returns the exit status 2; 0 otherwise (an
 * MPI build, no launcher, a job of one).
 */
int ranks_refuse_plain(void);
/*
 * Join the job when mpirun started this process: MPI, the host names
 * (VFSBENCH_HOST, or gethostname()), the layout, and the prefix of this
 * rank's messages. 0, or an exit status.
 */
int ranks_join(struct ranks *rk);
/* The layout of an active job, or NULL: what run_config points to. */
const struct layout *ranks_layout(const struct ranks *rk);
/*
 * Every rank's @status (an exit status): the first failing rank's, named
 * by rank 0 with @what, or 0. Returns @status without a job.
 */
int ranks_agree(struct ranks *rk, int status, const char *what);
/*
 * Options that every rank must share: rank 0's seed when --seed was not
 * given, the distribution of clients over the hosts; and the progress
 * line on rank 0 alone.
 */
int ranks_settle(struct ranks *rk, struct config *cfg);
/*
 * The loadfiles and the settings that decide what is measured, by hash:
 * equal on every rank, or a usage error naming the ranks that differ.
 */
int ranks_check(struct ranks *rk, const struct config *cfg,
		const struct loadfile *lf);
/*
 * The work directory: rank 0 creates it in its -D; every other rank
 * works in it if its -D shows it (a shared filesystem), or makes its own.
 * Returns what workdir_create() returns, or the first failing rank's
 * error (every rank then has removed what it made, so that every rank
 * exits with the same status); -ECANCELED when the ranks could not meet.
 */
int ranks_workdir(struct ranks *rk, const struct config *cfg,
		  struct workdir *wd);
/*
 * Every rank's environment (env_collect() of its -D, and its clock, with
 * @why_not_tsc where that is CLOCK_MONOTONIC) to rank 0, for the JSON.
 * Collective; 0 or -1.
 */
int ranks_envs(struct ranks *rk, const char *dir, const char *why_not_tsc);
/* Leave the job: in order, or, when a meeting was lost, by abort. */
void ranks_leave(struct ranks *rk, int status);

#endif /* VB_CLI_RANKS_H */
