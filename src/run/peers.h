/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_RUN_PEERS_H
#define VB_RUN_PEERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mpi/job.h"
#include "run/sample.h"
#include "stats/result.h"

struct layout;
struct run_state;

/*
 * The ranks of an MPI job meet (doc/multi-host.md, doc/design.md
 * "Many hosts"): in main() to agree on the options, the loadfile, the
 * work directory and whether the sweep goes on, and in each run:
 *
 *   setup:  rank 0 sets its clients up first (client 0 runs a shared
 *           directory's [setup] lines), then the others theirs;
 *   ready:  every rank says whether its setup went well; one that failed
 *           stops the run everywhere, and rank 0 names it;
 *   start:  clock offsets to rank 0 (ping-pong), then a start time rank 0
 *           picks: every rank opens its gate then, in its own clock;
 *   stop:   a rank that stops early (--strict, --max-errors, a signal)
 *           tells the others, which stop too;
 *   end:    every rank's outcome to every rank, its figures to rank 0,
 *           which merges them into one result.
 *
 * Each meeting is a gather to rank 0 and a broadcast back, so rank 0
 * knows who did not come; how a wait gives up is run/meet.h's.
 *
 * With one rank every function returns at once: a plain build and a
 * plain run go through the same code.
 */

/* The stop a rank tells the others of. */
struct peer_notice {
	int32_t end; /* enum run_end */
	int32_t sig; /* with RUN_END_SIGNAL */
};

/* What rank 0 keeps of each rank's part of a run. */
struct rank_share {
	unsigned int clients;
	struct result res; /* the window in rank 0's clock */
	int64_t start_ns; /* its gate opened this long after the agreed start */
	uint64_t clock_err_ns; /* the bound of its clock offset */
	int end; /* enum run_end, as that rank saw it */
};

/* What a run does with the other ranks; in struct run. */
struct peers {
	const struct layout *layout; /* NULL: one process */
	unsigned int index; /* the run's, for messages */
	unsigned int nlocal; /* this rank's clients */
	bool notified; /* this rank told the others it stopped */
	bool noticed; /* a notice stopped this rank */
	bool ended; /* its end was told: no notice after that */
	int64_t offset_ns; /* this rank's clock minus rank 0's */
	uint64_t offset_err_ns;
	uint64_t start_at; /* the agreed start, in this rank's clock */
	uint64_t gate_at; /* when this rank's gate opened */
	struct job_req notice_in;
	struct peer_notice in, out;
	struct job_req *notice_out; /* [nranks] */
	/* after the run, on rank 0 (and stopped_by on every rank) */
	struct rank_share *ranks; /* [nranks] */
	unsigned int nranks;
	uint64_t skew_ns; /* latest gate opening minus the earliest */
	uint64_t sync_err_ns; /* the largest offset bound */
	int stopped_by; /* the rank whose stop ended the run early, or -1 */
};

/* The counts a rank adds to a run's, at its end. */
struct peer_counts {
	uint64_t start_ns; /* setup and release: the largest */
	unsigned int started, ready, stuck;
};

/*
 * The sweep goes on only if every rank's @status (an exit status) is 0
 * and @more runs are left; the first failing rank's status becomes
 * @status (its signal raised here, so that the sweep stops as for one of
 * this rank's own). Returns whether the sweep goes on.
 */
bool peers_continue(const struct layout *l, int *status, bool more,
		    uint64_t stop_wait_ns);

/* Set up @p for run @index of @nlocal clients (no allocation). */
void peers_init(struct peers *p, const struct layout *l, unsigned int index,
		unsigned int nlocal);
/*
 * Setup: on ranks but 0, wait for rank 0's setup; 0, or -ECANCELED when
 * it failed or was stopped (then this rank sets nothing up).
 */
int peers_before_setup(struct peers *p, struct run_state *rs);
/*
 * Ready: this rank's setup ended with @status (0 or -errno; -EINTR a
 * stop); 0 when every rank is ready, else @status or -ECANCELED (the run
 * stopped as the failing rank's was, named by rank 0).
 */
int peers_ready(struct peers *p, struct run_state *rs, int status);
/*
 * Start: the agreed start time; returns once it has come, with
 * p->gate_at. 0, or -errno (the job is lost).
 */
int peers_start(struct peers *p, struct run_state *rs);
/* While the run goes on: tell of this rank's stop, heed the others'. */
void peers_tick(struct peers *p, struct run_state *rs);
/*
 * End: every rank's outcome (the run's end becomes the job's), and on
 * rank 0 @total, @samples ([nclients], by client number) and @counts
 * become the whole job's. 0, or -errno (the job is lost).
 */
int peers_finish(struct peers *p, struct run_state *rs, struct result *total,
		 struct client_sample *samples, unsigned int nclients,
		 const unsigned int *ids, struct peer_counts *counts);
void peers_release(struct peers *p);

#endif /* VB_RUN_PEERS_H */
