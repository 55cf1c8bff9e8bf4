/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_RUN_SWEEP_H
#define VB_RUN_SWEEP_H

#include <stdbool.h>
#include <stdint.h>

#include "run/runconfig.h"
#include "stats/summary.h"

struct engine;
struct loadfile;
struct perf_ctl;
struct run;
struct run_second;
struct workdir;

/* The metric of the sweep table's relative column. */
enum metric {
	METRIC_OPS,
	METRIC_MBPS,
};

/*
 * One variant of the sweep: what one -c (and --variant value) names, the
 * loadfile and the settings its runs use. The sweep's own settings (the
 * client counts, --runs, --order, --seed) are those of the run_config
 * given to sweep_execute(); each variant's cfg holds the same and its
 * own isolation and depth.
 */
struct sweep_variant {
	const char *label;
	const struct run_config *cfg;
	const struct loadfile *lf;
	const struct engine *engine;
	/*
	 * --profile, --perf-ctl: per CLIENTS entry ([cfg->nclients]), the
	 * perf control whose events its runs turn on for their measurement
	 * (NULL: not profiled) and the perf.data it writes (NULL: the
	 * user's perf decides); NULL: no run is profiled.
	 */
	const struct perf_ctl *const *perf;
	const char *const *perf_file;
};

/*
 * One client count of one variant (one CLIENTS entry) and what its
 * --runs runs measured: the summaries across runs of ops/s, MB/s and
 * the p99 latency of all ops. Only runs that measured something count.
 */
struct point {
	unsigned int variant;
	unsigned int clients;
	struct run **runs; /* [cfg->runs], in execution order */
	unsigned int nruns; /* measured so far */
	struct summary ops_s, mb_s, p99_ns;
};

/*
 * struct sweep: every variant at every client count of the command line,
 * each run --runs times in the --order chosen, and the table relative to
 * the baseline point (1 client, or the smallest count when 1 is not in
 * the list). Runs are numbered across variants, so their directories
 * (run<index>) never collide.
 */
struct sweep {
	const struct run_config *cfg; /* the sweep's: counts, runs, order */
	const struct loadfile *lf; /* variant 0's */
	const struct sweep_variant *variants; /* [nvariants] */
	unsigned int nvariants;
	struct run *runs; /* [nruns], in execution order */
	unsigned int *variant_of; /* [nruns]: the variant of each run */
	unsigned int nruns;
	/*
	 * [nvariants x cfg->nclients]: variant by variant, each in
	 * command-line order; point (v, p) is points[v * nclients + p]
	 */
	struct point *points;
	unsigned int npoints;
	bool stopped; /* a run ended early, or runs were left undone */
	/*
	 * A client did not return from a system call (struct run's stuck):
	 * its run's memory and tree are left alone, and so must be the
	 * loadfile and the work directory.
	 */
	bool stuck;
};

/* One row of the sweep table. */
struct sweep_row {
	unsigned int clients;
	double ops_s;
	double mb_s;
	/* the CPUs its runs could use (run->cpus); 0: as many as clients */
	double cpus;
	double relative; /* metric / baseline metric */
	/*
	 * relative / (used / baseline used), used the clients or, when
	 * there are more, the CPUs they could use: 1.00 is linear
	 * scaling on the CPUs at hand
	 */
	double efficiency;
};

/*
 * The execution order of @npoints points x @runs repeats: fills @order
 * (npoints * runs point indexes). Random order is a Fisher-Yates shuffle
 * of the sequential order driven by @seed (splitmix64), so a seed
 * reproduces it; shuffled order is @runs rounds of every point, each
 * round shuffled alike.
 */
void sweep_schedule(unsigned int *order, unsigned int npoints,
		    unsigned int runs, enum run_order how, uint64_t seed);

/*
 * What the caller does with a sweep's results as they come (main() wires
 * them to the report): run() with each run that measured something, as it
 * ends, and its variant's label (NULL when there is one variant); done()
 * with the whole sweep once every point is summarised, also after an
 * early stop. Either may be NULL.
 */
struct sweep_hooks {
	void (*run)(const struct run *run, const char *variant, void *ctx);
	void (*done)(const struct sweep *sw, void *ctx);
	/* while each run goes: struct run_hooks (run.h) */
	void (*ready)(const struct run *run, void *ctx);
	void (*second)(const struct run *run, const struct run_second *sec,
		       void *ctx);
	void *ctx;
};

/*
 * Check, before anything is created, that the sweep's largest run fits in
 * the memory the process may use (struct memory_limits: RLIMIT_AS,
 * MemAvailable, the memory cgroup), with what the earlier runs keep.
 * Returns 0, or -ENOMEM with a message naming the figures.
 */
int sweep_check_memory(const struct run_config *cfg,
		       const struct sweep_variant *variants,
		       unsigned int nvariants);

/*
 * Run every variant at every client count, handing each run and then the
 * sweep to @hooks, with cfg->exec_before and exec_after run around each
 * run. Stops early on a signal, a failed setup, a failing exec hook or an
 * end forced by --strict or --max-errors. Returns the exit status for
 * main().
 */
int sweep_execute(struct sweep *sw, const struct run_config *cfg,
		  const struct sweep_variant *variants, unsigned int nvariants,
		  struct workdir *wd, const struct sweep_hooks *hooks);

/*
 * Fill relative and efficiency of @rows from clients, cpus, ops_s and mb_s,
 * against the baseline row, whose index is returned. Pure arithmetic,
 * unit-tested. A baseline metric of 0 gives relative 0.
 */
unsigned int sweep_rows_compute(struct sweep_row *rows, unsigned int n,
				enum metric metric);

void sweep_release(struct sweep *sw);

#endif /* VB_RUN_SWEEP_H */
