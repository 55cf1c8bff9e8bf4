/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_RUN_RUNTYPE_H
#define VB_RUN_RUNTYPE_H

/*
 * The definition of struct run, apart from its functions (run.h), so that
 * runstart.c, which run.c calls, can see its fields without a loop.
 */
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "run/client.h"
#include "run/peers.h"
#include "run/progressline.h"
#include "run/sample.h"
#include "run/state.h"
#include "stats/result.h"

struct client;
struct run;
struct engine;
struct pass_time;
struct perf_ctl;
struct loadfile;
struct run_config;
struct workdir;

/*
 * What a run tells its caller while it goes: ready() once every client is
 * set up, just before the gate opens; second() for each second of the
 * warmup and the measurement. Either may be NULL.
 */
struct run_hooks {
	void (*ready)(const struct run *run, void *ctx);
	void (*second)(const struct run *run, const struct run_second *sec,
		       void *ctx);
	void *ctx;
};

/*
 * struct run: one measurement at one client count. Phases: setup of
 * client 0, then of the others in parallel (untimed, before the gate) -> gate
 * opens -> warmup -> measure -> stop -> join -> merge -> remove the run's tree.
 * What the clients see of it is state (run/state.h).
 */
struct run {
	struct run_state state;
	unsigned int nclients; /* of the whole job: the CLIENTS value */
	/*
	 * This rank's clients (all of them without MPI) and their numbers
	 * in the job: clients, progress, ids are [nlocal]; samples are
	 * [nclients], by number (rank 0 gets the others' at the end)
	 */
	unsigned int nlocal;
	unsigned int *ids;
	unsigned int index; /* position in the sweep, names the directory */
	unsigned int repeat; /* which of --runs at this client count */
	struct client *clients;
	struct result total; /* merged after join (rank 0: of every rank) */
	struct client_sample *samples; /* [nclients], filled at join */
	struct peers peers; /* the other ranks of an MPI job */
	uint64_t start_ns; /* first pthread_create -> gate opened (or the
			    * setup's end, when it stopped early) */
	unsigned int started; /* threads created */
	unsigned int ready; /* clients whose [setup] was done */
	unsigned int setup_inflight; /* clients setting up at once */
	/*
	 * Clients that did not return from a system call after the stop
	 * (samples[].stuck): they are not joined, and the run's memory and
	 * its tree are left as they are, since they may still touch them.
	 */
	unsigned int stuck;
	uint64_t stopped_at; /* when the main thread saw the stop */
	uint64_t released_ns; /* CLOCK_MONOTONIC when the gate opened */
	const struct run_hooks *hooks; /* NULL: none */
	double cpus; /* the CPUs its clients may use (placement_cpus()) */
	/* --resolve abs: the work directory's absolute path, or NULL */
	char *abs_root;
	/* where the main thread was moved while the clients ran, or NULL */
	char *main_affinity;
	/*
	 * --profile, --perf-ctl: set by the sweep when perf records this
	 * run (NULL: not), with the perf.data it writes (NULL: the user's
	 * perf decides). The events are turned on just before the
	 * measurement starts and off once every client has stopped;
	 * perf_on_ns (before "enable" is sent) and perf_off_ns (once
	 * "disable" is acknowledged) bound every sample (CLOCK_MONOTONIC).
	 */
	const struct perf_ctl *perf;
	const char *perf_file;
	uint64_t perf_on_ns, perf_off_ns;
	struct run_place place; /* set by the sweep, for the progress line */
};

#endif /* VB_RUN_RUNTYPE_H */
