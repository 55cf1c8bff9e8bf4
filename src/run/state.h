/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_RUN_STATE_H
#define VB_RUN_STATE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "engine/engine.h"
#include "run/gate.h"

struct loadfile;
struct progress;
struct run_config;

/*
 * Run phases, written by the main thread (and by the SIGINT/SIGTERM
 * handler, and by a client that hits --strict or --max-errors or reads a
 * time past the end of a timed phase), read by clients once per op with a
 * relaxed load: a client only needs to see a change eventually, within
 * one op, and no data is published through it.
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
	RUN_END_STUCK, /* a client did not return from a system call */
};

/*
 * struct run_state: what one run shares with its clients. The run
 * (run.c) holds it inside struct run and fills it before any client
 * starts; each client (client.c) keeps a pointer to it. Neither file
 * includes the other's header: this one is the whole of what they share.
 * Everything here is fixed before the gate opens except the atomics and
 * the gate.
 */
struct run_state {
	const struct run_config *cfg;
	const struct loadfile *lf;
	const struct engine *engine;
	/* the engine's functions in --resolve's mode, for the [run] section
	 * and the [setup] one (which --resolve beneath runs as dirfd) */
	engine_op_fn *opfn[OP_NR];
	engine_op_fn *opfn_setup[OP_NR];
	atomic_int phase; /* enum phase */
	atomic_int end; /* enum run_end, first writer wins */
	atomic_uint_fast64_t unexpected; /* with --strict / --max-errors */
	struct gate gate;
	struct progress *progress; /* [nlocal], one cache line each */
	/* [nlocal]: each client's number in the job, for ${client}, its
	 * directory and the [setup] lines that client 0 runs alone */
	const unsigned int *ids;
	/*
	 * When the time-based phases end (CLOCK_MONOTONIC ns, UINT64_MAX:
	 * not by time), fixed before the gate opens for them. Clients end a
	 * phase themselves at the first op boundary past its end, so a run
	 * ends on time even when thousands of clients keep the main thread
	 * from the CPU.
	 */
	uint64_t measure_at; /* end of a --warmup given as a time */
	uint64_t stop_at; /* end of the measurement (-t) */
	/*
	 * a --warmup in passes, or a profiled run's: every client arrives
	 * at the gate again after its passes, or at measure_at (or when
	 * stopped), set before the gate opens
	 */
	bool warm_gate;
	/* fds one client can hold at once in [setup] and in [run]: its
	 * handles and the fds its ops open by themselves */
	unsigned int setup_fds, run_fds;
	/*
	 * What tripped --strict or --max-errors: claimed by the first client
	 * to trip (trip_claimed), written by it alone, read by the main
	 * thread after the join, which orders the two.
	 */
	atomic_int trip_claimed;
	struct run_trip {
		const struct op *op; /* NULL: nothing tripped */
		int err; /* 0: it succeeded where an errno was expected */
		int phase; /* enum phase when it tripped */
		unsigned int client;
	} trip;
};

/* "complete", "strict", "max-errors", "signal", "failed": the result files' */
const char *run_end_name(enum run_end end);

/* Record why the run ends (the first reason wins) and stop the clients. */
void run_state_stop(struct run_state *rs, enum run_end why);

/*
 * --strict or --max-errors (@why) tripped at @op of client @client, which
 * returned @err: recorded if it is the first, then run_state_stop().
 */
void run_state_trip(struct run_state *rs, enum run_end why, const struct op *op,
		    int err, unsigned int client);

/* Move the run on to @phase, unless it is stopped. */
void run_state_advance(struct run_state *rs, enum phase phase);

#endif /* VB_RUN_STATE_H */
