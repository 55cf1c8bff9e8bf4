/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_RUN_RUN_H
#define VB_RUN_RUN_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "run/gate.h"
#include "stats/result.h"

struct client;
struct config;
struct engine;
struct loadfile;
struct progress;
struct workdir;

/*
 * Run phases, written by the main thread (and by the SIGINT/SIGTERM
 * handler, and by a client that hits --strict or --max-errors or reads a
 * time past the end of a timed phase), read by
 * clients once per op with a relaxed load: a client only needs to see a
 * change eventually, within one op, and no data is published through it.
 */
enum phase {
	PHASE_SETUP,
	PHASE_WARMUP,
	PHASE_MEASURE,
	PHASE_STOP,
};

/* Why a run ended. */
enum run_end {
	RUN_END_COMPLETE, /* time limit or --loops reached */
	RUN_END_STRICT, /* --strict: an unexpected result */
	RUN_END_MAX_ERRORS, /* --max-errors reached */
	RUN_END_SIGNAL, /* SIGINT or SIGTERM */
	RUN_END_FAILED, /* setup failed; nothing measured */
};

/* One client's share of a run: for fixed-work samples (time per pass). */
struct client_sample {
	uint64_t passes;
	uint64_t ops;
	uint64_t elapsed_ns;
};

/*
 * struct run: one measurement at one client count. Phases: setup of every
 * client in order (untimed, before the gate) -> gate opens -> warmup ->
 * measure -> stop -> join -> merge -> remove the run's tree.
 */
struct run {
	const struct config *cfg;
	const struct loadfile *lf;
	const struct engine *engine;
	unsigned int nclients;
	unsigned int index; /* position in the sweep, names the directory */
	unsigned int repeat; /* which of --runs at this client count */
	atomic_int phase; /* enum phase */
	atomic_int end; /* enum run_end, first writer wins */
	atomic_uint_fast64_t unexpected; /* with --strict / --max-errors */
	struct gate gate;
	struct client *clients;
	struct progress *progress; /* [nclients], one cache line each */
	struct result total; /* merged after join */
	struct client_sample *samples; /* [nclients], filled at join */
	uint64_t start_ns; /* first pthread_create -> gate opened */
	/*
	 * When the time-based phases end (CLOCK_MONOTONIC ns, UINT64_MAX:
	 * not by time), fixed before the gate opens for them. Clients end a
	 * phase themselves at the first op boundary past its end, so a run
	 * ends on time even when thousands of clients keep the main thread
	 * from the CPU.
	 */
	uint64_t measure_at; /* end of a --warmup given as a time */
	/* a --warmup in passes: every client arrives at the gate again
	 * after its passes (or when stopped), set before the gate opens */
	bool warm_gate;
	uint64_t stop_at; /* end of the measurement (-t) */
	unsigned int started; /* threads created */
	/* fds one client can hold at once in [setup] and in [run]: its
	 * handles and the fds its ops open by themselves */
	unsigned int setup_fds, run_fds;
};

void run_init(struct run *run, const struct config *cfg,
	      const struct loadfile *lf, const struct engine *engine,
	      unsigned int nclients, unsigned int index, unsigned int repeat);

/*
 * Set up, run and tear down. Returns 0 when something was measured (see
 * run->end for why it stopped), or -errno when setup failed (message
 * printed, run->end = RUN_END_FAILED) or the run's tree could not be
 * removed.
 */
int run_execute(struct run *run, struct workdir *wd);

/* Record why the run ends (the first reason wins) and stop the clients. */
void run_stop(struct run *run, enum run_end why);

/*
 * Clients that measured no op: with more runnable clients than CPUs, those
 * the scheduler did not run during the window (or that spent all of it
 * inside one op that had not started measuring). Valid after join.
 */
unsigned int run_idle_clients(const struct run *run);

/* Move the run on to @phase, unless it is stopped. */
void run_advance(struct run *run, enum phase phase);

void run_release(struct run *run);

#endif /* VB_RUN_RUN_H */
