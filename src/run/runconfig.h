/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_RUN_RUNCONFIG_H
#define VB_RUN_RUNCONFIG_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/engine.h"

/*
 * struct run_config: what a sweep, its runs and their clients are told,
 * as plain data. The command line (cli/options.c) fills it; nothing in
 * run/ parses anything. Read-only once the sweep starts.
 */
enum cwd_mode {
	CWD_PRIVATE, /* clients/clientN per client (dbench's layout) */
	CWD_SHARED, /* one directory for all clients */
};

enum fs_mode {
	FS_PRIVATE, /* unshare(CLONE_FS) per client */
	FS_SHARED, /* the process's fs_struct, shared by all clients */
};

enum fdt_mode {
	FDT_SHARED, /* one fd table for the process (threads) */
	FDT_PRIVATE, /* unshare(CLONE_FILES) per client */
};

/* --prefix: whose are the --depth directories a lookup walks through */
enum prefix_mode {
	PREFIX_PRIVATE, /* each client's own chain, in its directory */
	PREFIX_SHARED, /* one chain of the run's, then each client's own */
};

enum warmup_kind {
	WARMUP_TIME,
	WARMUP_PASSES,
};

/* The dentry cache when a run's clock starts (--dcache). */
enum dcache_mode {
	DCACHE_WARM, /* as the setup left it */
	DCACHE_COLD, /* dropped by the main thread after the setup */
	DCACHE_NEGATIVE, /* dcache_negative missing names looked up */
};

#define DCACHE_NEGATIVE_MAX 10000000u

/* The order of a sweep's runs when --runs repeats each client count. */
enum run_order {
	ORDER_SEQUENTIAL, /* 1,1,1,2,2,2 */
	ORDER_INTERLEAVED, /* 1,2,1,2,1,2 */
	ORDER_RANDOM, /* a shuffle, seeded (--seed) */
	ORDER_SHUFFLED, /* rounds of every count, each shuffled (--seed) */
};

#define MAX_CLIENTS 100000

struct layout;
struct placement;

struct run_config {
	uint64_t time_ns; /* measurement time; unused with loops */
	uint64_t loops; /* passes per client; 0: run for time_ns */
	enum warmup_kind warmup_kind;
	uint64_t warmup; /* ns or passes */
	enum cwd_mode cwd;
	enum fs_mode fs;
	enum fdt_mode fdt;
	/* the walk (vfsbench(1), "Path walks"): the components put in front
	 * of every path an op resolves, whose they are, and where the
	 * lookup starts */
	unsigned int depth;
	enum prefix_mode prefix;
	enum resolve_mode resolve;
	enum dcache_mode dcache;
	/* DCACHE_NEGATIVE: the negative dentries each client makes in its
	 * directory at the end of its setup (client 0 only with --cwd
	 * shared), 1 to DCACHE_NEGATIVE_MAX */
	uint32_t dcache_negative;
	bool skip_cleanup;
	bool strict;
	bool uring_strict; /* -e uring refuses the ops that fall back */
	bool uring_fixed; /* -e uring opens into the ring's file table */
	/* --uring-depth: lanes per client thread (0 and 1: one, no lanes) */
	unsigned int uring_depth;
	bool quiet; /* no progress line */
	/* standard output is a pipe or socket whose reader going away
	 * (vfsbench | head) stops the run as a SIGPIPE would */
	bool watch_stdout;
	/* the dbench personality's layout: the clients in
	 * <workdir>/clientN, no run<i>/ of their own, left for the caller to
	 * remove (the work directory is dbench's DIR/clients) */
	bool dbench_tree;
	bool pass_times; /* --show-execute-time: keep every pass's time */
	bool per_client; /* --per-client-results: keep each client's table */
	uint64_t max_errors; /* 0: no limit */
	/* --latency-sample: each client times one op in N of each kind (its
	 * slot): the 1st, the N+1st... of the measurement; 0 or 1: every op */
	uint32_t latency_sample;
	/* after a stop, how long to interrupt clients still blocked in a
	 * system call before giving up on them (--stop-timeout) */
	uint64_t stop_wait_ns;
	/* null engine: errno to return per op kind ([OP_NR]), or NULL */
	const int *null_fail;
	/* the sweep */
	unsigned int runs; /* repeats per client count */
	enum run_order order;
	uint64_t seed; /* for ORDER_RANDOM */
	unsigned int *clients; /* the sweep, in order */
	unsigned int nclients;
	/* the ranks of an MPI job and where clients go (run/layout.h);
	 * NULL: one process */
	const struct layout *layout;
	/* --placement: where the clients are pinned; NULL: nowhere */
	const struct placement *placement;
	/*
	 * --exec-before, --exec-after: shell commands run before and after
	 * each run of the sweep (sweep.c), or NULL
	 */
	const char *exec_before, *exec_after;
};

/*
 * --uring-depth's lanes per client thread: each lane is a client of its
 * own (directory, ${client}, [setup], handles) but for its thread.
 */
static inline unsigned int run_config_lanes(const struct run_config *cfg)
{
	return cfg->uring_depth > 1 ? cfg->uring_depth : 1;
}

/*
 * Where lookups really start: --resolve, but a dirfd for lanes asked to
 * resolve from the cwd (a thread has one cwd, each lane its directory).
 */
static inline enum resolve_mode run_config_resolve(const struct run_config *cfg)
{
	if (run_config_lanes(cfg) > 1 && cfg->resolve == RESOLVE_CWD)
		return RESOLVE_DIRFD;
	return cfg->resolve;
}

#endif /* VB_RUN_RUNCONFIG_H */
